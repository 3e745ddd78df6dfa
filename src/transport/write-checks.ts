/**
 * Section 3 rule 3: POST /setup_processes/{eid} is not idempotent; after a 429 or an ambiguous
 * failure, check whether the earlier call succeeded before repeating it. A 404 means it never
 * happened. A draft that exists now proves our write only if it holds what was sent: a draft that
 * existed before (someone else's) or was changed since is not our create, and the check says so
 * rather than handing it back as the result. (No check is documented for POST /campaigns/, which
 * is therefore never repeated.)
 */

import type { CallContext } from "./policy.ts";
import type { WriteCheck } from "./retry-policy.ts";

export function writeChecks(
  send: (request: Request) => Promise<Response>,
): (ctx: CallContext) => WriteCheck | undefined {
  const checks: Record<string, WriteCheck> = {
    "POST /setup_processes/{eid}": async (ctx) => {
      let response: Response;
      try {
        response = await send(
          new Request(ctx.url, {
            method: "GET",
            headers: { accept: "application/json" },
            ...(ctx.signal ? { signal: ctx.signal } : {}),
          }),
        );
      } catch (error) {
        if (ctx.signal?.aborted) throw error;
        return unknown(ctx, "the check (GET of the draft) failed");
      }
      if (response.status === 404) return "absent";
      if (!response.ok) return unknown(ctx, `the check (GET of the draft) answered HTTP ${response.status}`);
      const text = await response.text();
      if (!holdsWhatWasSent(parse(text), parse(ctx.body))) {
        return unknown(
          ctx,
          "a draft exists but does not hold what this create sent (it existed before, or was changed since): this payload is not stored; load() the draft and update() it",
        );
      }
      return new Response(text, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    },
  };
  return (ctx) => (ctx.op ? checks[`${ctx.op.method} ${ctx.op.path}`] : undefined);
}

/**
 * internal/is-record.ts's check, kept here: this module is a chunk of its own (lazy-write-checks.ts),
 * and importing a module the up-front code has would make esbuild split that code into one more chunk.
 */
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function unknown(ctx: CallContext, note: string): "unknown" {
  ctx.writeCheckNote = note;
  return "unknown";
}

function parse(body: unknown): unknown {
  if (typeof body !== "string") return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/** Every field sent is in the draft found, with the same value (the draft may carry more). */
function holdsWhatWasSent(found: unknown, sent: unknown): boolean {
  if (!isRecord(found) || !isRecord(sent)) return false;
  return Object.entries(sent).every(([key, value]) => deepEqual(found[key], value));
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  }
  if (!isRecord(a) || !isRecord(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => deepEqual(a[k], b[k]));
}
