/**
 * `{ signal }` to spread into a call's init, or nothing when there is no signal (the init types
 * take `signal?: AbortSignal`, and `exactOptionalPropertyTypes` refuses an explicit undefined).
 */
export const withSignal = (signal: AbortSignal | undefined): { signal?: AbortSignal } => (signal ? { signal } : {});
