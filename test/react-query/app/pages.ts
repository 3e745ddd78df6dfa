/** A paged list as an infinite query: the binding asks for page 1 at the page cap and ends on a short page. */
import { h, hooksA, mount, newQueryClient, textOf, waitFor } from "./harness.ts";

function Events() {
  const { data, status, hasNextPage } = hooksA.useInfiniteQuery("get", "/events/", {
    params: { query: { descending: true } },
  });
  const items = data?.pages.flatMap((page) => page.items ?? []).length ?? 0;
  return h("p", { "data-id": "events" }, status === "success" ? `${items}|${hasNextPage}` : status);
}

export async function pagesScenario() {
  const app = mount(newQueryClient(), h(Events));
  const shown = await waitFor("the list", () => {
    const text = textOf(app.el, "events");
    return text?.includes("|") ? text : undefined;
  });
  app.unmount();
  return { shown };
}
