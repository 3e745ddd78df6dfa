/**
 * Section 3 rule 3: POST /setup_processes/{eid} is not idempotent; after a 429 or an ambiguous
 * failure, check whether the earlier call succeeded before repeating it. A draft that exists now
 * is the result of the first call; a 404 means it never happened. (No check is documented for
 * POST /campaigns/, which is therefore never repeated.)
 */
import type { CallContext } from "./policy.ts";
import type { WriteCheck } from "./retry-policy.ts";

export function writeChecks(
  send: (request: Request) => Promise<Response>,
): (ctx: CallContext) => WriteCheck | undefined {
  const checks: Record<string, WriteCheck> = {
    "POST /setup_processes/{eid}": async (ctx) => {
      try {
        const response = await send(
          new Request(ctx.url, {
            method: "GET",
            headers: { accept: "application/json" },
            ...(ctx.signal ? { signal: ctx.signal } : {}),
          }),
        );
        if (response.ok) return response;
        if (response.status === 404) return "absent";
        return "unknown";
      } catch (error) {
        if (ctx.signal?.aborted) throw error;
        return "unknown";
      }
    },
  };
  return (ctx) => (ctx.op ? checks[`${ctx.op.method} ${ctx.op.path}`] : undefined);
}
