/** GET /events/, /events/{eid} and its forecast, from the mock's events (event-data.ts). */
import { json } from "./answer.ts";
import { DEFAULT_EVENT_PAGE, eventFor, forecastFor } from "./event-data.ts";
import type { Route } from "./route-context.ts";

const positive = (value: string | null, fallback: number): number => {
  const n = Number(value ?? Number.NaN);
  return Number.isInteger(n) && n > 0 ? n : fallback;
};

/** Section 2: `page` (from 1), `limit`, `descending`; a page past the end is empty. */
export const listEvents: Route = ({ method, path, query, state }) => {
  if (method !== "GET" || path !== "/events/") return undefined;
  const limit = positive(query.get("limit"), DEFAULT_EVENT_PAGE);
  const page = positive(query.get("page"), 1);
  const all = query.get("descending") === "true" ? [...state.events].reverse() : state.events;
  return json(200, { items: all.slice((page - 1) * limit, page * limit) });
};

export const readEvent: Route = ({ method, path, state }) => {
  const match = /^\/events\/([^/]+)$/.exec(path);
  if (method !== "GET" || !match?.[1]) return undefined;
  const eid = decodeURIComponent(match[1]);
  return json(200, state.events.find((e) => e.id === eid) ?? eventFor(eid));
};

export const readForecast: Route = ({ method, path }) => {
  const match = /^\/events\/([^/]+)\/lookout_prediction$/.exec(path);
  return method === "GET" && match?.[1] ? json(200, forecastFor(decodeURIComponent(match[1]))) : undefined;
};
