/**
 * Reads asked for before the client knows its partner (it learns it from the IdToken at its first
 * call, Section 5.3). No key can be made yet, so the hook suspends (React Suspense, as
 * `useSuspenseQuery` does) while this read is sent once, outside the cache; its call names the
 * partner, and the query of the real key, made on the next render, adopts the answer instead of
 * sending the read again. So a first load sends each read once, and never under a guessed key.
 */

/** How long an answer waits to be adopted: enough for React to render again, not a cache. */
const ADOPT_WITHIN_MS = 5_000;

const noop = (): void => {};

interface Early {
  readonly answer: Promise<unknown>;
  /** Resolves (never rejects) once the call has settled. */
  readonly settled: Promise<void>;
  done: boolean;
  failure: unknown;
}

export interface EarlyReads {
  /**
   * Sends the read `id` once (every component asking for it shares the call), and throws what the
   * rendering hook must: the promise to suspend on while it runs, or its failure when the call
   * settled without the partner becoming known (`known()` still false).
   */
  suspend(id: string, call: () => Promise<unknown>, known: () => boolean): never;
  /** The early answer of `id` (settled or not), once, for the query of its real key. */
  adopt(id: string): Promise<unknown> | undefined;
}

export function earlyReads(): EarlyReads {
  const reads = new Map<string, Early>();
  return {
    suspend(id, call, known) {
      let early = reads.get(id);
      if (!early) {
        const answer = call();
        const entry: Early = { answer, settled: answer.then(noop, noop), done: false, failure: undefined };
        const settle = (failure?: unknown) => {
          entry.done = true;
          entry.failure = failure;
          setTimeout(() => reads.get(id) === entry && reads.delete(id), ADOPT_WITHIN_MS);
        };
        answer.then(() => settle(), settle);
        reads.set(id, entry);
        early = entry;
      }
      if (early.done && !known()) {
        reads.delete(id);
        throw early.failure ?? new Error("The client's call named no partner");
      }
      throw early.settled;
    },
    adopt(id) {
      // Settled or still under way: another read's call may have named the partner first.
      const early = reads.get(id);
      reads.delete(id);
      return early?.answer;
    },
  };
}
