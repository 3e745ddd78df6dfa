/**
 * A process whose global fetch was replaced before the package loaded (test/support/fetch-wrapper.mjs,
 * given with `--import`): three calls answered at once, then one that times out and one its caller
 * cancels. Prints, as JSON, what the wrapper saw of each request's signal.
 * argv[2]: the recording server's base URL; its /events/slow never answers in time.
 */
import { createAudienceClient } from "../../src/index.ts";
import { makeTokens } from "./tokens.ts";

const baseUrl = process.argv[2] as string;
const t = makeTokens();
const client = createAudienceClient({
  baseUrl,
  session: { accessToken: t.AccessToken, idToken: t.IdToken },
  timeoutMs: 1_500,
  retry: { maxAttempts: 1 },
});
const read = (eid: string, signal?: AbortSignal) =>
  client.GET("/events/{eid}", { params: { path: { eid } }, ...(signal ? { signal } : {}) });
for (let i = 0; i < 3; i++) await read(`e${i}`);
await read("slow").catch(() => undefined);
for (let i = 3; i < 6; i++) await read(`e${i}`);
const cancel = new AbortController();
setTimeout(() => cancel.abort(new Error("the caller cancelled")), 50);
await read("slow", cancel.signal).catch(() => undefined);
const saw = (globalThis as unknown as { __wrapperSaw: unknown[] }).__wrapperSaw;
process.stdout.write(`${JSON.stringify(saw)}\n`);
