/**
 * A publish refreshes exactly the reads of the map: reads on screen for the published event, for
 * another event and for the other partner; the publish is `useMutation` of the boost.
 */
import type { AudienceQueryHooks } from "@audience-intelligence/client/react-query";
import { h, hooksA, hooksB, mount, newQueryClient, sleep, textOf, waitFor } from "./harness.ts";

type Read = { hooks: AudienceQueryHooks; path: string; eid: string };

/** The reads on screen: some the map lists for a publish of evt-1001, some it does not. */
const SCREEN: readonly (Omit<Read, "hooks"> & { partner: "a" | "b" })[] = [
  { partner: "a", path: "/setup_processes/{eid}", eid: "evt-1001" },
  { partner: "a", path: "/events/{eid}/campaigns", eid: "evt-1001" },
  { partner: "a", path: "/events/{eid}", eid: "evt-1001" },
  { partner: "a", path: "/events/{eid}/tickets", eid: "evt-1001" },
  { partner: "a", path: "/events/{eid}/campaigns", eid: "evt-1002" },
  { partner: "b", path: "/events/{eid}", eid: "evt-1001" },
];

function Reading({ hooks, path, eid, id }: Read & { id: string }) {
  const { status } = (hooks.useQuery as (...args: unknown[]) => { status: string })("get", path, {
    params: { path: { eid } },
  });
  return h("p", { "data-id": id }, status);
}

let boost: () => Promise<unknown> = async () => undefined;

function Publisher() {
  const mutation = hooksA.useMutation("post", "/setup_processes/{eid}/boost");
  boost = () => mutation.mutateAsync({ params: { path: { eid: "evt-1001" } } });
  return h("p", { "data-id": "publisher" }, mutation.status);
}

export async function publishScenario() {
  const queryClient = newQueryClient();
  const reads = SCREEN.map((r, i) =>
    h(Reading, { hooks: r.partner === "a" ? hooksA : hooksB, path: r.path, eid: r.eid, id: `r${i}`, key: i }),
  );
  const app = mount(queryClient, [...reads, h(Publisher, { key: "publisher" })]);
  await waitFor("every read on screen", () =>
    SCREEN.every((_, i) => textOf(app.el, `r${i}`) === "success") ? true : undefined,
  );
  const publishedAt = Date.now();
  const result = await boost();
  await waitFor("refetches to settle", () => (queryClient.isFetching() === 0 ? true : undefined));
  await sleep(200); // nothing else may follow
  const invalidated = queryClient
    .getQueryCache()
    .getAll()
    .filter((q) => q.state.dataUpdateCount > 1)
    .map((q) => q.queryKey);
  app.unmount();
  return { publishedAt, result, invalidated };
}
