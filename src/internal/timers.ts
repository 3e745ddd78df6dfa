/**
 * Timer bounds. Node (and browsers) fire a timer of 2^31 ms or more after 1 ms, so a wait that
 * long would not be a wait at all: options are refused above it (options/checks.ts), and no wait the
 * client schedules may exceed it.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** setTimeout that refuses a delay the runtime would not honour. */
export function setBoundedTimeout(fn: () => void, ms: number): ReturnType<typeof setTimeout> {
  const delay = Math.max(0, ms);
  if (!(delay <= MAX_TIMER_MS))
    throw new RangeError(`a wait of ${ms} ms exceeds the timer limit of ${MAX_TIMER_MS} ms`);
  return setTimeout(fn, delay);
}
