/**
 * What the client takes as an AbortSignal: anything it can follow (`aborted`, `reason`, and an
 * abort event through `addEventListener`), by its shape, not its class. A signal of another realm
 * (an iframe's, a test environment's) or a polyfill's (`abort-controller`) fails `instanceof
 * AbortSignal`, yet the client never hands a caller's signal to fetch: each call follows it with
 * a controller of its own (call-signal.ts, on-abort.ts), so such a signal works as well.
 */
export function isAbortSignal(value: unknown): value is AbortSignal {
  const signal = value as Partial<AbortSignal> | null;
  return (
    typeof signal === "object" &&
    signal !== null &&
    typeof signal.aborted === "boolean" &&
    typeof signal.addEventListener === "function" &&
    typeof signal.removeEventListener === "function"
  );
}

/**
 * Why `signal` aborted. A polyfill's signal (the npm `abort-controller`) has no `reason`: a call
 * rejected with undefined, which openapi-fetch takes for no error at all (it then read the headers
 * of no response). An abort without a reason is the standard's AbortError, as `controller.abort()` gives.
 */
export const reasonOf = (signal: AbortSignal): unknown =>
  signal.reason ?? new DOMException("This operation was aborted", "AbortError");

/** `signal.throwIfAborted()` for any signal {@link isAbortSignal} takes (a polyfill's has no such method). */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw reasonOf(signal);
}

/** The issue of a helper's `signal` that is no AbortSignal (null and undefined are none). */
export const signalIssues = (signal: unknown): Array<{ field: string; message: string }> =>
  signal != null && !isAbortSignal(signal) ? [{ field: "signal", message: "must be an AbortSignal" }] : [];
