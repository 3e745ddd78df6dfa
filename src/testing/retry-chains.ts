/**
 * Which requests repeat which: the same method, path, query and body, with the same `x-mock-tag`
 * (or none), sent after the earlier one failed.
 */
import { describeRequest, type RecordedRequest } from "./recorded-request.ts";

type Log = readonly RecordedRequest[];

/** A status that a retry may follow (Section 8.2: 429, 500, 502, 503, 504), or a lost answer (0). */
const isRetryable = (status: number | undefined): boolean =>
  status === 0 || status === 429 || status === 500 || status === 502 || status === 503 || status === 504;

/** The same call of the same client: requests of two tags (two processes, two jobs) are never one call. */
const sameCall = (a: RecordedRequest, b: RecordedRequest): boolean =>
  a.tag === b.tag && describeRequest(a) === describeRequest(b) && JSON.stringify(a.body) === JSON.stringify(b.body);

/** How a request ended, in words. */
export function outcome(r: RecordedRequest): string {
  if (r.status === undefined) return "still in flight";
  return r.status === 0 ? "connection closed without an answer" : `answered ${r.status}`;
}

/** The first identical request sent after `failed` was answered, when `failed` is retryable. */
export function retryOf(requests: Log, failed: RecordedRequest): RecordedRequest | undefined {
  if (!isRetryable(failed.status) || failed.endedAt === undefined) return undefined;
  const ended = failed.endedAt;
  return requests.find((r) => r !== failed && r.startedAt >= ended && sameCall(r, failed));
}

/** Chains of attempts: each link a retry of the one before. */
export function attemptChains(requests: Log): RecordedRequest[][] {
  const seen = new Set<RecordedRequest>();
  const chains: RecordedRequest[][] = [];
  for (const first of requests) {
    if (seen.has(first)) continue;
    const chain = [first];
    for (let next = retryOf(requests, first); next && !seen.has(next); next = retryOf(requests, next)) {
      chain.push(next);
      seen.add(next);
    }
    chains.push(chain);
  }
  return chains;
}
