/**
 * The stale-read map covers every write of the description: the writes are derived from the
 * generated operation table, so a new write in a vendor update fails here until it has an entry.
 */
import { describe, expect, it } from "vitest";
import { operations } from "../../generated/operations.ts";
import { STALE_READS, type WriteKey } from "../../src/react-query/index.ts";
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
