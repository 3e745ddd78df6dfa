/** `useSuspenseQuery` under a Suspense boundary: the event once loaded (the fallback meanwhile). */
import { Suspense } from "react";
import { h, hooksA, mount, newQueryClient, textOf, waitFor } from "./harness.ts";

function EventName() {
  const { data } = hooksA.useSuspenseQuery("get", "/events/{eid}", { params: { path: { eid: "evt-1001" } } });
  return h("p", { "data-id": "event" }, String(data.name));
}

export async function suspenseScenario() {
  const app = mount(
    newQueryClient(),
    h(Suspense, { fallback: h("p", { "data-id": "event" }, "loading") }, h(EventName)),
  );
  const shown = await waitFor("the event", () =>
    textOf(app.el, "event") === "loading" ? undefined : textOf(app.el, "event"),
  );
  app.unmount();
  return { shown };
}
