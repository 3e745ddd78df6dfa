/**
 * Turns the caller's options into one complete, frozen configuration: defaults filled, bad values
 * refused with a TypeError that names the option. Nothing downstream re-checks or re-defaults.
 * Each group of options is checked in its own module under options/; the types are option-types.ts.
 */

import type { AudienceClientOptions, ClientConfig } from "./option-types.ts";
import { addressOptions } from "./options/addresses.ts";
import { authOptions } from "./options/auth.ts";
import { isObject, own } from "./options/checks.ts";
import { loggerOption, observerOptions } from "./options/observers.ts";
import { coordinatorOption, pacingOptions } from "./options/partner-state.ts";
import { transportOptions } from "./options/transport.ts";
import { workflowOptions } from "./options/workflow.ts";

export type {
  AudienceClientOptions,
  ClientConfig,
  Logger,
  MeterLike,
  RetryOptions,
  TracerLike,
} from "./option-types.ts";
export { normalizeCredentials, normalizeSessionTokens } from "./options/auth.ts";

export function normalizeOptions(input: AudienceClientOptions): ClientConfig {
  if (!isObject(input)) throw new TypeError("createAudienceClient: options must be an object");
  const options = own(input) as unknown as AudienceClientOptions;
  const allowBrowser = options.dangerouslyAllowBrowser === true;
  return Object.freeze({
    ...addressOptions(options),
    ...authOptions(options, allowBrowser),
    ...transportOptions(options),
    logger: loggerOption(options.logger),
    ...workflowOptions(options),
    ...pacingOptions(options),
    dangerouslyAllowBrowser: allowBrowser,
    ...observerOptions(options),
    coordinator: coordinatorOption(options.coordinator),
  });
}
