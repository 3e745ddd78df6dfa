import { ValidationError } from "../errors/validation-error.ts";
import { MAX_TIMER_MS } from "../internal/timers.ts";
import { SPEC } from "../limits.ts";
import { deadlineAt, withinDeadline } from "./deadline.ts";

/** Options of {@link createAutosaver}. */
export interface AutosaverOptions<T> {
  /** Stores one edit, e.g. `PUT /setup_processes/{eid}` with the whole draft. */
  readonly save: (payload: T) => Promise<unknown>;
  /**
   * Quiet time after the last edit before it is saved; each edit restarts it.
   * @default SPEC.autosaveDebounceMs (Section 3 and 8.5: 1 s)
   */
  readonly debounceMs?: number;
  /**
   * Told when the saver starts and stops having work (an edit waiting, in flight, or kept after a
   * failure): its owner is kept alive meanwhile (setup handles released when idle).
   */
  onPending?: (pending: boolean) => void;
  /** Told of every failed save, including those nobody awaits. The edit stays pending. */
  readonly onError?: (error: unknown) => void;
  /**
   * Whether a failed edit stays pending for the next `autosave` or `flush`. An edit refused before
   * it was sent (invalid, or not allowed in the setup's state) would fail the same way again.
   * @default always
   */
  readonly keepFailed?: (error: unknown) => boolean;
}

/** What {@link createAutosaver} returns. */
export interface Autosaver<T> {
  /**
   * Records an edit; it is saved after `debounceMs` of quiet, unless a later edit supersedes it.
   * Resolves once this edit, or a later one, is stored; rejects if the save covering it failed.
   * Ignoring the promise is safe: a failure never surfaces as an unhandled rejection.
   */
  autosave(payload: T): Promise<void>;
  /**
   * Saves the latest edit now, skipping the rest of the debounce (after the save in flight, if
   * any). Resolves once the last edit is stored; rejects if that save failed. Call it before
   * publishing or leaving the page. With `deadlineMs`, rejects with a TimeoutError once it passes
   * (the save goes on, and the edit stays pending until it is stored).
   */
  flush(options?: { deadlineMs?: number }): Promise<void>;
  /**
   * Saves this edit now, in the same queue as the autosaves: it supersedes any edit not yet sent,
   * waits for the save in flight, and is never overlapped by a later one. Resolves with the result
   * of the save that stored it (a later edit's, if one superseded it); rejects if that save failed.
   */
  saveNow(payload: T): Promise<unknown>;
  /** True while some edit is not yet stored: waiting, in flight, or kept after a failure. */
  pending(): boolean;
}

interface Waiter {
  readonly resolve: (result: unknown) => void;
  readonly reject: (error: unknown) => void;
}

/** The edit that will be sent next, and everyone waiting for it (or for an edit it superseded). */
interface Edit<T> {
  readonly payload: T;
  readonly waiters: Waiter[];
  /** The debounce has run out (or a flush asked): send as soon as nothing is in flight. */
  ready: boolean;
}

/**
 * Debounced, ordered autosave of a draft (Section 3: the wizard debounces 1 s, and edits land
 * out of order if two saves overlap). Edits within `debounceMs` of each other coalesce into one
 * save of the latest; at most one save is in flight, and edits made meanwhile are sent, latest
 * only, once it settles — so the stored draft always ends as the last edit. A failed edit is
 * kept and retried by the next `autosave` or `flush`.
 *
 * @example
 * const saver = createAutosaver({ save: (draft: Draft) => putSetupProcess(eid, draft) });
 * form.on("change", (draft) => void saver.autosave(draft));
 * await saver.flush(); // before boost: the server has the last edit
 */
export function createAutosaver<T>(options: AutosaverOptions<T>): Autosaver<T> {
  const { debounceMs = SPEC.autosaveDebounceMs } = options;
  if (!(debounceMs >= 0 && debounceMs <= MAX_TIMER_MS))
    throw new ValidationError([
      { field: "debounceMs", message: `must be a number from 0 to ${MAX_TIMER_MS} (timers fire at once above it)` },
    ]);
  return new AutosaveQueue(options, debounceMs);
}

/** The queue behind {@link createAutosaver}: at most one save in flight, the latest edit next. */
class AutosaveQueue<T> implements Autosaver<T> {
  readonly #options: AutosaverOptions<T>;
  readonly #debounceMs: number;
  #next: Edit<T> | undefined; // not yet sent, or kept after its save failed
  #inFlight: Edit<T> | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #wasPending = false;

  constructor(options: AutosaverOptions<T>, debounceMs: number) {
    this.#options = options;
    this.#debounceMs = debounceMs;
  }

  autosave(payload: T): Promise<void> {
    // The superseded edit's waiters now wait for this one: it stores their change too. An edit
    // asked for at once (saveNow) stays asked for: superseding it does not delay it.
    const next: Edit<T> = { payload, waiters: this.#next?.waiters ?? [], ready: this.#next?.ready ?? false };
    this.#next = next;
    const done = this.#waitFor(next).then(() => undefined);
    done.catch(() => {});
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (this.#next) this.#next.ready = true;
      this.#sendIfReady();
    }, this.#debounceMs);
    this.#changed();
    return done;
  }

  flush(flushOptions: { deadlineMs?: number } = {}): Promise<void> {
    const at = deadlineAt(flushOptions.deadlineMs);
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const last = this.#next ?? this.#inFlight;
    if (!last) return Promise.resolve();
    const done = this.#waitFor(last).then(() => undefined);
    done.catch(() => {}); // as for autosave: ignoring the promise is safe
    if (this.#next) this.#next.ready = true;
    this.#sendIfReady();
    return at === undefined ? done : withinDeadline(done, at);
  }

  saveNow(payload: T): Promise<unknown> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const next: Edit<T> = { payload, waiters: this.#next?.waiters ?? [], ready: true };
    this.#next = next;
    const done = this.#waitFor(next);
    this.#sendIfReady();
    this.#changed();
    return done;
  }

  pending(): boolean {
    return this.#next !== undefined || this.#inFlight !== undefined;
  }

  /** Reports a change of `pending()` to `onPending`. */
  #changed(): void {
    const now = this.pending();
    if (now === this.#wasPending) return;
    this.#wasPending = now;
    this.#options.onPending?.(now);
  }

  #waitFor(edit: Edit<T>): Promise<unknown> {
    const done = new Promise<unknown>((resolve, reject) => edit.waiters.push({ resolve, reject }));
    done.catch(() => {}); // handled here, so callers may ignore it; those who await still see the rejection
    return done;
  }

  #sendIfReady(): void {
    if (this.#inFlight || !this.#next?.ready) return;
    const edit = this.#next;
    this.#next = undefined;
    this.#inFlight = edit;
    void this.#send(edit);
  }

  async #send(edit: Edit<T>): Promise<void> {
    const { save, keepFailed } = this.#options;
    try {
      const result = await save(edit.payload);
      for (const w of edit.waiters) w.resolve(result);
    } catch (error) {
      // Keep the failed edit unless a newer one already replaces it; it waits for the next
      // autosave or flush rather than retrying on its own against a failing server.
      if (keepFailed?.(error) ?? true) this.#next ??= { payload: edit.payload, waiters: [], ready: false };
      for (const w of edit.waiters) w.reject(error);
      this.#report(error);
    } finally {
      this.#inFlight = undefined;
      this.#sendIfReady();
      this.#changed();
    }
  }

  #report(error: unknown): void {
    try {
      this.#options.onError?.(error);
    } catch {
      // A throwing onError must not stop later saves; the error already reached the waiters.
    }
  }
}
