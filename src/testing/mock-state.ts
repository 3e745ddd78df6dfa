/**
 * The mock's state where the life cycle needs one (Section 3, 5): setup processes by event,
 * campaigns created by POST /campaigns/, and the access tokens it minted with their expiry.
 */

/** A setup process: its draft or published form (Section 3). */
export interface SetupRecord {
  state: "DRAFT" | "PUBLISHED";
  body: Record<string, unknown>;
  /** Successful draft edits (PUT) so far: the published-setup scenario counts them. */
  edits: number;
}

import type { MockEvent } from "./event-data.ts";
import { KnownSecrets } from "./log-secrets.ts";

export class MockState {
  readonly setups = new Map<string, SetupRecord>();
  readonly campaigns = new Map<string, Array<Record<string, unknown>>>();
  /** Minted access tokens and when each expires, on the server's clock (ms). */
  readonly accessTokens = new Map<string, number>();
  /** The events GET /events/ pages through (seeded at start; `reset()` keeps them). */
  events: readonly MockEvent[] = [];
  /** Every secret the mock was sent or minted, cut out of the log (kept across `reset()`: clients keep their tokens). */
  readonly secrets = new KnownSecrets();
  /** The partners the mock serves; a token it minted belongs to them (its IdToken's groups). */
  partners: readonly string[] = [];
  #serial = 0;

  /** The partners a bearer token belongs to, when the mock minted it. */
  partnersOf(token: string): readonly string[] | undefined {
    return this.accessTokens.has(token) ? this.partners : undefined;
  }

  /** A fresh id with a prefix (`cmp-1`, `boost-2`): deterministic, so runs compare. */
  nextId(prefix: string): string {
    this.#serial += 1;
    return `${prefix}-${this.#serial}`;
  }

  clear(): void {
    this.setups.clear();
    this.campaigns.clear();
    this.accessTokens.clear();
    this.#serial = 0;
  }
}
