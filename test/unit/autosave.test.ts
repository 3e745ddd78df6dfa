import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ValidationError } from "../../src/errors/validation-error.ts";
import { createAutosaver } from "../../src/workflows/autosave.ts";

/** A fake draft endpoint whose saves the test completes by hand, one call at a time. */
function manualServer<T>() {
  const calls: Array<{ payload: T; succeed: () => void; fail: (error: unknown) => void }> = [];
  const state = { stored: undefined as T | undefined, inFlight: 0, maxInFlight: 0 };
  const save = (payload: T): Promise<void> =>
    new Promise((resolve, reject) => {
      state.maxInFlight = Math.max(state.maxInFlight, ++state.inFlight);
      calls.push({
        payload,
        succeed: () => {
          state.inFlight--;
          state.stored = payload;
          resolve();
        },
        fail: (error) => {
          state.inFlight--;
          reject(error);
        },
      });
    });
  /** The latest call, which must be the one in flight. */
  const current = () => {
    const call = calls.at(-1);
    if (!call) throw new Error("no save was made");
    return call;
  };
  return { calls, state, save, current, payloads: () => calls.map((c) => c.payload) };
}

/** Lets promise callbacks run (fake timers do not fake microtasks). */
const settle = () => vi.advanceTimersByTimeAsync(0);

/** Whether a promise has settled yet, without waiting for it. */
function track(promise: Promise<unknown>): { status: "pending" | "resolved" | "rejected"; error?: unknown } {
  const t: { status: "pending" | "resolved" | "rejected"; error?: unknown } = { status: "pending" };
  promise.then(
    () => (t.status = "resolved"),
    (error: unknown) => Object.assign(t, { status: "rejected", error }),
  );
  return t;
}

describe("createAutosaver", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("saves after the default 1 s of quiet (Section 3 and 8.5: 1 s, written as the number)", async () => {
    const server = manualServer<string>();
    const saver = createAutosaver({ save: server.save });
    void saver.autosave("a");
    await vi.advanceTimersByTimeAsync(999);
    expect(server.calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.payloads()).toEqual(["a"]);
  });

  it("coalesces edits: each edit restarts the debounce, only the latest is sent", async () => {
    const server = manualServer<string>();
    const saver = createAutosaver({ save: server.save, debounceMs: 100 });
    const a = track(saver.autosave("a"));
    await vi.advanceTimersByTimeAsync(60);
    const b = track(saver.autosave("b"));
    await vi.advanceTimersByTimeAsync(60);
    expect(server.calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(40);
    expect(server.payloads()).toEqual(["b"]);
    expect([a.status, b.status]).toEqual(["pending", "pending"]);
    server.current().succeed();
    await settle();
    expect([a.status, b.status]).toEqual(["resolved", "resolved"]); // "a" is stored as part of "b"
    expect(saver.pending()).toBe(false);
  });

  it("never has two saves in flight; edits made meanwhile are sent, latest only, after it settles", async () => {
    const server = manualServer<string>();
    const saver = createAutosaver({ save: server.save, debounceMs: 10 });
    void saver.autosave("a");
    await vi.advanceTimersByTimeAsync(10);
    expect(server.payloads()).toEqual(["a"]);

    const b = track(saver.autosave("b"));
    await vi.advanceTimersByTimeAsync(50);
    const c = track(saver.autosave("c"));
    await vi.advanceTimersByTimeAsync(50); // both debounces have run out while "a" is in flight
    expect(server.payloads()).toEqual(["a"]);

    server.current().succeed();
    await settle();
    expect(server.payloads()).toEqual(["a", "c"]); // "b" was superseded before it was sent
    expect(b.status).toBe("pending");
    server.current().succeed();
    await settle();
    expect([b.status, c.status]).toEqual(["resolved", "resolved"]);
    expect(server.state).toMatchObject({ stored: "c", maxInFlight: 1 });
  });

  it("waits for the debounce of an edit made during a save, even after that save settles", async () => {
    const server = manualServer<string>();
    const saver = createAutosaver({ save: server.save, debounceMs: 100 });
    void saver.autosave("a");
    await vi.advanceTimersByTimeAsync(100);
    void saver.autosave("b");
    server.current().succeed();
    await vi.advanceTimersByTimeAsync(99);
    expect(server.payloads()).toEqual(["a"]);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.payloads()).toEqual(["a", "b"]);
  });

  it("flush skips the debounce and resolves once the last edit is stored", async () => {
    const server = manualServer<string>();
    const saver = createAutosaver({ save: server.save, debounceMs: 1000 });
    void saver.autosave("a");
    void saver.autosave("b");
    const flushed = track(saver.flush());
    await settle();
    expect(server.payloads()).toEqual(["b"]);
    expect(flushed.status).toBe("pending");
    server.current().succeed();
    await settle();
    expect(flushed.status).toBe("resolved");
    await vi.advanceTimersByTimeAsync(5000);
    expect(server.calls).toHaveLength(1); // the cancelled debounce sends nothing later
  });

  it("flush waits for the save in flight, then sends the latest edit", async () => {
    const server = manualServer<string>();
    const saver = createAutosaver({ save: server.save, debounceMs: 10 });
    void saver.autosave("a");
    await vi.advanceTimersByTimeAsync(10);
    void saver.autosave("b");
    const flushed = track(saver.flush());
    await settle();
    expect(server.payloads()).toEqual(["a"]);
    server.current().succeed();
    await settle();
    expect(server.payloads()).toEqual(["a", "b"]);
    expect(flushed.status).toBe("pending");
    server.current().succeed();
    await settle();
    expect(flushed.status).toBe("resolved");
    expect(server.state.maxInFlight).toBe(1);
  });

  it("flush with only a save in flight waits for it, and rejects if it fails", async () => {
    const server = manualServer<string>();
    const saver = createAutosaver({ save: server.save, debounceMs: 10 });
    void saver.autosave("a");
    await vi.advanceTimersByTimeAsync(10);
    const flushed = track(saver.flush());
    const failure = new Error("409");
    server.current().fail(failure);
    await settle();
    expect(flushed).toEqual({ status: "rejected", error: failure });
  });

  it("flush with nothing to save resolves at once, without a save", async () => {
    const server = manualServer<string>();
    const saver = createAutosaver({ save: server.save, debounceMs: 10 });
    await saver.flush();
    expect(server.calls).toHaveLength(0);
    expect(saver.pending()).toBe(false);
  });

  it("keeps a failed edit pending, does not retry it on its own, and stores it on the next flush", async () => {
    const server = manualServer<string>();
    const errors: unknown[] = [];
    const saver = createAutosaver({ save: server.save, debounceMs: 10, onError: (e) => errors.push(e) });
    const a = track(saver.autosave("a"));
    await vi.advanceTimersByTimeAsync(10);
    const failure = new Error("503");
    server.current().fail(failure);
    await settle();
    expect(a).toEqual({ status: "rejected", error: failure });
    expect(errors).toEqual([failure]);
    expect(saver.pending()).toBe(true);

    await vi.advanceTimersByTimeAsync(60_000);
    expect(server.calls).toHaveLength(1);

    const flushed = track(saver.flush());
    await settle();
    expect(server.payloads()).toEqual(["a", "a"]);
    server.current().succeed();
    await settle();
    expect(flushed.status).toBe("resolved");
    expect(server.state.stored).toBe("a");
    expect(saver.pending()).toBe(false);
  });

  it("a later edit replaces a failed one, and is debounced as usual", async () => {
    const server = manualServer<string>();
    const saver = createAutosaver({ save: server.save, debounceMs: 10 });
    void saver.autosave("a");
    await vi.advanceTimersByTimeAsync(10);
    server.current().fail(new Error("503"));
    await settle();
    const b = track(saver.autosave("b"));
    await vi.advanceTimersByTimeAsync(10);
    expect(server.payloads()).toEqual(["a", "b"]);
    server.current().succeed();
    await settle();
    expect(b.status).toBe("resolved");
    expect(server.state.stored).toBe("b");
  });

  it("a failed save drops only its own edit when a newer one is waiting", async () => {
    const server = manualServer<string>();
    const saver = createAutosaver({ save: server.save, debounceMs: 10 });
    void saver.autosave("a");
    await vi.advanceTimersByTimeAsync(10);
    const b = track(saver.autosave("b"));
    server.current().fail(new Error("503"));
    await vi.advanceTimersByTimeAsync(10);
    expect(server.payloads()).toEqual(["a", "b"]);
    server.current().succeed();
    await settle();
    expect(b.status).toBe("resolved");
  });

  it("leaves no unhandled rejection when callers ignore the promises, and survives a throwing onError", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const server = manualServer<string>();
      const saver = createAutosaver({
        save: server.save,
        debounceMs: 10,
        onError: () => {
          throw new Error("faulty onError");
        },
      });
      void saver.autosave("a");
      void saver.flush();
      await settle();
      server.current().fail(new Error("503"));
      await settle();
      void saver.autosave("b");
      await vi.advanceTimersByTimeAsync(10);
      expect(server.payloads()).toEqual(["a", "b"]);
      server.current().succeed();
      vi.useRealTimers();
      await new Promise((resolve) => setTimeout(resolve, 10)); // unhandledRejection fires after a macrotask
      expect(unhandled).toEqual([]);
      expect(server.state.stored).toBe("b");
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });

  it("reports pending() while an edit waits, is in flight, or failed", async () => {
    const server = manualServer<string>();
    const saver = createAutosaver({ save: server.save, debounceMs: 10 });
    expect(saver.pending()).toBe(false);
    void saver.autosave("a");
    expect(saver.pending()).toBe(true);
    await vi.advanceTimersByTimeAsync(10);
    expect(server.state.inFlight).toBe(1);
    expect(saver.pending()).toBe(true);
    server.current().succeed();
    await settle();
    expect(saver.pending()).toBe(false);
  });

  it.each([Number.NaN, -1, Number.POSITIVE_INFINITY])("refuses debounceMs %s", (debounceMs) => {
    expect(() => createAutosaver({ save: async () => {}, debounceMs })).toThrow(ValidationError);
  });
});

describe("createAutosaver under random save latencies (fc.scheduler)", () => {
  // saveNow is `setupProcess(eid).update`: the same queue as the autosaves.
  type Step = { kind: "edit" | "saveNow" | "flush"; pauseMs: number };
  const steps = fc.array(
    fc.record({
      kind: fc.constantFrom<Step["kind"]>("edit", "edit", "saveNow", "edit", "flush"),
      pauseMs: fc.integer({ min: 0, max: 30 }),
    }),
    { maxLength: 15 },
  );

  it("stores the last edit, autosaves and saveNow mixed, with at most one save in flight and saves applied in edit order", async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), steps, fc.array(fc.boolean(), { maxLength: 6 }), async (s, steps, failures) => {
        vi.useFakeTimers();
        try {
          const server = { stored: -1, history: [] as number[], inFlight: 0, maxInFlight: 0, saves: 0 };
          // The fake server stores a save when the scheduler lets it complete; `failures` makes
          // the first few saves fail (true) or succeed (false).
          const save = async (payload: number): Promise<void> => {
            server.maxInFlight = Math.max(server.maxInFlight, ++server.inFlight);
            const fails = failures[server.saves++] ?? false;
            try {
              await s.schedule(Promise.resolve(), `save ${payload}${fails ? " (fails)" : ""}`);
              if (fails) throw new Error(`save ${payload} failed`);
              server.stored = payload;
              server.history.push(payload);
            } finally {
              server.inFlight--;
            }
          };
          const saver = createAutosaver({ save, debounceMs: 10 });

          let lastEdit = -1;
          let unsettled = 0;
          const violations: string[] = [];
          s.scheduleSequence(
            steps.map((step, i) => ({
              label: `${step.kind} #${i}, then ${step.pauseMs} ms`,
              builder: async () => {
                if (step.kind !== "flush") {
                  lastEdit = i;
                  unsettled++;
                  (step.kind === "edit" ? saver.autosave(i) : saver.saveNow(i)).then(
                    () => {
                      unsettled--;
                      if (server.stored < i) violations.push(`edit ${i} resolved while ${server.stored} was stored`);
                    },
                    () => unsettled--,
                  );
                } else {
                  saver.flush().catch(() => {}); // a mid-way flush may see a failing save
                }
                await vi.advanceTimersByTimeAsync(step.pauseMs);
              },
            })),
          );
          await s.waitIdle();

          // Final flush, repeated while the scripted failures last.
          for (let attempt = 0; ; attempt++) {
            try {
              await s.waitFor(saver.flush());
              break;
            } catch (error) {
              if (attempt > failures.length) throw error;
            }
          }
          for (let i = 0; i < 5; i++) await Promise.resolve();

          expect(server.stored).toBe(lastEdit);
          expect(server.maxInFlight).toBeLessThanOrEqual(1);
          expect(server.history).toEqual([...server.history].sort((a, b) => a - b)); // never an older edit after a newer one
          expect(new Set(server.history).size).toBe(server.history.length);
          expect(violations).toEqual([]);
          expect(unsettled).toBe(0);
          expect(saver.pending()).toBe(false);
        } finally {
          vi.useRealTimers();
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe("no timer value can overflow", () => {
  it.each([2 ** 31, Number.POSITIVE_INFINITY, -1, Number.NaN])(
    "a debounce of %d ms is refused, naming it",
    (debounceMs) => {
      expect(() => createAutosaver({ save: async () => undefined, debounceMs })).toThrow(ValidationError);
      expect(() => createAutosaver({ save: async () => undefined, debounceMs })).toThrow(/debounceMs/);
    },
  );
});
