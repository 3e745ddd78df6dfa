/**
 * The worker that hosts the coordinator objects in the Durable Object tests and bench, run in
 * workerd: it exports `AudienceCoordinator` as a partner's worker does (docs/MANY-PROCESSES.md).
 * A request with `?name=` is passed to the object of that name: isolates in another workerd reach
 * the objects through it, so that this workerd can be restarted under them.
 */
import { AudienceCoordinator } from "../../../src/cloudflare/index.ts";
import type { DurableObjectNamespaceLike } from "../../../src/cloudflare/types.ts";

export { AudienceCoordinator };

export default {
  async fetch(request: Request, env: { AUDIENCE_COORDINATOR: DurableObjectNamespaceLike }): Promise<Response> {
    const name = new URL(request.url).searchParams.get("name");
    if (name === null) return new Response("the coordinator's host", { status: 404 });
    const ns = env.AUDIENCE_COORDINATOR;
    const body = await request.text();
    return ns.get(ns.idFromName(name) as never).fetch(request.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
  },
};
