/**
 * The named scenarios (Section 7's bad days), each a small factory from its options and a seeded
 * random source to the {@link Faults} the front consults. Every fault is bounded: a storm lasts
 * `calls` requests, a delay is capped, a lost answer happens `times` times.
 */
import { type Answer, json } from "./answer.ts";
import { driftedAnswer, type RequiredFields } from "./drift.ts";
import { type FaultRequest, type Faults, isNonIdempotentWrite, isOpenPath, NO_FAULTS } from "./faults.ts";
import { type Random, seededRandom } from "./random.ts";
import { checkScenarioOptions, isOwnName, MAX_DELAY_MS, SERVER_ERROR_STATUSES } from "./scenario-options.ts";
import type { ScenarioName, ScenarioOptions } from "./scenario-types.ts";

/** What a scenario knows of the mock it runs in. */
export interface ScenarioContext {
  /** The partner the mock serves (its IdTokens name it). */
  readonly partnerId: string;
  /** The description's required answer fields. */
  readonly required: RequiredFields;
}

type Factory = (options: ScenarioOptions, random: Random, context: ScenarioContext) => Partial<Faults>;

/**
 * Faults on a share of the first `calls` requests, each drawn on its own; `hit` makes the answer of
 * a hit request. One draw per request, so the sequence depends on the order of requests only.
 */
function storm(options: ScenarioOptions, random: Random, share: number, hit: () => Answer): Faults["instead"] {
  let seen = 0;
  const calls = options.calls ?? 20;
  const rate = options.share ?? share;
  return () => {
    seen += 1;
    const draw = random();
    return seen <= calls && draw < rate ? hit() : undefined;
  };
}

/**
 * Section 7's transient errors in bursts: a request outside a burst starts one with chance `p`; a
 * burst is one to three requests answered with one 5xx, and the request after it is answered for
 * real. Every request counts toward `calls`, the storm ends with it, bursts included. A burst
 * averages two 5xx and a success follows it, so a share `s` of 5xx needs p = s / (2 (1 - s)); from
 * s = 2/3 on, p is 1 (a burst wherever one can start) and the share stays about 2/3.
 */
function serverErrors(options: ScenarioOptions, random: Random): Faults["instead"] {
  const statuses = options.statuses ?? SERVER_ERROR_STATUSES;
  const share = options.share ?? 0.5;
  const start = Math.min(1, share / (2 * (1 - share)));
  const calls = options.calls ?? 20;
  let seen = 0;
  let burst: { status: number; left: number } | undefined;
  let recovering = false;
  return () => {
    seen += 1;
    // Three draws per request, whatever it becomes: the sequence depends on the order only.
    const [begin, status, length] = [random(), random(), random()];
    if (seen > calls) return undefined;
    if (burst && burst.left > 0) {
      burst.left -= 1;
      return json(burst.status, { code: "error.server" });
    }
    if (burst || recovering) {
      burst = undefined;
      recovering = false;
      return undefined; // the success after a burst
    }
    if (begin >= start) return undefined;
    burst = { status: statuses[Math.floor(status * statuses.length)] ?? 503, left: Math.floor(length * 3) };
    recovering = true;
    return json(burst.status, { code: "error.server" });
  };
}

const FACTORIES: Record<ScenarioName, Factory> = {
  healthy: () => ({}),
  // Section 7, 8.3: 429 without Retry-After or X-RateLimit-* headers.
  "rate-limit-storm": (o, random) => ({
    instead: storm(o, random, 0.5, () => json(429, { code: "error.rate_limited" })),
  }),
  // Section 7: transient 500, 502, 503, 504, in bursts of one to three.
  "server-errors": (o, random) => ({ instead: serverErrors(o, random) }),
  // Section 3 rule 3: the write is committed, then the connection drops before the answer.
  "reset-after-write": (o) => {
    let left = o.times ?? 1;
    return {
      dropAnswer: (r: FaultRequest) => isNonIdempotentWrite(r.method, r.path) && left-- > 0,
    };
  },
  // Section 5.2: access tokens expire; here within seconds, mid-run.
  "token-expiry": (o) => ({ tokenLifetimeMs: o.lifetimeMs ?? 2_000 }),
  // Section 5 gaps, 7: "Refresh request failing: HTTP 400".
  "refresh-refused": (o) => ({ tokenLifetimeMs: o.lifetimeMs ?? 2_000, refreshRefused: true }),
  // Section 5.5, 7: a valid token with a missing or wrong partner header yields 403.
  "partner-mismatch": (_o, _random, { partnerId }) => ({
    instead: (r) =>
      !isOpenPath(r.path) && r.bearer && r.partner !== partnerId
        ? json(403, { code: "error.auth.partner_not_allowed" })
        : undefined,
  }),
  // Section 3 rules 1–2: someone else publishes the setup between two edits.
  "published-setup": (o) => ({ publishAfterEdits: o.afterEdits ?? 1 }),
  // Section 5, 8.6: token times are the server's; its clock may be off.
  "clock-skew": (o) => ({ skewMs: o.skewMs ?? 600_000 }),
  // Section 8.2: upstreams may take seconds.
  "slow-upstream": (o) => ({ delayMs: Math.min(Math.max(o.delayMs ?? 1_000, 0), MAX_DELAY_MS) }),
  // Section 9.2: the description can drift from the service.
  drift: (o, random, { required }) => {
    const hit = storm(o, random, 0.3, () => json(0, null));
    return {
      alter: (request, answer) =>
        answer.status < 300 && !isOpenPath(request.path) && hit(request)
          ? driftedAnswer(request, answer, random, required)
          : answer,
    };
  },
};

/**
 * The faults of a named scenario. A name not in the list (inherited names such as "constructor"
 * included) is refused with a TypeError naming them; an unknown option or a value outside its range
 * with an error naming the option.
 */
export function scenarioFaults(name: ScenarioName, options: ScenarioOptions, context: ScenarioContext): Faults {
  if (!isOwnName(FACTORIES, name))
    throw new TypeError(`Unknown scenario "${String(name)}": one of ${Object.keys(FACTORIES).join(", ")}`);
  checkScenarioOptions(options);
  return { ...NO_FAULTS, ...FACTORIES[name](options, seededRandom(options.seed ?? 1), context) };
}
