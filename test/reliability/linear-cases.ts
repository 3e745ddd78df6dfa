/**
 * Server or caller data of size n, each given to one function of the client that reads it: the
 * cases test/reliability/hostile-data.test.ts times at n and 4n (in a child process, see
 * test/support/linear-time.ts). `n` is chosen so that a quadratic implementation would take
 * seconds at 4n (the benchmark value pattern before the fix: ~2 s at 60 KB).
 */
import { table } from "../../scripts/demo-print.ts";
import { errorCodeOf, groupsClaims } from "../../src/assumptions.ts";
import { readOnce } from "../../src/call/read-once.ts";
import { jsonBodyIssues } from "../../src/guards/json-body.ts";
import { idIssues } from "../../src/guards/path-params.ts";
import { rawPathIssues } from "../../src/guards/raw-path.ts";
import { decodeJwtPayload } from "../../src/internal/jwt.ts";
import { notForPartnerTokens } from "../../src/internal/not-for-partner-tokens.ts";
import { onAbort } from "../../src/internal/on-abort.ts";
import { createOperationMatcher } from "../../src/internal/operation-index.ts";
import { Redactor } from "../../src/internal/redact.ts";
import { terminalSafe } from "../../src/internal/terminal-text.ts";
import { normalizeOptions } from "../../src/options.ts";
import { partnerFromIdToken } from "../../src/session/partner.ts";
import { parseRetryAfter } from "../../src/transport/retry-after.ts";
import { benchmarkValuesOf, normalizeBenchmark } from "../../src/workflows/benchmark.ts";

export interface LinearCase {
  /** The smaller size; the case is also timed at 4n. */
  readonly n: number;
  /** Builds the input of size `size` once, and returns the call to time. */
  readonly prepare: (size: number) => () => unknown;
}

const linear = <T>(c: { n: number; input: (n: number) => T; run: (input: T) => unknown }): LinearCase => ({
  n: c.n,
  prepare: (size) => {
    const input = c.input(size);
    return () => c.run(input);
  },
});

const swallow = (f: () => unknown): void => {
  try {
    f();
  } catch (error) {
    if (error instanceof RangeError) throw error; // a stack overflow is a failure, not an answer
  }
};

const nested = (depth: number, key: string, leaf: unknown): unknown => {
  let node = leaf;
  for (let i = 0; i < depth; i++) node = { [key]: node };
  return node;
};

const jwt = (claims: unknown): string => `e30.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.c2ln`;

const bases = { main: new URL("http://127.0.0.1/api/v3"), media: new URL("http://127.0.0.1/api/media") };
const match = createOperationMatcher(bases);

export const cases: Record<string, LinearCase> = {
  // Section 2: benchmark values are numbers or numeric strings, from the server.
  "benchmark value: digits then junk": linear({
    n: 15_000,
    input: (n) => [`${"1".repeat(n)}x`],
    run: (values: string[]) => swallow(() => normalizeBenchmark(values)),
  }),
  "benchmark value: fraction digits then junk": linear({
    n: 15_000,
    input: (n) => [`1.${"1".repeat(n)}x`],
    run: (values: string[]) => swallow(() => normalizeBenchmark(values)),
  }),
  "benchmark value: exponent then junk": linear({
    n: 15_000,
    input: (n) => [`1e${"1".repeat(n)}.`],
    run: (values: string[]) => swallow(() => normalizeBenchmark(values)),
  }),
  "benchmark walk: wide body": linear({
    n: 20_000,
    input: (n) => ({ series: Array.from({ length: n }, (_, i) => ({ other: { benchmark: i } })) }),
    run: (body: unknown) => benchmarkValuesOf(body),
  }),
  "benchmark walk: deep body": linear({
    n: 2_000,
    input: (n) => nested(n, "data", { values: [1, "2"] }),
    run: (body: unknown) => swallow(() => benchmarkValuesOf(body)),
  }),
  // Section 7: the error code, from an error body.
  "error code: pattern": linear({
    n: 20_000,
    input: (n) => `error${".a".repeat(n)}!`,
    run: (body: string) => errorCodeOf(body),
  }),
  "error code: long segment": linear({
    n: 20_000,
    input: (n) => `error.${"a".repeat(n)} `,
    run: (body: string) => errorCodeOf(body),
  }),
  "error code walk: deep body": linear({
    n: 2_000,
    input: (n) => nested(n, "error", "not a code"),
    run: (body: unknown) => swallow(() => errorCodeOf(body)),
  }),
  // Section 5.3: the groups claim of the IdToken, from the identity provider.
  "groups claim: separators": linear({
    n: 20_000,
    input: (n) => ({ groups: `a${" ,\t".repeat(n)}b` }),
    run: (claims: Record<string, unknown>) => groupsClaims(claims),
  }),
  "groups claim: many claims": linear({
    n: 5_000,
    input: (n) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`idp${i}:groups`, [`g${i}`]])),
    run: (claims: Record<string, unknown>) => swallow(() => groupsClaims(claims)),
  }),
  "partner id pattern": linear({
    n: 20_000,
    input: (n) => jwt({ groups: [`partner-id-${"a-".repeat(n)}!`] }),
    run: (idToken: string) => swallow(() => partnerFromIdToken(idToken, [/^partner-id-[a-z0-9][a-z0-9_-]*$/i])),
  }),
  "jwt payload decoding": linear({
    n: 20_000,
    input: (n) => `e30.${"-_".repeat(n)}.c2ln`,
    run: (token: string) => decodeJwtPayload(token),
  }),
  // Section 8.3: Retry-After, from the server.
  "retry-after: seconds then junk": linear({
    n: 20_000,
    input: (n) => `${"1".repeat(n)}.${"1".repeat(n)}x`,
    run: (value: string) => parseRetryAfter(value, 0),
  }),
  // Caller data: the base URL, request paths and ids.
  "base url: trailing slashes": linear({
    n: 5_000,
    input: (n) => `http://127.0.0.1${"/".repeat(n)}api/v3`,
    run: (baseUrl: string) =>
      swallow(() => normalizeOptions({ baseUrl, session: { accessToken: "token-for-a-test" } })),
  }),
  "adPlatform: nested percent-encoding": linear({
    n: 5_000,
    input: (n) => `meta%${"25".repeat(n)}41`,
    run: (adPlatform: string) =>
      swallow(() =>
        normalizeOptions({
          baseUrl: "https://api.example.test/api/v3",
          session: { accessToken: "token-for-a-test" },
          adPlatform,
        }),
      ),
  }),
  "raw path to an endpoint not for partner tokens: trailing slashes": linear({
    n: 5_000,
    input: (n) => `/campaign_results${"/".repeat(n)}x`,
    run: (path: string) => notForPartnerTokens(path),
  }),
  "operation matcher: long segment": linear({
    n: 20_000,
    input: (n) =>
      new URL(`http://127.0.0.1/api/v3/integrations/${"a".repeat(n)}/events/${"b".repeat(n)}/campaign_results!`),
    run: (url: URL) => match("GET", url),
  }),
  "raw path guard: dot segments": linear({
    n: 20_000,
    input: (n) => `/${"../%2e".repeat(n)}`,
    run: (path: string) => rawPathIssues(path),
  }),
  "id guard: dots": linear({
    n: 20_000,
    input: (n) => ".%2e".repeat(n),
    run: (id: string) => idIssues(id, "eid"),
  }),
  "json body guard: wide and deep body": linear({
    n: 20_000,
    input: (n) => ({ creatives: [nested(n / 10, "a", 1), ...Array.from({ length: n }, (_, i) => ({ i, tags: [i] }))] }),
    run: (body: unknown) => jsonBodyIssues(body, 1_000_000),
  }),
  // Smaller than its neighbours: each copy allocates as much as it reads, and at 80 000 elements
  // the copies outgrow V8's young generation, so that the ratio measured the garbage collector
  // (6.6–8.1 on an idle machine). At 5 000 it is 4.2–4.6, and a copy that looks up what it has
  // copied in a list (quadratic) still gives 13.
  "body read once: wide and deep body copied": linear({
    n: 5_000,
    input: (n) => ({ creatives: [nested(n / 10, "a", 1), ...Array.from({ length: n }, (_, i) => ({ i, tags: [i] }))] }),
    run: (body: unknown) => readOnce({ body }),
  }),
  // Text for humans.
  "terminal escaping": linear({
    n: 20_000,
    input: (n) => "a\u001b[2J\u009b\u202e".repeat(n),
    run: (text: string) => terminalSafe(text),
  }),
  "demo table: distinct keys per row": linear({
    n: 300,
    input: (n) => Array.from({ length: n }, (_, i) => ({ [`key${i}`]: `value ${i}` })),
    run: (rows: Array<Record<string, unknown>>) => table(rows),
  }),
  // A caller's signal shared by n calls: each follows it, half settle (and stop following), the
  // rest are aborted at once; the signal's one listener comes and goes with its followers.
  // 10 000, not more: at 200 000 followers (4 × 50 000) the closures outgrow V8's young generation
  // and the ratio measured the garbage collector (4.5–8 idle, 10.1 in a loaded CI run). A listener
  // per follower (quadratic in Node's EventTarget) still takes 7.5 s at 4n here, a ratio of 20.
  "one signal followed by many calls: settle half, abort the rest": linear({
    n: 10_000,
    input: (n) => n,
    run: (n: number) => {
      const controller = new AbortController();
      let aborted = 0;
      const stops = Array.from({ length: n }, () => onAbort(controller.signal, () => (aborted += 1)));
      for (let i = 0; i < n; i += 2) stops[i]?.();
      controller.abort();
      return aborted;
    },
  }),
  // A sign-in body's token is learned by the redactor, then every text is matched against it.
  "redactor: a long token learned and looked for": linear({
    n: 250_000,
    input: (n) => ({ token: `eyJhbGciOiJub25lIn0.${"QUJD".repeat(n / 4)}.c2ln`, text: "x ".repeat(n / 2) }),
    run: ({ token, text }: { token: string; text: string }) => {
      const redactor = new Redactor();
      redactor.set("id", token);
      return redactor.text(text + token);
    },
  }),
};
