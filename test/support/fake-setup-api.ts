/**
 * A fake of the setup-process endpoints (Section 3) on top of the fake API: drafts per eid, PUT
 * refused after publish, boost answering 201 with a task id, an ad-platform status.
 */

import type { FakeApi } from "./fake-api.ts";
import { json } from "./recording-server.ts";

/** A valid draft (Section 3), for tests that create and publish setups against this fake. */
export const SETUP_DRAFT = Object.freeze({
  goal: "UTILIZATION" as const,
  total_budget: 1000,
  start_date: "2027-03-01",
  end_date: "2027-03-31",
  tc_run_id: 7,
});

export interface SetupStore {
  drafts: Map<string, Record<string, unknown>>;
  published: Set<string>;
  creates: number;
}

export function routeSetupApi(api: FakeApi, options: { putDelayMs?: () => number } = {}): SetupStore {
  const store: SetupStore = { drafts: new Map(), published: new Set(), creates: 0 };
  api.route(async (req, res) => {
    const m = /^\/setup_processes\/([^/]+)(\/boost)?$/.exec(req.path);
    if (m) {
      const eid = decodeURIComponent(m[1] as string);
      if (m[2]) {
        if (!store.drafts.has(eid)) return json(res, 404, {});
        store.published.add(eid);
        return json(res, 201, { task_id: `boost-${eid}` }, { "x-request-id": "req-boost" });
      }
      if (req.method === "GET")
        return store.drafts.has(eid)
          ? json(res, 200, { ...store.drafts.get(eid), ...(store.published.has(eid) ? { status: "PUBLISHED" } : {}) })
          : json(res, 404, {});
      if (req.method === "POST") {
        store.creates += 1;
        store.drafts.set(eid, JSON.parse(req.body));
        return json(res, 201, store.drafts.get(eid));
      }
      if (req.method === "PUT") {
        if (store.published.has(eid))
          return json(res, 409, { code: "error.setup.published" }, { "x-request-id": "req-put-409" });
        const delay = options.putDelayMs?.() ?? 0;
        if (delay) await new Promise((r) => setTimeout(r, delay));
        store.drafts.set(eid, JSON.parse(req.body));
        return json(res, 200, store.drafts.get(eid));
      }
      if (req.method === "DELETE") {
        store.drafts.delete(eid);
        return json(res, 200, { cancelled: true });
      }
    }
    if (req.path === "/campaigns_setup") return json(res, 200, { edited: JSON.parse(req.body) });
    if (/^\/integrations\/connect\/[^/]+\/status$/.test(req.path))
      return json(res, 200, { connected: true, platform: req.path.split("/")[3] });
    return json(res, 404, {});
  });
  return store;
}
