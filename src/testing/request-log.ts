/**
 * The log of `api.requests()`: a record opens when a request arrives (so calls in flight show) and
 * closes with the answer's status. Request ids count from 1 after each `reset()`: the same run gives
 * the same ids.
 */
import type { RecordedRequest } from "./recorded-request.ts";

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

export class RequestLog {
  #records: Array<Mutable<RecordedRequest>> = [];
  #serial = 0;

  /** A new request id, `mock-000001` and so on. */
  nextId(): string {
    this.#serial += 1;
    return `mock-${String(this.#serial).padStart(6, "0")}`;
  }

  /**
   * Records a request as it arrives; the returned function closes it with a status (0: no answer)
   * and the request id the answer carried, when it differs from the one given here.
   */
  open(
    record: Omit<RecordedRequest, "endedAt" | "status">,
  ): (status: number, endedAt: number, requestId?: string) => void {
    const entry: Mutable<RecordedRequest> = { ...record, endedAt: undefined, status: undefined };
    this.#records.push(entry);
    return (status, endedAt, requestId) => {
      entry.status = status;
      entry.endedAt = endedAt;
      if (requestId !== undefined) entry.requestId = requestId;
    };
  }

  /** Frozen copies, in order of arrival (their query and body were frozen when recorded). */
  list(): RecordedRequest[] {
    return this.#records.map((r) => Object.freeze({ ...r }));
  }

  clear(): void {
    this.#records = [];
    this.#serial = 0;
  }
}
