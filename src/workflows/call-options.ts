/**
 * One convention for the helpers' last argument: an options object with
 * `signal`, `deadlineMs` and `priority`. A bare AbortSignal is still accepted where a helper took
 * one before, so existing calls keep working (one of another realm too: internal/abort-signal.ts).
 * The fields' values are checked where every call's are (guards/init-fields.ts).
 */
import { type HelperClient, refusedIn } from "../errors/refused-in.ts";
import { ValidationError } from "../errors/validation-error.ts";
import { isAbortSignal, signalIssues } from "../internal/abort-signal.ts";
import { type RawResult, unwrap } from "../unwrap.ts";
import { deadlineAt, withDeadline } from "./deadline.ts";

/** The last argument of a one-call helper. */
export interface CallOptions {
  /** Aborting ends the call. */
  signal?: AbortSignal;
  /** The call's deadline, its retry waits included: a wait that would end after it fails at once (`retryAt`). */
  deadlineMs?: number;
  /** `"low"` sends the call in the partner's background lane. */
  priority?: "high" | "low" | "auto";
}

/** What to spread into the helper's call: the signal, the deadline (counted from now), the lane. */
export function callInit(
  options: AbortSignal | CallOptions | undefined,
): { signal?: AbortSignal; priority?: "high" | "low" | "auto" } & ReturnType<typeof withDeadline> {
  if (options == null) return {};
  if (isAbortSignal(options)) return { signal: options };
  if (typeof options !== "object")
    throw new ValidationError([
      { field: "options", message: "must be { signal, deadlineMs, priority } or an AbortSignal" },
    ]);
  const { signal, deadlineMs, priority } = options as CallOptions;
  // Checked here too, before a helper's own work (a publish's flush) rather than at its call.
  const issues = signalIssues(signal);
  if (issues.length > 0) throw new ValidationError(issues);
  return {
    ...(signal ? { signal } : {}),
    ...withDeadline(deadlineAt(deadlineMs)),
    ...(priority ? { priority } : {}),
  };
}

/**
 * A helper's options as given: none (undefined or null) or an object. Anything else (an ad platform
 * given as a string where the options go) is a ValidationError naming them, not options ignored;
 * so is a bare AbortSignal, an object whose abort would be ignored where only `signal` is read.
 */
export function objectOptions<T extends object>(options: T | null | undefined, shape = "an object"): Partial<T> {
  if (options == null) return {};
  const signal = isAbortSignal(options);
  if (typeof options !== "object" || signal)
    throw new ValidationError([
      { field: "options", message: `must be ${shape}${signal ? ", not an AbortSignal: give it as `signal`" : ""}` },
    ]);
  return options;
}

/**
 * The client a helper is given is one (what `createAudienceClient` returned), or a ValidationError
 * naming `client`: nothing, or the client's options given instead, would fail later as a bare
 * TypeError, or hide the helper's own refusal behind one.
 */
export function checkHelperClient(client: unknown): asserts client is HelperClient {
  if (typeof (client as HelperClient | null)?.config?.baseUrl?.href !== "string")
    throw new ValidationError([
      { field: "client", message: "must be an AudienceClient (what createAudienceClient() returns)" },
    ]);
}

/** A helper's work in its client's name (errors/refused-in.ts), once the client is one. */
export async function helperWork<T>(client: HelperClient, work: () => Promise<T>): Promise<T> {
  checkHelperClient(client);
  return refusedIn(client, work);
}

/**
 * A one-call helper's call: `options` spread into it, its result unwrapped, and what it is refused
 * with before sending (its options, its own checks) completed with the client's partner and environment.
 */
export const helperCall = <T>(
  client: HelperClient,
  options: AbortSignal | CallOptions | undefined,
  call: (init: ReturnType<typeof callInit>) => Promise<RawResult<T>>,
): Promise<T> => helperWork(client, async () => unwrap(await call(callInit(options))));
