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
