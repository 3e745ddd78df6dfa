/**
 * This process's slot leases of one partner: a timer renews them every third of a lease while the
 * process holds any, so that a crashed process's slots are free again within `leaseMs` while a
 * live one's calls keep theirs. Renewals go on until `liveMs` after the process's last turn: they
 * also tell Redis the process lives, so that each process's fair share while Redis is away is of
 * the processes live now (they count it too).
 */
import { monotonicNow } from "../internal/clock.ts";

export class LeaseRenewal {
  /** The lease ids this process holds. */
  readonly held = new Set<string>();
  readonly #renew: (held: ReadonlySet<string>) => void;
  readonly #leaseMs: number;
  readonly #liveMs: number;
  #timer: ReturnType<typeof setInterval> | undefined;
  /** When this process last took or ended a turn (monotonic). */
  #activeAt = 0;

  /** `renew` sends one renewal of the leases held (none: the process still lives). */
  constructor(renew: (held: ReadonlySet<string>) => void, leaseMs: number, liveMs: number) {
    this.#renew = renew;
    this.#leaseMs = leaseMs;
    this.#liveMs = liveMs;
  }

  hold(leaseId: string): void {
    this.held.add(leaseId);
    this.#activeAt = monotonicNow();
    if (this.#timer) return;
    this.#timer = setInterval(() => this.#tick(), this.#leaseMs / 3);
    (this.#timer as { unref?: () => void }).unref?.();
  }

  end(leaseId: string): void {
    this.held.delete(leaseId);
    this.#activeAt = monotonicNow();
  }

  /** Stops renewing: the coordinator is closed (leases still held lapse within `leaseMs`). */
  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #tick(): void {
    if (this.held.size === 0 && monotonicNow() - this.#activeAt > this.#liveMs) {
      clearInterval(this.#timer);
      this.#timer = undefined;
      return;
    }
    this.#renew(this.held);
  }
}
