/**
 * One call of the client, as one read-only value. The engine's first step (prepare.ts) builds it
 * from what the caller gave; every later step — the partner's turn (admit.ts), the crossing of
 * openapi-fetch (send.ts), the transport's policies (transport/create-transport.ts) — reads it and
 * nothing else about the call. A new per-call option is a field here and a line in the step that
 * uses it.
 */
import type { OperationInfo } from "../../generated/operations.ts";
import type { CallParams } from "../client-types.ts";
import type { Lane, TurnRequest } from "../coordination/coordinator.ts";

export interface Call extends TurnRequest {
  readonly method: string;
  /** The path as the caller wrote it (a template of the description, or a path outside it). */
  readonly path: string;
  /** The operation's row of the description; undefined for a path outside it. */
  readonly op: OperationInfo | undefined;
  /** The call's parameters, the client's defaults filled (`adPlatform`). */
  readonly params: CallParams | undefined;
  readonly body: unknown;
  /**
   * What the caller gave openapi-fetch, as given (headers, `parseAs`, `middleware`, serializers,
   * and the Fetch init fields passed on to `fetch`), less the helpers' options (helper-options.ts).
   */
  readonly init: Readonly<Record<string, unknown>>;
  /** The caller's signal. */
  readonly signal: AbortSignal | undefined;
  /** The partner's queue: "background" for `priority: "low"`. */
  readonly lane: Lane;
  /**
   * Monotonic ms (internal/clock.ts) by which the call must end: a helper's `deadlineMs` or the
   * client's `retry.deadlineMs` counted from the moment the call was made (a wait for code still
   * loading included: call/after-load.ts), the earlier.
   */
  readonly deadlineAt: number | undefined;
  /** With a deadline, the monotonic ms when the call was made (a TimeoutError names the deadline as given). */
  readonly askedAt: number | undefined;
  /** Whether the caller reads a 2xx body as JSON (openapi-fetch's default `parseAs`). */
  readonly parseJson: boolean;
  /** False for a poll's fetch: its own schedule retries it (Section 8.5), not the transport. */
  readonly transportRetries: boolean;
  /**
   * Whether a user's middleware sees the call (the client's, or the call's own): openapi-fetch then
   * builds real Requests of the caller's class, and a response's body stays readable for it.
   */
  readonly middleware: boolean;
  /** The call's own `fetch` (openapi-fetch's per-request option): its attempts end there. */
  readonly fetch: ((request: Request) => Promise<Response>) | undefined;
  /** The call's own `Request` class (openapi-fetch's per-request option). */
  readonly requestClass: typeof Request | undefined;
}
