/**
 * The anchor of the goodput benchmark: the AWS SDK's adaptive retry mode rate limiter
 * (`DefaultRateLimiter` in smithy-typescript's `@smithy/util-retry`, Apache-2.0), re-expressed here
 * with an injectable clock and sleep so it runs against the same server as this client. Same
 * constants and update rules: token bucket off until the first throttle; on a throttle the rate
 * becomes 0.7 × min(measured sending rate, fill rate); CUBIC recovery with scale 0.4 toward that
 * maximum; new rate capped at 2 × the measured sending rate; sending rate measured in 0.5 s buckets
 * with smoothing 0.8. Waiters each sleep their own computed delay (no queue), as in the original.
 */
export interface AwsLimiterClock {
  /** Seconds. */
  now(): number;
  sleep(ms: number): Promise<void>;
}

export class AwsAdaptiveLimiter {
  readonly #beta = 0.7;
  readonly #minCapacity = 1;
  readonly #minFillRate = 0.5;
  readonly #scaleConstant = 0.4;
  readonly #smooth = 0.8;
  readonly #clock: AwsLimiterClock;

  #currentCapacity = 0;
  #enabled = false;
  #lastMaxRate = 0;
  #measuredTxRate = 0;
  #requestCount = 0;
  #fillRate: number;
  #lastThrottleTime: number;
  #lastTimestamp = 0;
  #lastTxRateBucket: number;
  #maxCapacity: number;
  #timeWindow = 0;

  constructor(clock: AwsLimiterClock) {
    this.#clock = clock;
    this.#lastThrottleTime = clock.now();
    this.#lastTxRateBucket = Math.floor(clock.now());
    this.#fillRate = this.#minFillRate;
    this.#maxCapacity = this.#minCapacity;
  }

  /** Current fill rate (calls per second), or undefined while off. */
  get rate(): number | undefined {
    return this.#enabled ? this.#fillRate : undefined;
  }

  async getSendToken(): Promise<void> {
    if (!this.#enabled) return;
    this.#refill();
    if (1 > this.#currentCapacity) await this.#clock.sleep(((1 - this.#currentCapacity) / this.#fillRate) * 1000);
    this.#currentCapacity -= 1;
  }

  updateClientSendingRate(throttled: boolean): void {
    this.#updateMeasuredRate();
    let calculated: number;
    const now = this.#clock.now();
    if (throttled) {
      const rateToUse = !this.#enabled ? this.#measuredTxRate : Math.min(this.#measuredTxRate, this.#fillRate);
      this.#lastMaxRate = rateToUse;
      this.#timeWindow = Math.cbrt((this.#lastMaxRate * (1 - this.#beta)) / this.#scaleConstant);
      this.#lastThrottleTime = now;
      calculated = rateToUse * this.#beta;
      this.#enabled = true;
    } else {
      this.#timeWindow = Math.cbrt((this.#lastMaxRate * (1 - this.#beta)) / this.#scaleConstant);
      calculated = this.#scaleConstant * (now - this.#lastThrottleTime - this.#timeWindow) ** 3 + this.#lastMaxRate;
    }
    const newRate = Math.min(calculated, 2 * this.#measuredTxRate);
    this.#refill();
    this.#fillRate = Math.max(newRate, this.#minFillRate);
    this.#maxCapacity = Math.max(newRate, this.#minCapacity);
    this.#currentCapacity = Math.min(this.#currentCapacity, this.#maxCapacity);
  }

  #refill(): void {
    const t = this.#clock.now();
    if (!this.#lastTimestamp) {
      this.#lastTimestamp = t;
      return;
    }
    this.#currentCapacity = Math.min(
      this.#maxCapacity,
      this.#currentCapacity + (t - this.#lastTimestamp) * this.#fillRate,
    );
    this.#lastTimestamp = t;
  }

  #updateMeasuredRate(): void {
    const t = this.#clock.now();
    const bucket = Math.floor(t * 2) / 2;
    this.#requestCount += 1;
    if (bucket > this.#lastTxRateBucket) {
      const current = this.#requestCount / (bucket - this.#lastTxRateBucket);
      this.#measuredTxRate = current * this.#smooth + this.#measuredTxRate * (1 - this.#smooth);
      this.#requestCount = 0;
      this.#lastTxRateBucket = bucket;
    }
  }
}
