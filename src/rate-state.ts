/** The partner's rate state: the type `client.rateState()` returns; built in transport/rate-state.ts. */
export interface RateState {
  /** The partner this state is for (undefined before the first authenticated call). */
  readonly partnerId: string | undefined;
  /** Calls holding a slot now. */
  readonly inFlight: number;
  /** Calls waiting for a slot, per lane (`priority: "low"` is the background lane). */
  readonly queued: {
    /** Calls of the interactive lane (the default). */
    readonly interactive: number;
    /** Calls of the background lane (`priority: "low"`). */
    readonly background: number;
  };
  /** Calls allowed in flight: 8, or 4 in the quiet period after a 429 (Section 8.4). */
  readonly concurrencyLimit: number;
  /** Calls per second the pacer allows, or null while it does not pace. */
  readonly pace: number | null;
  /** Until when (epoch ms, local clock) the latest 429 asked the partner's calls to wait, or null once past. */
  readonly coolDownUntil: number | null;
  /** The server's clock minus this machine's, in ms, learned from `Date` headers (0 until known). */
  readonly clockSkewMs: number;
}
