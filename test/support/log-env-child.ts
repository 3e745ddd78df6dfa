/**
 * A child process for the AUDIENCE_LOG tests: one client of the fake API at argv[2] signs in with
 * the password of argv[3], reads an event (the server answers 503 once, then 200) and an event whose
 * connection the server always drops (the call fails, and is caught here). With argv[4] "explicit-logger", the client is given `logger: {}`.
 * Prints nothing itself: what reaches stderr is the client's.
 */
import { createAudienceClient } from "../../src/index.ts";

const [baseUrl, password, mode] = process.argv.slice(2) as [string, string, string | undefined];
const client = createAudienceClient({
  baseUrl,
  credentials: { username: "ops@acme.test", password },
  retry: { baseDelayMs: 1, maxDelayMs: 2, maxAttempts: 2 },
  ...(mode === "explicit-logger" ? { logger: {} } : {}),
});
await client.GET("/events/{eid}", { params: { path: { eid: "flaky" } } });
await client.GET("/events/{eid}", { params: { path: { eid: "broken" } } }).catch(() => undefined);
