/**
 * A worker (think Vercel Edge or Deno Deploy: no TCP, no Durable Object) whose client shares the
 * partner's budget and session through `redisCoordinator` over REST, made per request as
 * docs/MANY-PROCESSES.md shows. The REST URL and token are bindings, never in a URL or the code.
 * GET /run?base=…&calls=N makes N calls at once and answers { failed, errors, away }.
 */
import { createAudienceClient } from "../../../src/index.ts";
import { redisCoordinator, restRedis } from "../../../src/redis/index.ts";

interface Env {
  readonly REDIS_REST_URL: string;
  readonly REDIS_REST_TOKEN: string;
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname !== "/run") return new Response("not found", { status: 404 });
    const away: string[] = [];
    const coordinator = redisCoordinator({
      redis: restRedis({ url: env.REDIS_REST_URL, token: env.REDIS_REST_TOKEN }),
      keyPrefix: "edge:",
      onUnavailable: (error) => away.push(`${error.name}: ${error.message}`),
    });
    const client = createAudienceClient({
      baseUrl: url.searchParams.get("base") ?? "",
      credentials: { username: "edge-partner", password: "edge-password" },
      partnerId: "edge-partner",
      coordinator,
    });
    const calls = Number(url.searchParams.get("calls") ?? 1);
    const errors: string[] = [];
    let failed = 0;
    await Promise.all(
      Array.from({ length: calls }, async (_, i) => {
        try {
          const { response } = await client.GET("/events/{eid}", { params: { path: { eid: `evt-${i + 1}` } } });
          if (!response.ok) throw new Error(`status ${response.status}`);
        } catch (error) {
          failed += 1;
          if (errors.length < 3)
            errors.push(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
        }
      }),
    );
    await coordinator.close();
    return Response.json({ failed, errors, away });
  },
};
