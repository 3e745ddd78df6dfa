/**
 * A `fetch` wrapper installed at start (`node --import ./test/support/fetch-wrapper.mjs`), as an
 * APM agent or a framework installs one: it replaces the global fetch before any application code
 * is loaded, and watches each request's signal, as a wrapper that logs or cleans up on abort does.
 * `globalThis.__wrapperSaw` lists, per request it received, whether and why its signal aborted.
 */
const runtimeFetch = globalThis.fetch;
const saw = [];
globalThis.__wrapperSaw = saw;
globalThis.fetch = function fetch(input, init) {
  const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
  const entry = { url: String(input instanceof Request ? input.url : input), aborted: false, reason: undefined };
  saw.push(entry);
  signal?.addEventListener("abort", () => {
    entry.aborted = true;
    entry.reason = String(signal.reason?.message ?? signal.reason);
  });
  return runtimeFetch(input, init);
};
