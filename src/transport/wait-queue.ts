/**
 * A first-in-first-out queue of waiters in which a waiter that gives up (its signal aborted) leaves
 * in constant time: it is marked and skipped when its turn comes, and the array is compacted once
 * the skipped outnumber the live. Aborting n queued calls is linear, not quadratic (100 000
 * aborts took 4.9 s with `indexOf` + `splice`). Used by the limiter (per lane) and the pacer.
 */
export interface Waiter<T> {
  /** Settles the waiter's promise with its grant. */
  readonly grant: (value: T) => void;
  /** Set once the waiter has left (aborted) or been served. */
  gone?: boolean;
}

export class WaitQueue<T, W extends Waiter<T> = Waiter<T>> {
  #items: (W | undefined)[] = [];
  #head = 0;
  #live = 0;

  /** Waiters still waiting. */
  get size(): number {
    return this.#live;
  }

  push(waiter: W): void {
    this.#items.push(waiter);
    this.#live += 1;
  }

  /** The next waiter still waiting, removed from the queue; undefined when none. */
  shift(): W | undefined {
    while (this.#head < this.#items.length) {
      const waiter = this.#items[this.#head];
      this.#items[this.#head] = undefined;
      this.#head += 1;
      if (waiter && !waiter.gone) {
        waiter.gone = true; // served: a late abort finds it gone
        this.#live -= 1;
        this.#compact();
        return waiter;
      }
    }
    this.#reset();
    return undefined;
  }

  /** The waiter leaves: O(1). Returns false when it had already left or been served. */
  remove(waiter: W): boolean {
    if (waiter.gone) return false;
    waiter.gone = true;
    this.#live -= 1;
    if (this.#live === 0) this.#reset();
    else this.#compact();
    return true;
  }

  #compact(): void {
    const dead = this.#items.length - this.#live;
    if (dead < 1024 || dead < this.#live) return;
    const kept: (W | undefined)[] = [];
    for (let i = this.#head; i < this.#items.length; i++) {
      const w = this.#items[i];
      if (w && !w.gone) kept.push(w);
    }
    this.#items = kept;
    this.#head = 0;
  }

  #reset(): void {
    this.#items = [];
    this.#head = 0;
  }
}
