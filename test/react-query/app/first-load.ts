/**
 * A first page load with a client that learns its partner from its IdToken (no `partnerId`): the
 * hooks wait for the partner before making a key, so each read is sent once, with the partner's
 * header, and no component shows data and then a loading state again.
 */
import { createAudienceClient } from "@audience-intelligence/client";
import { type AudienceQueryHooks, createQueryHooks } from "@audience-intelligence/client/react-query";
import { Suspense } from "react";
import { FIRST_LOAD_PARTNER } from "./constants.ts";
import { h, mount, newQueryClient, textOf, waitFor } from "./harness.ts";

/** An unsigned JWT whose groups claim names the partner (the client reads its claims, never checks a signature). */
function idTokenFor(partner: string): string {
  const part = (o: unknown) => btoa(JSON.stringify(o)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
  const exp = Math.floor(Date.now() / 1000) + 3600;
  return `${part({ alg: "none", typ: "JWT" })}.${part({ sub: "u1", token_use: "id", exp, groups: [partner] })}.sig`;
}

const READS = [
  ["event", "/events/{eid}"],
  ["event-again", "/events/{eid}"],
  ["forecast", "/events/{eid}/lookout_prediction"],
  ["campaigns", "/events/{eid}/campaigns"],
] as const;

function Read({ api, id, path, log }: { api: AudienceQueryHooks; id: string; path: string; log: string[] }) {
  const query = path.endsWith("lookout_prediction") ? { type: "capacity" } : undefined;
  const init = { params: { path: { eid: "evt-1001" }, ...(query ? { query } : {}) } };
  const { status } = (api.useQuery as (...args: unknown[]) => { status: string })("get", path, init);
  log.push(`${id}:${status}`);
  return h("p", { "data-id": id }, status);
}

/** A paged list and the wizard's draft wait for the partner the same way. */
function Events({ api, log }: { api: AudienceQueryHooks; log: string[] }) {
  const { status } = api.useInfiniteQuery("get", "/events/");
  log.push(`events:${status}`);
  return h("p", { "data-id": "events" }, status);
}

function Draft({ api, log }: { api: AudienceQueryHooks; log: string[] }) {
  const { draft } = api.useSetupDraft("evt-1001");
  const status = draft === undefined ? "pending" : "success";
  log.push(`draft:${status}`);
  return h("p", { "data-id": "draft" }, status);
}

const SHOWN = [...READS.map(([id]) => id), "events", "draft"];

export async function firstLoadScenario() {
  const client = createAudienceClient({
    baseUrl: `${location.origin}/api/v3`,
    session: { accessToken: "browser-test-token", idToken: idTokenFor(FIRST_LOAD_PARTNER) },
  });
  const api = createQueryHooks(client);
  const log: string[] = [];
  const reads = [
    ...READS.map(([id, path]) => h(Read, { api, id, path, log, key: id })),
    h(Events, { api, log, key: "events" }),
    h(Draft, { api, log, key: "draft" }),
  ];
  const app = mount(newQueryClient(), h(Suspense, { fallback: h("p", { "data-id": "fallback" }, "waiting") }, reads));
  await waitFor("every read", () => (SHOWN.every((id) => textOf(app.el, id) === "success") ? true : undefined));
  await new Promise((r) => setTimeout(r, 300)); // a second round of reads would have started by now
  app.unmount();
  return { log, shown: SHOWN };
}
