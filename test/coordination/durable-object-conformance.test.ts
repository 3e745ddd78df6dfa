/**
 * The Durable Object coordinator passes the conformance suite against the real `AudienceCoordinator`
 * object in workerd (Miniflare 4): each `open()` is another `durableObjectCoordinator` on the
 * namespace binding, as another isolate would have; no fake of the Durable Object API.
 */
import type { Miniflare } from "miniflare";
import { afterAll, beforeAll, describe } from "vitest";
import { durableObjectCoordinator } from "../../src/cloudflare/index.ts";
import type { DurableObjectNamespaceLike } from "../../src/cloudflare/types.ts";
import { bundleWorker, COMPATIBILITY_DATE, startMiniflare } from "../support/workerd.ts";
import { partnerConformance, sessionConformance } from "./conformance.ts";

let mf: Miniflare | undefined;
let namespace: DurableObjectNamespaceLike;

beforeAll(async () => {
  mf = startMiniflare({
    modules: true,
    script: await bundleWorker("coordinator-worker.ts"),
    compatibilityDate: COMPATIBILITY_DATE,
    durableObjects: { AUDIENCE_COORDINATOR: "AudienceCoordinator" },
  });
  namespace = fromNode(
    (await mf.getDurableObjectNamespace("AUDIENCE_COORDINATOR")) as unknown as DurableObjectNamespaceLike,
  );
}, 60_000);

/**
 * Miniflare's namespace as seen from Node: each `get()` there is a synchronous call into workerd
 * (in a worker it costs nothing), so the stub of an id is kept; every `fetch` still reaches the
 * object in workerd.
 */
function fromNode(binding: DurableObjectNamespaceLike): DurableObjectNamespaceLike {
  const stubs = new Map<object, ReturnType<DurableObjectNamespaceLike["get"]>>();
  return {
    idFromName: (name) => binding.idFromName(name),
    get(id: never) {
      let stub = stubs.get(id);
      if (!stub) {
        stub = binding.get(id);
        stubs.set(id, stub);
      }
      return stub;
    },
  };
}

afterAll(async () => {
  await mf?.dispose();
});

describe("Durable Object coordinator (workerd)", () => {
  const open = () => durableObjectCoordinator(namespace);
  partnerConformance("Durable Object", open);
  sessionConformance("Durable Object", (group) => {
    const share = open().session?.({ environment: "http://127.0.0.1:1", identity: group });
    if (!share) throw new Error("durableObjectCoordinator shares no session");
    return share;
  });
});
