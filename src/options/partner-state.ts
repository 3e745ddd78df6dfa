/** Where the partner's shared state lives and how it paces: `coordinator`, `ratePacing`, `rateLimitQuietPeriodMs`. */

import { CLIENT_DEFAULTS } from "../limits.ts";
import type { AudienceClientOptions, ClientConfig } from "../option-types.ts";
import { fail, isObject, method, nonNegative } from "./checks.ts";

export function pacingOptions(
  options: AudienceClientOptions,
): Pick<ClientConfig, "rateLimitQuietPeriodMs" | "ratePacing"> {
  if (options.ratePacing !== undefined && typeof options.ratePacing !== "boolean")
    fail("ratePacing", "must be true or false");
  return {
    rateLimitQuietPeriodMs: nonNegative(
      "rateLimitQuietPeriodMs",
      options.rateLimitQuietPeriodMs,
      CLIENT_DEFAULTS.rateLimitQuietPeriodMs,
    ),
    ratePacing: options.ratePacing ?? true,
  };
}

export function coordinatorOption(coordinator: AudienceClientOptions["coordinator"]): ClientConfig["coordinator"] {
  if (coordinator !== undefined && (!isObject(coordinator) || !method(coordinator, "partner")))
    fail("coordinator", "must be a coordinator (redisCoordinator(), fileCoordinator()): it has no partner() function");
  if (coordinator?.session !== undefined && !method(coordinator, "session"))
    fail("coordinator", "session must be a function");
  return coordinator;
}
