/**
 * The mock's events and forecasts: enough to page through and plausible to show. The description
 * gives an event `id`, `name` and `frontend_status` (its examples) and no field of a prediction
 * (Section 2: "Fields of prediction … responses: not shown"), so a forecast is the kit's choice,
 * kept minimal: `{ values }`, a rising curve of fractions, under one of the client's default
 * `benchmarkFields` so `readPrediction` reads it.
 */

/** An event as the description's examples show one. */
export interface MockEvent {
  readonly id: string;
  readonly name: string;
  readonly frontend_status: "DEFAULT" | "FLAGGED";
}

/** The description's three example events come first, then names made up from these. */
const EXAMPLES = ["Summer Open Air", "Jazz by the River", "Winter Gala"];
const PLACES = ["Harbour", "City Hall", "Riverside", "Old Town", "Park", "Arena", "Castle", "Docks"];
const KINDS = ["Festival", "Jazz Night", "Comedy Club", "Theatre Week", "Folk Evening", "Gala", "Market", "Concert"];

/** How many events the mock has unless told (more than the client's default page of 100: page 2 exists). */
export const DEFAULT_EVENTS = 120;

/** The page size of GET /events/ when the request gives none: the kit's choice (Section 2 gives none). */
export const DEFAULT_EVENT_PAGE = 20;

const hash = (text: string): number => {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
};

const nameOf = (n: number): string => {
  if (n < EXAMPLES.length) return EXAMPLES[n] as string;
  const round = Math.floor(n / (PLACES.length * KINDS.length));
  const base = `${PLACES[n % PLACES.length]} ${KINDS[Math.floor(n / PLACES.length) % KINDS.length]}`;
  return round > 0 ? `${base} ${round + 1}` : base;
};

/** `count` events, `evt-1001` on. */
export function seedEvents(count: number): MockEvent[] {
  return Array.from({ length: count }, (_, n) => ({
    id: `evt-${1001 + n}`,
    name: nameOf(n),
    frontend_status: n % 7 === 1 ? "FLAGGED" : "DEFAULT",
  }));
}

/** An event the mock was not seeded with: every id reads as a plausible event (tests use many). */
export const eventFor = (eid: string): MockEvent => ({
  id: eid,
  name: nameOf(hash(eid) % 64),
  frontend_status: "DEFAULT",
});

/** A forecast of an event: eight fractions rising to about its capacity, the same for the same event. */
export function forecastFor(eid: string): { values: number[] } {
  const h = hash(eid);
  const reach = 0.7 + (h % 30) / 100;
  return { values: Array.from({ length: 8 }, (_, i) => Math.round(reach * ((i + 1) / 8) ** 0.8 * 1000) / 1000) };
}
