/**
 * A worker that makes its client once, at module level, on its first request, and keeps it for every
 * later request (as many workers keep an SDK client), with `durableObjectCoordinator` on the
 * worker's own `AudienceCoordinator` namespace (leases of 30 s: a slot given back only with a lease
 * renewal shows as a wait of 10 s). GET /run?base=…&calls=N makes N calls at once with that client
 * and answers { failed, errors, made }; with &perRequest=1 it makes a client for this request
 * instead (the pattern docs/MANY-PROCESSES.md gives).
 */
import { AudienceCoordinator, durableObjectCoordinator } from "../../../src/cloudflare/index.ts";
import type { DurableObjectNamespaceLike } from "../../../src/cloudflare/types.ts";
import { type AudienceClient, createAudienceClient } from "../../../src/index.ts";

export { AudienceCoordinator };

let kept: AudienceClient | undefined;
let made = 0;

function clientFor(env: { AUDIENCE_COORDINATOR: DurableObjectNamespaceLike }, base: string): AudienceClient {
  made += 1;
  return createAudienceClient({
    baseUrl: base,
    credentials: { username: "module-partner", password: "module-password" },
    partnerId: "module-partner",
    coordinator: durableObjectCoordinator(env.AUDIENCE_COORDINATOR, { timing: { leaseMs: 30_000 } }),
  });
}

export default {
  async fetch(request: Request, env: { AUDIENCE_COORDINATOR: DurableObjectNamespaceLike }): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname !== "/run") return new Response("not found", { status: 404 });
    const base = url.searchParams.get("base") ?? "";
    const perRequest = url.searchParams.get("perRequest") === "1";
    if (!perRequest) kept ??= clientFor(env, base);
    const c = perRequest ? clientFor(env, base) : (kept as AudienceClient);
    const calls = Number(url.searchParams.get("calls") ?? 1);
    const errors: string[] = [];
    let failed = 0;
    await Promise.all(
      Array.from({ length: calls }, async (_, i) => {
        try {
          const { response } = await c.GET("/events/{eid}", { params: { path: { eid: `evt-${i + 1}` } } });
          if (!response.ok) throw new Error(`status ${response.status}`);
        } catch (error) {
          failed += 1;
          if (errors.length < 3)
            errors.push(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
        }
      }),
    );
    return Response.json({ failed, errors, made });
  },
};
