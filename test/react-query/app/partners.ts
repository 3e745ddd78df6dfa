/**
 * Two partners' forecasts never cross: both partners' forecasts on screen at once, then one
 * component switching partner back and forth; every forecast it rendered is recorded.
 */
import type { AudienceQueryHooks } from "@audience-intelligence/client/react-query";
import { useState } from "react";
import { h, hooksA, hooksB, mount, newQueryClient, textOf, waitFor } from "./harness.ts";

const forecastInit = { params: { path: { eid: "evt-1001" }, query: { type: "capacity" as const } } };

function Forecast({ hooks, id, log }: { hooks: AudienceQueryHooks; id: string; log?: string[] }) {
  const { data, status } = hooks.useQuery("get", "/events/{eid}/lookout_prediction", forecastInit);
  const shown = status === "success" ? String((data as { partner?: unknown }).partner) : status;
  log?.push(shown);
  return h("p", { "data-id": id }, shown);
}

let switchTo: (partner: "a" | "b") => void = () => {};

function Switching({ log }: { log: string[] }) {
  const [partner, setPartner] = useState<"a" | "b">("a");
  switchTo = setPartner;
  log.push(`switch:${partner}`);
  return h(Forecast, { hooks: partner === "a" ? hooksA : hooksB, id: "switching", log, key: partner });
}

export async function partnersScenario() {
  const queryClient = newQueryClient();
  const both = mount(queryClient, [
    h(Forecast, { hooks: hooksA, id: "a", key: "a" }),
    h(Forecast, { hooks: hooksB, id: "b", key: "b" }),
  ]);
  const a = await waitFor("partner a's forecast", () =>
    textOf(both.el, "a") === "pending" ? undefined : textOf(both.el, "a"),
  );
  const b = await waitFor("partner b's forecast", () =>
    textOf(both.el, "b") === "pending" ? undefined : textOf(both.el, "b"),
  );
  both.unmount();
  const log: string[] = [];
  const switching = mount(queryClient, h(Switching, { log }));
  const showing = (partner: string) => (textOf(switching.el, "switching") === partner ? true : undefined);
  await waitFor("partner a", () => showing("partner-a"));
  for (const next of ["b", "a", "b"] as const) {
    switchTo(next);
    await waitFor(`partner ${next}`, () => showing(`partner-${next}`));
  }
  switching.unmount();
  const keys = queryClient
    .getQueryCache()
    .findAll({ predicate: (q) => q.queryKey[2] === "/events/{eid}/lookout_prediction" })
    .map((q) => ({ key: q.queryKey, partner: (q.state.data as { partner?: string } | undefined)?.partner }));
  return { a, b, log, keys };
}
