/**
 * `@audience-intelligence/client/cloudflare`: one partner's session and rate budget shared by every
 * isolate of a Cloudflare Worker, through a Durable Object. Each isolate is its own process: without
 * this, eight busy isolates send up to 64 calls at once and sign in eight times (Sections 5.8, 8.1,
 * 8.4 set the limits per partner). The root entry and the browser bundle carry none of this.
 *
 * ```ts
 * import { createAudienceClient } from "@audience-intelligence/client";
 * import { durableObjectCoordinator } from "@audience-intelligence/client/cloudflare";
 * export { AudienceCoordinator } from "@audience-intelligence/client/cloudflare";
 *
 * export default {
 *   async fetch(request, env) {
 *     const client = createAudienceClient({ ...options, coordinator: durableObjectCoordinator(env.AUDIENCE_COORDINATOR) });
 *     // …
 *   },
 * };
 * ```
 *
 * docs/MANY-PROCESSES.md has the wrangler configuration (the binding and its migration).
 * @module @audience-intelligence/client/cloudflare
 */
import type { Coordinator, PartnerKey, SessionKey } from "../coordination/coordinator.ts";
import {
  flagOption,
  observerOption,
  optionFailure,
  optionsObject,
  timingOption,
} from "../coordination/store-options.ts";
import { observe } from "../internal/observe.ts";
import { ObjectLink } from "./link.ts";
import { ObjectPartner } from "./object-partner.ts";
import { ObjectSessionShare } from "./object-session.ts";
import { DURABLE_OBJECT_DEFAULTS, type DurableObjectTiming, type ObjectSettings } from "./settings.ts";
import type { DurableObjectNamespaceLike } from "./types.ts";

export type { Coordinator } from "../coordination/coordinator.ts";
export { AudienceCoordinator } from "./audience-coordinator.ts";
export { DURABLE_OBJECT_DEFAULTS, type DurableObjectTiming } from "./settings.ts";
export type {
  DurableObjectIdLike,
  DurableObjectNamespaceLike,
  DurableObjectStateLike,
  DurableObjectStorageLike,
  DurableObjectStubLike,
} from "./types.ts";

/** The logger methods the coordinator uses (the client's `logger` option fits). */
export interface CoordinatorLogger {
  /** The object stopped answering: this isolate goes on with its fair share. */
  warn?(message: string, details?: Record<string, unknown>): void;
  /** The object answers again. */
  info?(message: string, details?: Record<string, unknown>): void;
}

/** Options of {@link durableObjectCoordinator}. */
export interface DurableObjectCoordinatorOptions {
  /** Told once when the object stops answering, and once when it answers again. */
  readonly logger?: CoordinatorLogger;
  /**
   * While the object does not answer, fail calls (a retryable NetworkError) instead of going on with
   * this isolate's fair share of the partner's last known cap and pace. @default false
   */
  readonly failClosed?: boolean;
  /** Told each time a request to the object fails (for your metrics). */
  readonly onUnavailable?: (error: Error) => void;
  /** Told when the object answers again and the shared state is used again. */
  readonly onRestored?: () => void;
  /** Shorter or longer leases and waits than {@link DURABLE_OBJECT_DEFAULTS} (tests, unusual deployments). */
  readonly timing?: DurableObjectTiming;
}

/**
 * This isolate's id, shared by every coordinator made in it (a worker makes one per request, with
 * the request's `env`): the object counts isolates, not requests. Drawn at the first call: Workers
 * refuse random values in a module's global scope.
 */
let isolate: string | undefined;
const isolateId = (): string => {
  isolate ??= crypto.randomUUID();
  return isolate;
};
let leases = 0;
/** A lease id unique in this isolate, whichever coordinator asks. */
const nextLeaseId = (): string => `${isolateId()}:${++leases}`;

const fail = optionFailure("durableObjectCoordinator");

/**
 * The logger's `level`, called on the logger (a class's method needs its `this`); one that throws
 * or rejects changes nothing of a call (internal/observe.ts).
 */
function logOf(logger: unknown, level: "warn" | "info"): ObjectSettings["warn"] {
  if (logger === undefined) return () => {};
  if (typeof logger !== "object" || logger === null)
    return fail("logger", "must be an object with warn/info functions");
  const log = logger as Record<string, unknown>;
  if (log[level] === undefined) return () => {};
  if (typeof log[level] !== "function") return fail(`logger.${level}`, "must be a function");
  return (message, details) => observe(() => (log[level] as CoordinatorLogger["info"])?.call(logger, message, details));
}

/**
 * A coordinator that keeps the partner's slots, pace, cool-downs and session in `AudienceCoordinator`
 * objects of `namespace` (the worker's binding): one object per environment and partner, one per
 * environment and sign-in identity for the session.
 */
export function durableObjectCoordinator(
  namespace: DurableObjectNamespaceLike,
  options: DurableObjectCoordinatorOptions = {},
): Coordinator {
  const ns = namespace as Partial<DurableObjectNamespaceLike> | null;
  if (typeof ns?.idFromName !== "function" || typeof ns.get !== "function")
    throw new TypeError(
      "durableObjectCoordinator: namespace must be a Durable Object namespace binding (idFromName() and get())",
    );
  const given = optionsObject("durableObjectCoordinator", options);
  const settings: ObjectSettings = {
    ...timingOption(given.timing, DURABLE_OBJECT_DEFAULTS, fail),
    get isolateId() {
      return isolateId();
    },
    nextLeaseId,
    failClosed: flagOption(given.failClosed, "failClosed", fail),
    warn: logOf(given.logger, "warn"),
    info: logOf(given.logger, "info"),
    onUnavailable: observerOption(given.onUnavailable, "onUnavailable", fail),
    onRestored: observerOption(given.onRestored, "onRestored", fail),
  };
  const partners = new Map<string, ObjectPartner>();
  return {
    partner(key: PartnerKey): ObjectPartner {
      const id = `${key.environment}\n${key.partnerId ?? ""}\n${key.maxConcurrency}\n${key.reducedConcurrency}\n${key.quietMs}\n${key.pacing}`;
      let partner = partners.get(id);
      if (!partner) {
        const link = new ObjectLink(namespace, `partner\n${key.environment}\n${key.partnerId ?? ""}`);
        partner = new ObjectPartner(link, key, settings);
        partners.set(id, partner);
      }
      return partner;
    },
    session(key: SessionKey): ObjectSessionShare {
      const name = `session\n${key.environment}\n${key.identity}`;
      return new ObjectSessionShare(new ObjectLink(namespace, name), name, settings);
    },
  };
}
