/**
 * The stale-read map covers every write of the description: the writes are derived from the
 * generated operation table, so a new write in a vendor update fails here until it has an entry.
 */
import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { operations } from "../../generated/operations.ts";
import { STALE_READS, type WriteKey } from "../../src/react-query/index.ts";
import { invalidateStale } from "../../src/react-query/invalidate.ts";
import { eidOfWrite, staleKeysOf } from "../../src/react-query/stale-reads.ts";

const writes = operations.filter((op) => op.method !== "GET" && op.method !== "HEAD" && op.method !== "OPTIONS");
const reads = new Set(operations.filter((op) => op.method === "GET").map((op) => op.path));

describe("STALE_READS", () => {
  it.each(writes.map((op) => [`${op.method.toLowerCase()} ${op.path}`, op.operationId]))(
    "has an entry for the write %s (%s)",
    (key) => {
      expect(Object.keys(STALE_READS)).toContain(key);
    },
  );

  it("is frozen with its lists: an app's `sort()` or `push()` on one cannot change what a write refreshes", () => {
    expect(Object.isFrozen(STALE_READS)).toBe(true);
    for (const [write, list] of Object.entries(STALE_READS)) expect(Object.isFrozen(list), write).toBe(true);
    expect(() => (STALE_READS["post /campaigns/"] as string[]).push("/partners/")).toThrow(TypeError);
  });

  it("has no entry for an operation that is not a write of the description", () => {
    const known = new Set(writes.map((op) => `${op.method.toLowerCase()} ${op.path}`));
    expect(Object.keys(STALE_READS).filter((key) => !known.has(key))).toEqual([]);
  });

  it("names only GET operations of the description as reads", () => {
    const named = Object.values(STALE_READS).flat();
    expect(named.filter((path) => !reads.has(path))).toEqual([]);
  });

  it("covers the writes the description has today (a guard on the derivation itself)", () => {
    expect(writes.length).toBeGreaterThanOrEqual(15);
  });
});

describe("staleKeysOf", () => {
  it("scopes a publish to its event: its setup process, its campaigns, the event", () => {
    expect(staleKeysOf("post /setup_processes/{eid}/boost", { params: { path: { eid: "e1" } } })).toEqual([
      ["get", "/setup_processes/{eid}", { path: { eid: "e1" } }],
      ["get", "/events/{eid}/campaigns", { path: { eid: "e1" } }],
      ["get", "/events/{eid}", { path: { eid: "e1" } }],
    ]);
  });

  it("reads the event of a write from its path, its query or its body", () => {
    expect(eidOfWrite({ params: { path: { eid: "p" } } })).toBe("p");
    expect(eidOfWrite({ params: { query: { eid: "q" } } })).toBe("q");
    expect(eidOfWrite({ body: { eid: "b", tc: "x" } })).toBe("b");
    expect(eidOfWrite(undefined)).toBeUndefined();
  });

  it("refreshes every event's read when the write names no event", () => {
    expect(staleKeysOf("post /campaigns/" as WriteKey, {})).toEqual([
      ["get", "/events/{eid}/campaigns"],
      ["get", "/events/"],
    ]);
  });
});

describe("invalidateStale", () => {
  // openapi-fetch sends a path value given as a number as its text (Section 1.3): `eid: 123` and
  // `eid: "123"` are one event, whichever spelling the read and the write used.
  const tenant = { partner: "p", environment: "https://api.example/api/v3" };
  const read = (eid: string | number) => [tenant, "get", "/events/{eid}/campaigns", { path: { eid } }];
  const staleAfter = async (write: unknown): Promise<Record<string, boolean>> => {
    const cache = new QueryClient();
    for (const eid of [123, "123", 124, "124"]) cache.setQueryData(read(eid), []);
    await invalidateStale(cache, tenant, "post /setup_processes/{eid}/boost", write);
    const seen: Record<string, boolean> = {};
    for (const eid of [123, "123", 124, "124"])
      seen[`${typeof eid} ${eid}`] = cache.getQueryState(read(eid))?.isInvalidated ?? false;
    return seen;
  };
  const onlyEvent123 = { "number 123": true, "string 123": true, "number 124": false, "string 124": false };

  it("refreshes an event's reads keyed by its number after a write that names its text", async () => {
    expect(await staleAfter({ params: { path: { eid: "123" } } })).toEqual(onlyEvent123);
  });

  it("refreshes only that event's reads after a write that names it by a number", async () => {
    expect(await staleAfter({ params: { path: { eid: 123 } } })).toEqual(onlyEvent123);
    expect(eidOfWrite({ params: { query: { eid: 7 } } })).toBe("7");
  });

  it("refreshes every event's read after a write that names no event", async () => {
    expect(Object.values(await staleAfter({}))).toEqual([true, true, true, true]);
  });
});
