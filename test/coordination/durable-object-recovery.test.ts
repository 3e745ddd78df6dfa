/**
 * An `AudienceCoordinator` object that lost its memory (evicted, restarted: here a fresh object, in
 * workerd through Miniflare 4) admits nobody until every holder of a slot reported its leases
 * (Section 8.4: 8 in flight for the partner, not 8 plus those it forgot). It learns the holders
 * from the isolates themselves: each says how many live isolates it last counted, so once that
 * many reported, it admits at once instead of waiting out half a lease; an isolate that says
 * nothing of the count (an earlier release) leaves it waiting the half lease, as before.
 * Spoken at the object's protocol (src/cloudflare/protocol.ts), as isolates of any release do.
 */
import type { Miniflare } from "miniflare";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DURABLE_OBJECT_DEFAULTS } from "../../src/cloudflare/index.ts";
import type { DurableObjectNamespaceLike } from "../../src/cloudflare/types.ts";
import { bundleWorker, COMPATIBILITY_DATE, startMiniflare } from "../support/workerd.ts";

let mf: Miniflare | undefined;
let namespace: DurableObjectNamespaceLike;
const HALF_LEASE_MS = DURABLE_OBJECT_DEFAULTS.leaseMs / 2;

beforeAll(async () => {
  mf = startMiniflare({
    modules: true,
    script: await bundleWorker("coordinator-worker.ts"),
    compatibilityDate: COMPATIBILITY_DATE,
    durableObjectsPersist: false,
    durableObjects: { AUDIENCE_COORDINATOR: "AudienceCoordinator" },
  });
  namespace = (await mf.getDurableObjectNamespace("AUDIENCE_COORDINATOR")) as unknown as DurableObjectNamespaceLike;
}, 60_000);

afterAll(async () => {
  await mf?.dispose();
});

let objects = 0;

/** A fresh object: what an object that lost its memory is. */
function freshObject() {
  const stub = namespace.get(namespace.idFromName(`recovery-${++objects}-${Date.now()}`) as never);
  return async (ask: Record<string, unknown>): Promise<{ kind: string; pace: number | null; at: number }> => {
    const response = await stub.fetch("https://audience-coordinator.invalid/", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        v: 1,
        op: "partner",
        room: { max: 8, reduced: 4, quietMs: 60_000, pacing: 1 },
        seen: 1,
        quietLeft: 0,
        pace: null,
        back: 0,
        leaseMs: DURABLE_OBJECT_DEFAULTS.leaseMs,
        liveMs: DURABLE_OBJECT_DEFAULTS.liveMs,
        holdMs: DURABLE_OBJECT_DEFAULTS.holdMs * 2,
        done: [],
        ...ask,
      }),
    });
    expect(response.status).toBe(200);
    const reply = (await response.json()) as { kind: string; pace: number | null };
    return { kind: reply.kind, pace: reply.pace, at: Date.now() };
  };
}

const take = (id: string) => ({ id, lane: "i", latestMs: null });

describe("an object that lost its memory rebuilds from what the isolates report (workerd)", () => {
  it("admits as soon as every isolate the partner had reported its leases, not half a lease later", async () => {
    const send = freshObject();
    const started = Date.now();
    const turns = [
      send({ iso: "iso-a", procs: 3, held: ["a:1"], take: take("a:2") }),
      send({ iso: "iso-b", procs: 3, held: ["b:1", "b:2"], take: take("b:3") }),
      send({ iso: "iso-c", procs: 3, held: [], take: null }),
    ];
    const replies = await Promise.all(turns);
    expect(replies[0]?.kind).toBe("ok");
    expect(replies[1]?.kind).toBe("ok");
    for (const reply of replies.slice(0, 2)) expect(reply.at - started).toBeLessThan(HALF_LEASE_MS / 2);
  }, 30_000);

  it("waits half a lease while an isolate it was told of has not reported, or when the count is not said", async () => {
    for (const procs of [
      [3, 3],
      [undefined, undefined],
    ]) {
      const send = freshObject();
      const started = Date.now();
      const replies = await Promise.all([
        send({ iso: "iso-a", procs: procs[0], held: ["a:1"], take: take("a:2") }),
        send({ iso: "iso-b", procs: procs[1], held: ["b:1"], take: take("b:2") }),
      ]);
      for (const reply of replies) {
        expect(reply.kind).toBe("ok");
        expect(reply.at - started).toBeGreaterThanOrEqual(HALF_LEASE_MS - 50);
      }
    }
  }, 30_000);

  it("holds no more than the partner's 8 with what was reported: the leases reported count", async () => {
    const send = freshObject();
    const held = Array.from({ length: 7 }, (_, i) => `a:${i}`);
    const first = await send({ iso: "iso-a", procs: 1, held, take: take("a:7") });
    expect(first.kind).toBe("ok");
    const started = Date.now();
    // Eight held now: the next turn waits for a slot (held its longest, then "again").
    const second = await send({ iso: "iso-a", procs: 1, held: [...held, "a:7"], take: take("a:8"), holdMs: 300 });
    expect(second.kind).toBe("again");
    expect(second.at - started).toBeGreaterThanOrEqual(250);
  }, 30_000);

  it("takes up the pace any isolate reports while it recovers, not only the first one's", async () => {
    const send = freshObject();
    // The first to report knows no pace (its last answer had none); the next one does.
    await send({ iso: "iso-a", procs: 3, pace: null, held: ["a:1"], take: null });
    const second = await send({ iso: "iso-b", procs: 3, pace: 5, held: ["b:1"], take: null });
    expect(second.pace).not.toBeNull();
    expect(second.pace as number).toBeLessThanOrEqual(5);
  }, 30_000);
});
