/**
 * What one process last saw of its partner's shared state in Redis (coordination/seen-state.ts),
 * read from the scripts' replies.
 */
import { SeenState as SharedSeenState } from "../coordination/seen-state.ts";
import { LONGEST_SHARED_COOL_DOWN_MS, trustedMsLeft } from "../coordination/stored-limits.ts";

export class SeenState extends SharedSeenState {
  /** [limit, pace, cool-down left, processes, quiet left, epoch] from an ACQUIRE reply. */
  saw(state: string[]): void {
    this.sawState({
      limit: Number(state[0]),
      pace: state[1] ? Number(state[1]) : undefined,
      cool: Number(state[2]),
      processes: Number(state[3]),
      quiet: Number(state[4]),
    });
  }

  /** A RELEASE reply: ['ok', pace, cool-down left]. */
  released(reply: unknown): void {
    const [, pace, cool] = Array.isArray(reply) ? (reply as string[]) : [];
    if (pace === "" || Number(pace) > 0) this.pace = pace === "" ? undefined : Number(pace);
    const left = trustedMsLeft(Number(cool), LONGEST_SHARED_COOL_DOWN_MS);
    if (left > 0) this.coolDownUntil = Date.now() + left;
  }
}
