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

export class MockState {
  readonly setups = new Map<string, SetupRecord>();
  readonly campaigns = new Map<string, Array<Record<string, unknown>>>();
  /** Minted access tokens and when each expires, on the server's clock (ms). */
  readonly accessTokens = new Map<string, number>();
  #serial = 0;

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
