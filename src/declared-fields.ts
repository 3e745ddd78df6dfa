/**
 * The response fields a partner relies on where the specification leaves them open (Section 2,
 * "Gaps": event fields beyond `id`, predictions, benchmarks, campaigns, partners, the setup
 * process). Empty here — the client invents no field; a partner declares the ones they rely on,
 * once, by module augmentation, and the helpers' results are typed with them, without casts.
 *
 * @example
 * declare module "@audience-intelligence/client" {
 *   interface DeclaredFields {
 *     event: { name: string; starts_at: string };
 *     prediction: { expected_sales: number };
 *   }
 * }
 */
// biome-ignore lint/suspicious/noEmptyInterface: empty on purpose, for module augmentation
export interface DeclaredFields {}

/** What can be declared: each key types the results named beside it. */
export type DeclaredKey =
  /** `Event` (`listEvents`, `GET /events/{eid}`'s helpers) */
  | "event"
  /** `readPrediction(...).body` */
  | "prediction"
  /** `readBenchmark(...).body` */
  | "benchmark"
  /** the items of `listEventCampaigns` */
  | "campaign"
  /** `getPartners`' records */
  | "partner"
  /** a setup handle's `load`, `create` and `update` results */
  | "setup";

/** The shape declared for `K` in {@link DeclaredFields}, or `unknown` (open) when none is. */
export type Declared<K extends DeclaredKey> = DeclaredFields extends { [P in K]: infer T } ? T : unknown;
