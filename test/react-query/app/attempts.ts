/**
 * One retry layer, typed errors: a read that always fails with 503, and one whose 429 asks for a
 * wait beyond maxRetryAfterMs. The QueryClient's defaults would retry (harness.ts).
 */
import { RateLimitError, ServerError } from "@audience-intelligence/client";
import { h, hooksA, mount, newQueryClient, sleep, textOf, waitFor } from "./harness.ts";

function Failing({ eid, id }: { eid: string; id: string }) {
  const { error, status } = hooksA.useQuery("get", "/events/{eid}", { params: { path: { eid } } });
  const typed = error instanceof RateLimitError ? "RateLimitError" : error instanceof ServerError ? "ServerError" : "";
  return h("p", { "data-id": id }, status === "error" ? `${error?.name}|${typed}` : status);
}

export async function attemptsScenario() {
  const queryClient = newQueryClient();
  const startedAt = Date.now();
  const app = mount(queryClient, [
    h(Failing, { eid: "evt-503", id: "s", key: "s" }),
    h(Failing, { eid: "evt-429", id: "r", key: "r" }),
  ]);
  const settled = (id: string) => {
    const text = textOf(app.el, id);
    return text?.includes("|") ? text : undefined;
  };
  const server = await waitFor("the 503 read to fail", () => settled("s"));
  const rate = await waitFor("the 429 read to fail", () => settled("r"));
  await sleep(500); // a TanStack retry (10 ms apart) would have come by now
  app.unmount();
  return { startedAt, server, rate };
}
