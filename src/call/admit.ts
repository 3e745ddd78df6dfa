/**
 * The engine's second step: the partner's turn, taken before anything is built for the call (a
 * waiting call holds its value only), when the session knows the partner. Otherwise the call
 * takes its turn in the transport's limiter step, as retries do: before the first sign-in, when a
 * user's middleware sees the call first (openapi-fetch's order), or when a deadline governs the
 * wait (the transport's TooLate and timers).
 */
import type { Turn } from "../coordination/coordinator.ts";
import { mayWaitUnbuilt } from "../transport/caller-code.ts";
import type { AdmittedTurn } from "../transport/policy.ts";
import type { Call } from "./call.ts";

export interface AdmitDeps {
  readonly partnerFor: (partnerId: string) => { turn(call: Call): Turn | Promise<Turn> };
  /** The session's partner, once it is known (undefined before the first sign-in). */
  readonly partnerId: () => string | undefined;
  /** The client's `retry.deadlineMs`: a deadline on every call. */
  readonly deadlineMs: number | undefined;
  /** Whether the partner's state is the user's coordinator (it may fail otherwise than by an abort). */
  readonly userCoordinator: boolean;
}

export function createAdmit<T>(
  deps: AdmitDeps,
  send: (call: Call, admitted: AdmittedTurn | undefined) => Promise<T>,
): (call: Call) => Promise<T> {
  const partnerOf = (call: Call): string | undefined => {
    if (!call.op?.auth || !mayWaitUnbuilt(call) || call.signal?.aborted) return undefined;
    if (call.deadlineAt !== undefined || deps.deadlineMs !== undefined) return undefined;
    return deps.partnerId();
  };
  return (call) => {
    const partnerId = partnerOf(call);
    if (partnerId === undefined) return send(call, undefined);
    let pending: Turn | Promise<Turn>;
    try {
      pending = deps.partnerFor(partnerId).turn(call); // the call is its own TurnRequest
    } catch {
      return send(call, undefined); // left to the transport's limiter step, which reports it
    }
    if (!(pending instanceof Promise)) return send(call, { partnerId, turn: pending });
    const admitted = (turn: Turn): Promise<T> => send(call, { partnerId, turn });
    // The process's own limiter refuses a turn only for the caller's abort (no deadline here):
    // that rejection goes to the caller as it is, with no handler of ours (a handler that throws
    // costs ~2 µs per call: aborting 100 000 queued calls). A coordinator of the user's may fail
    // otherwise (Redis away with failClosed): that failure is left to the transport's limiter step,
    // which retries and reports it as it always does.
    if (!deps.userCoordinator) return pending.then(admitted);
    return pending.then(admitted, (error: unknown) => {
      if (call.signal?.aborted) throw error;
      return send(call, undefined);
    });
  };
}
