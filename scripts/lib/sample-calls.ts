/**
 * One valid call per operation of the description, keyed `METHOD /path`: the contract suite sends
 * every one of them to Prism, and `npm run contract:live` sends the read-only ones through a
 * validating proxy to a real environment.
 */
export type SampleInit = Record<string, unknown>;

export interface SampleContext {
  /** An event that exists where the calls go. */
  eid: string;
  /** Bytes of a small valid XLSX workbook (for the Excel ingest). */
  xlsx: () => Uint8Array;
}

const form = (bytes: Uint8Array, name: string, type: string): FormData => {
  const data = new FormData();
  data.set("file", new Blob([bytes as Uint8Array<ArrayBuffer>], { type }), name);
  return data;
};

export function sampleCalls({ eid: id, xlsx }: SampleContext): Record<string, SampleInit> {
  const eid = { path: { eid: id } };
  const setupBody = {
    goal: "ROAS",
    total_budget: 1500,
    start_date: "2027-05-01",
    end_date: "2027-05-31",
    tc_run_id: 42,
    creatives: [],
    targeting: [],
    integration_details: [],
  };
  return {
    "POST /auth": { body: { username: "demo", password: "demo-password" } },
    "POST /auth/refresh_token": { body: { token: "mock-refresh-token-opaque-7d1f4c" } },
    "GET /status/": {},
    "GET /partners/": {},
    "GET /profile/": {},
    "GET /features/": {},
    "GET /permissions": {},
    "GET /events/": { params: { query: { page: 1, limit: 50, descending: true } } },
    "GET /events/{eid}": { params: eid },
    "GET /events/{eid}/lookout_prediction_benchmark": { params: { ...eid, query: { type: "capacity" } } },
    "GET /events/{eid}/lookout_prediction": { params: { ...eid, query: { type: "ticket_count" } } },
    "GET /events/{eid}/tickets": { params: eid },
    "GET /events/{eid}/campaigns": { params: { ...eid, query: { limit: 20 } } },
    "GET /events/{eid}/statistics": { params: eid },
    "GET /events/{eid}/clusters": { params: eid },
    "GET /events/{eid}/attribution_model": { params: eid },
    "GET /events/{eid}/suggested_tcs": { params: { ...eid, query: { budget: 1500, goal: "UTILIZATION" } } },
    "GET /events/{eid}/campaigns_expected_value": { params: { ...eid, query: { budget: 1500, goal: "ROAS" } } },
    "GET /events/{eid}/budget_min_max": { params: { ...eid, query: { runtime_in_days: 30 } } },
    "GET /events/{eid}/default_campaigns_parameters": { params: eid },
    "GET /events/{eid}/available_events_for_series": { params: eid },
    "GET /events/{eid}/client_campaign_status/task": { params: eid },
    "PUT /events/{eid}/client_campaign_status": { params: { ...eid, query: { params: { status: "PAUSED" } } } },
    "POST /events/{eid}/series": { params: { ...eid, query: { params: { events: ["evt-1002", "evt-1003"] } } } },
    "GET /events/{eid}/campaign_optimisation_status": { params: eid },
    "PUT /events/{eid}/campaign_optimisation_status": { params: { ...eid, query: { params: { enabled: true } } } },
    "GET /events/{eid}/ad_campaign_optimisation_status": { params: eid },
    "PUT /events/{eid}/ad_campaign_optimisation_status": { params: { ...eid, query: { params: { enabled: false } } } },
    "GET /setup_processes/call_to_action/": {
      params: { query: { goal: "LINK_CLICKS", has_pixel: true, lead_form_id: "" } },
    },
    "GET /setup_processes/{eid}": { params: eid },
    "POST /setup_processes/{eid}": { params: { path: { eid: "evt-2001" } }, body: setupBody },
    "PUT /setup_processes/{eid}": { params: { path: { eid: "evt-2002" } }, body: setupBody },
    "POST /setup_processes/{eid}/boost": { params: { path: { eid: "evt-2003" } } },
    "DELETE /setup_processes/{eid}": { params: { path: { eid: "evt-2004" } } },
    "POST /campaigns_setup": {
      body: {
        eid: "evt-2005",
        tc: "Indie & Folk lovers",
        tc_run_id: 42,
        audience_id: "aud-1",
        creatives: [],
        targeting: [],
      },
    },
    "POST /campaigns/": { params: { query: { params: { eid: id, budget: 500 } } } },
    "GET /integrations/{adplatform}/events/{eid}/campaign_results": { params: eid },
    "GET /integrations/{adplatform}/events/{eid}/fb_insights": { params: eid },
    "GET /integrations/connect/{adplatform}/status": {},
    "GET /messages/partner/": { params: { query: { limit: 20, page: 1 } } },
    "GET /messages/totalunread": {},
    "GET /notifications/": { params: { query: { limit: 20 } } },
    "GET /notifications/stats": {},
    "POST /ingest/transaction_summary": {
      body: { eid: id, from: "2026-11-01", to: "2026-11-21", tickets: [{ type: "GA", sold: 120, revenue: 4200.5 }] },
    },
    "POST /ingest/transaction_summary/from_excel": {
      params: { query: { eid: id } },
      body: form(xlsx(), "sales.xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
    },
    "POST /media": { body: form(new TextEncoder().encode("GIF89a-mock-image"), "banner.gif", "image/gif") },
  };
}
