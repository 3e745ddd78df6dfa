import { describe, expect, it } from "vitest";
import { type PageRequest, paginate } from "../../src/workflows/paginate.ts";

/** A fake list endpoint of `total` numbered items, answering `{ items }` and recording each request. */
function fakeList(total: number) {
  const requests: PageRequest[] = [];
  const fetchPage = async (request: PageRequest): Promise<unknown> => {
    requests.push(request);
    const start = (request.page - 1) * request.limit;
    return { items: Array.from({ length: Math.max(0, Math.min(request.limit, total - start)) }, (_, i) => start + i) };
  };
  return { requests, fetchPage };
}

async function collect<T>(iterator: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterator) out.push(item);
  return out;
}

describe("paginate", () => {
  it("fetches page after page and stops on a short page", async () => {
    const list = fakeList(25);
    expect(await collect(paginate({ fetchPage: list.fetchPage, limit: 10 }))).toEqual(
      Array.from({ length: 25 }, (_, i) => i),
    );
    expect(list.requests.map((r) => [r.page, r.limit])).toEqual([
      [1, 10],
      [2, 10],
      [3, 10],
    ]);
  });

  it("stops on an empty page when the total is a multiple of the limit", async () => {
    const list = fakeList(20);
    expect(await collect(paginate({ fetchPage: list.fetchPage, limit: 10 }))).toHaveLength(20);
    expect(list.requests.map((r) => r.page)).toEqual([1, 2, 3]);
  });

  it("stops on an empty first page", async () => {
    const list = fakeList(0);
    expect(await collect(paginate({ fetchPage: list.fetchPage, limit: 10 }))).toEqual([]);
    expect(list.requests).toHaveLength(1);
  });

  it("stops at maxItems in the middle of a page, without another fetch", async () => {
    const list = fakeList(100);
    expect(await collect(paginate({ fetchPage: list.fetchPage, limit: 10, maxItems: 15 }))).toEqual(
      Array.from({ length: 15 }, (_, i) => i),
    );
    expect(list.requests.map((r) => r.page)).toEqual([1, 2]);
  });

  it("stops at maxItems on a page boundary, without fetching the next page", async () => {
    const list = fakeList(100);
    expect(await collect(paginate({ fetchPage: list.fetchPage, limit: 10, maxItems: 20 }))).toHaveLength(20);
    expect(list.requests.map((r) => r.page)).toEqual([1, 2]);
  });

  it("fetches nothing for maxItems 0", async () => {
    const list = fakeList(100);
    expect(await collect(paginate({ fetchPage: list.fetchPage, limit: 10, maxItems: 0 }))).toEqual([]);
    expect(list.requests).toHaveLength(0);
  });

  it("fetches nothing further when the consumer breaks", async () => {
    const list = fakeList(100);
    const seen: unknown[] = [];
    for await (const item of paginate({ fetchPage: list.fetchPage, limit: 10 })) {
      seen.push(item);
      if (seen.length === 12) break;
    }
    expect(list.requests.map((r) => r.page)).toEqual([1, 2]);
  });

  it("fetches lazily: nothing before the first next(), one page per page reached", async () => {
    const list = fakeList(100);
    const iterator = paginate({ fetchPage: list.fetchPage, limit: 2 });
    expect(list.requests).toHaveLength(0);
    await iterator.next();
    await iterator.next();
    expect(list.requests).toHaveLength(1);
    await iterator.next();
    expect(list.requests).toHaveLength(2);
  });

  it("starts at firstPage and reads items with itemsOf", async () => {
    const requests: number[] = [];
    const items = paginate({
      limit: 2,
      firstPage: 0,
      fetchPage: async ({ page }) => {
        requests.push(page);
        return { results: page === 0 ? ["a", "b"] : ["c"] };
      },
      itemsOf: (body) => (body as { results: string[] }).results,
    });
    expect(await collect(items)).toEqual(["a", "b", "c"]);
    expect(requests).toEqual([0, 1]);
  });

  it("reads a bare array page by default", async () => {
    expect(await collect(paginate({ limit: 5, fetchPage: async () => [1, 2] }))).toEqual([1, 2]);
  });

  it("passes the signal to fetchPage", async () => {
    const list = fakeList(1);
    const controller = new AbortController();
    await collect(paginate({ fetchPage: list.fetchPage, limit: 10, signal: controller.signal }));
    expect(list.requests[0]?.signal).toBe(controller.signal);
  });

  it("rejects with the signal's reason once aborted, and fetches nothing further", async () => {
    const list = fakeList(100);
    const controller = new AbortController();
    const reason = new Error("user left the page");
    const seen: unknown[] = [];
    const iterate = async (): Promise<void> => {
      for await (const item of paginate({ fetchPage: list.fetchPage, limit: 10, signal: controller.signal })) {
        seen.push(item);
        if (seen.length === 3) controller.abort(reason);
      }
    };
    await expect(iterate()).rejects.toBe(reason);
    expect(seen).toHaveLength(3);
    expect(list.requests).toHaveLength(1);
  });

  it("rejects at once for an already aborted signal, without fetching", async () => {
    const list = fakeList(100);
    const reason = new Error("too late");
    await expect(
      collect(paginate({ fetchPage: list.fetchPage, limit: 10, signal: AbortSignal.abort(reason) })),
    ).rejects.toBe(reason);
    expect(list.requests).toHaveLength(0);
  });

  it("rejects when aborted during a fetch that ignores the signal", async () => {
    const controller = new AbortController();
    const reason = new Error("cancelled");
    const fetchPage = async (): Promise<unknown> => {
      controller.abort(reason);
      return [1, 2, 3];
    };
    await expect(collect(paginate({ fetchPage, limit: 3, signal: controller.signal }))).rejects.toBe(reason);
  });

  it("passes a failing fetch's error through", async () => {
    const failure = new Error("503");
    await expect(collect(paginate({ limit: 1, fetchPage: () => Promise.reject(failure) }))).rejects.toBe(failure);
  });
});

describe("pagination ends on a repeated page", () => {
  it("listEvents against a server answering the last full page again (Django get_page) yields each event once", async () => {
    const { createAudienceClient, listEvents } = await import("../../src/index.ts");
    const { startFakeApi } = await import("../support/fake-api.ts");
    const { json } = await import("../support/recording-server.ts");
    const api = await startFakeApi();
    try {
      const events = Array.from({ length: 30 }, (_, i) => ({ id: `evt-${i + 1}` }));
      api.route((req, res) => {
        const limit = Number(req.query.get("limit"));
        const last = Math.ceil(events.length / limit);
        const page = Math.min(Number(req.query.get("page")), last); // get_page(): past the end, the last page
        return json(res, 200, { items: events.slice((page - 1) * limit, page * limit) });
      });
      const client = createAudienceClient({ baseUrl: api.url, credentials: { username: "u", password: "pw-pages" } });
      const seen: string[] = [];
      for await (const event of listEvents(client, { limit: 10 })) {
        seen.push(event.id as string);
        if (seen.length >= 100) break; // today's loop never ends: fail instead of hanging
      }
      expect(seen).toEqual(events.map((e) => e.id));
      expect(api.calls().map((r) => r.query.get("page"))).toEqual(["1", "2", "3", "4"]);
    } finally {
      await api.close();
    }
  });

  it("stops at maxPages with an error naming it, when every page is new and full", async () => {
    const list = fakeList(Number.POSITIVE_INFINITY);
    const seen: unknown[] = [];
    const error = await (async () => {
      for await (const item of paginate({ fetchPage: list.fetchPage, limit: 2, maxPages: 5 })) {
        seen.push(item);
        if (seen.length > 100) return; // without a bound the list never ends: fail instead of hanging
      }
    })().catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/did not end within 5 pages \(maxPages\)/);
    expect(seen).toHaveLength(10);
    expect(list.requests).toHaveLength(5);
  });

  it("two different full pages in a row are both read (only a repeat of the previous page ends the list)", async () => {
    const list = fakeList(40);
    expect(await collect(paginate({ fetchPage: list.fetchPage, limit: 10 }))).toHaveLength(40);
  });
});
