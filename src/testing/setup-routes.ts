/**
 * The campaign setup life cycle (Section 3) and the campaigns POST /campaigns/ creates. Codes the
 * specification does not give (a PUT after publish is "rejected") are 400 with a dotted code.
 */

import { CREATE_CAMPAIGN_QUERY } from "../assumptions.ts";
import { json } from "./answer.ts";
import type { Route, RouteContext } from "./route-context.ts";

const SETUP = /^\/setup_processes\/([^/]+)(\/boost)?$/;

const asObject = (body: unknown): Record<string, unknown> =>
  typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};

const notFound = () => json(404, { code: "error.setup_process.not_found" });

function draftAction(context: RouteContext, eid: string) {
  const { method, state, faults } = context;
  const setup = state.setups.get(eid);
  const form = () => ({ ...setup?.body, status: setup?.state });
  if (method === "GET") return setup ? json(200, form()) : notFound();
  if (method === "POST") {
    if (setup) return json(400, { code: "error.setup_process.exists" });
    state.setups.set(eid, { state: "DRAFT", body: asObject(context.body), edits: 0 });
    return json(201, { ...asObject(context.body), status: "DRAFT" });
  }
  if (!setup) return notFound();
  if (method === "PUT") {
    // Section 3 rule 1: the draft endpoint works only while the setup is unpublished.
    if (setup.state === "PUBLISHED") return json(400, { code: "error.setup_process.published" });
    setup.body = asObject(context.body);
    setup.edits += 1;
    const answer = json(200, form());
    // published-setup: someone else publishes after this edit; the next edit meets a published setup.
    if (faults.publishAfterEdits !== undefined && setup.edits >= faults.publishAfterEdits) setup.state = "PUBLISHED";
    return answer;
  }
  if (method === "DELETE") {
    if (setup.state === "PUBLISHED") return notFound(); // no draft to cancel
    state.setups.delete(eid);
    return json(200, { cancelled: true });
  }
  return undefined;
}

export const setupProcess: Route = (context) => {
  const match = SETUP.exec(context.path);
  if (!match?.[1] || context.path.startsWith("/setup_processes/call_to_action")) return undefined;
  const eid = decodeURIComponent(match[1]);
  if (!match[2]) return draftAction(context, eid);
  if (context.method !== "POST") return undefined;
  const setup = context.state.setups.get(eid);
  if (!setup) return notFound();
  if (setup.state === "PUBLISHED") return json(400, { code: "error.setup_process.published" });
  setup.state = "PUBLISHED";
  return json(201, { task_id: context.state.nextId("boost") });
};

/** Section 3 rule 2: edits of a published setup, one cluster at a time. */
export const editPublished: Route = ({ method, path, body, state }) => {
  if (method !== "POST" || path !== "/campaigns_setup") return undefined;
  const edit = asObject(body);
  const setup = typeof edit.eid === "string" ? state.setups.get(edit.eid) : undefined;
  return setup?.state === "PUBLISHED" ? json(200, edit) : json(400, { code: "error.setup_process.not_published" });
};

export const createCampaign: Route = ({ method, path, query, state }) => {
  if (method !== "POST" || path !== "/campaigns/") return undefined;
  const campaign: Record<string, unknown> = { id: state.nextId("cmp") };
  for (const [key, value] of query) campaign[key] = value;
  const eid = query.get(CREATE_CAMPAIGN_QUERY.eid);
  if (eid !== null) state.campaigns.set(eid, [...(state.campaigns.get(eid) ?? []), campaign]);
  return json(201, campaign);
};

export const listCampaigns: Route = ({ method, path, query, state }) => {
  const match = /^\/events\/([^/]+)\/campaigns$/.exec(path);
  if (method !== "GET" || !match?.[1]) return undefined;
  const all = state.campaigns.get(decodeURIComponent(match[1])) ?? [];
  const limit = Number(query.get("limit") ?? Number.NaN);
  return json(200, { items: Number.isInteger(limit) && limit > 0 ? all.slice(0, limit) : all });
};
