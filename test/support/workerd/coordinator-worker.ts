/**
 * The worker the Durable Object tests run in workerd: it exports `AudienceCoordinator` as a partner
 * would (docs/MANY-PROCESSES.md), and answers nothing else itself.
 */
export { AudienceCoordinator } from "../../../src/cloudflare/index.ts";

export default {
  fetch(): Response {
    return new Response("the coordinator's host", { status: 404 });
  },
};
