import { afterEach, describe, expect, it, vi } from "vitest";
import { TimeoutError } from "../../src/errors/network-error.ts";
import { ValidationError } from "../../src/errors/validation-error.ts";
import { SPEC } from "../../src/limits.ts";
import { isTerminalStatus, poll, pollDefaults } from "../../src/workflows/poll.ts";

/** A status endpoint answering the given statuses in turn (the last one forever). */
function fakeStatus(...statuses: string[]) {
  let calls = 0;
  const fetchStatus = async (): Promise<{ status: string }> => ({
    status: statuses[Math.min(calls++, statuses.length - 1)] ?? "?",
  });
  return { fetchStatus, calls: () => calls };
}

/** A sleep that returns at once and records what it was asked to wait. */
function fakeSleep() {
  const waits: number[] = [];
  const sleep = async (ms: number, signal?: AbortSignal): Promise<void> => {
    signal?.throwIfAborted();
    waits.push(ms);
  };
  return { waits, sleep };
}

const isDone = isTerminalStatus();

describe("poll", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("fetches at once and returns the first final value, without waiting", async () => {
    const server = fakeStatus("DONE");
    const { waits, sleep } = fakeSleep();
    expect(await poll({ fetchStatus: server.fetchStatus, isDone, intervalMs: 2000, sleep })).toEqual({
      status: "DONE",
    });
    expect(waits).toEqual([]);
    expect(server.calls()).toBe(1);
  });

  it("waits a fixed interval by default", async () => {
    const server = fakeStatus("RUNNING", "RUNNING", "RUNNING", "SUCCESS");
    const { waits, sleep } = fakeSleep();
    await poll({ fetchStatus: server.fetchStatus, isDone, intervalMs: 5000, sleep });
    expect(waits).toEqual([5000, 5000, 5000]);
    expect(server.calls()).toBe(4);
  });

  it("grows the wait by the backoff factor up to the cap", async () => {
    const server = fakeStatus(...Array<string>(7).fill("RUNNING"), "DONE");
    const { waits, sleep } = fakeSleep();
    await poll({ fetchStatus: server.fetchStatus, isDone, intervalMs: 1000, backoff: 2, maxIntervalMs: 10_000, sleep });
    expect(waits).toEqual([1000, 2000, 4000, 8000, 10_000, 10_000, 10_000]);
  });

  it("raises a faster interval to the minimum (status polls: 3 s or longer)", async () => {
    const server = fakeStatus("RUNNING", "RUNNING", "FAILED");
    const { waits, sleep } = fakeSleep();
    await poll({ ...pollDefaults.status, fetchStatus: server.fetchStatus, isDone, intervalMs: 500, sleep });
    expect(waits).toEqual([3000, 3000]);
  });

  it("keeps the minimum even when the cap is lower", async () => {
    const server = fakeStatus("RUNNING", "RUNNING", "DONE");
    const { waits, sleep } = fakeSleep();
    await poll({
      fetchStatus: server.fetchStatus,
      isDone,
      intervalMs: 100,
      maxIntervalMs: 1000,
      minIntervalMs: 3000,
      sleep,
    });
    expect(waits).toEqual([3000, 3000]);
  });

  it("task poll preset: about 2 s, growing by 1.5 up to 30 s", async () => {
    const server = fakeStatus(...Array<string>(10).fill("PENDING"), "COMPLETED");
    const { waits, sleep } = fakeSleep();
    await poll({ ...pollDefaults.task, fetchStatus: server.fetchStatus, isDone, sleep });
    expect(waits).toEqual([2000, 3000, 4500, 6750, 10_125, 15_187.5, 22_781.25, 30_000, 30_000, 30_000]);
  });

  it("presets take their numbers from SPEC", () => {
    expect(pollDefaults.task.intervalMs).toBe(SPEC.taskPollIntervalMs);
    expect(pollDefaults.task.maxIntervalMs).toBe(SPEC.backoffCapMs);
    expect(pollDefaults.status).toEqual({
      intervalMs: SPEC.minStatusPollIntervalMs,
      minIntervalMs: SPEC.minStatusPollIntervalMs,
    });
  });

  it("rejects with the signal's reason when aborted between fetches, and fetches no more", async () => {
    const controller = new AbortController();
    const reason = new Error("user cancelled");
    const server = fakeStatus("RUNNING");
    const sleep = async (): Promise<void> => controller.abort(reason);
    await expect(
      poll({ fetchStatus: server.fetchStatus, isDone, intervalMs: 3000, sleep, signal: controller.signal }),
    ).rejects.toBe(reason);
    expect(server.calls()).toBe(1);
  });

  it("rejects at once for an already aborted signal, without fetching", async () => {
    const reason = new Error("gone");
    const server = fakeStatus("DONE");
    await expect(
      poll({ fetchStatus: server.fetchStatus, isDone, intervalMs: 3000, signal: AbortSignal.abort(reason) }),
    ).rejects.toBe(reason);
    expect(server.calls()).toBe(0);
  });

  it("rejects when aborted during a fetch that ignores the signal", async () => {
    const controller = new AbortController();
    const reason = new Error("cancelled");
    const fetchStatus = (): Promise<string> => {
      setTimeout(() => controller.abort(reason), 1);
      return new Promise(() => {}); // never answers
    };
    await expect(poll({ fetchStatus, isDone, intervalMs: 3000, signal: controller.signal })).rejects.toBe(reason);
  });

  it("passes its signal to fetchStatus and sleep", async () => {
    const signals: Array<AbortSignal | undefined> = [];
    let calls = 0;
    await poll({
      fetchStatus: async (signal) => {
        signals.push(signal);
        return calls++ === 0 ? "RUNNING" : "DONE";
      },
      isDone,
      intervalMs: 10,
      sleep: async (_ms, signal) => void signals.push(signal),
    });
    expect(signals).toHaveLength(3);
    expect(signals.every((s) => s instanceof AbortSignal && !s.aborted)).toBe(true);
  });

  it("rejects with a TimeoutError once timeoutMs has passed, fetching no more", async () => {
    vi.useFakeTimers();
    const server = fakeStatus("RUNNING");
    const result = poll({ fetchStatus: server.fetchStatus, isDone, intervalMs: 3000, timeoutMs: 10_000 });
    const assertion = expect(result).rejects.toBeInstanceOf(TimeoutError);
    await vi.advanceTimersByTimeAsync(10_000);
    await assertion;
    expect(server.calls()).toBe(4); // at 0, 3, 6 and 9 s
    await vi.advanceTimersByTimeAsync(60_000);
    expect(server.calls()).toBe(4);
    expect(vi.getTimerCount()).toBe(0); // the deadline timer is cleared too
  });

  it("clears its deadline timer when it finishes in time", async () => {
    vi.useFakeTimers();
    const server = fakeStatus("RUNNING", "DONE");
    const result = poll({ fetchStatus: server.fetchStatus, isDone, intervalMs: 3000, timeoutMs: 60_000 });
    await vi.advanceTimersByTimeAsync(3000);
    expect(await result).toEqual({ status: "DONE" });
    expect(vi.getTimerCount()).toBe(0);
  });

  it("passes a failing fetch's error through", async () => {
    const failure = new Error("500");
    await expect(poll({ fetchStatus: () => Promise.reject(failure), isDone, intervalMs: 1 })).rejects.toBe(failure);
  });

  it.each([
    ["intervalMs", { intervalMs: Number.NaN }],
    ["intervalMs", { intervalMs: -1 }],
    ["backoff", { backoff: 0.5 }],
    ["maxIntervalMs", { maxIntervalMs: -5 }],
    ["timeoutMs", { timeoutMs: Number.NaN }],
  ])("refuses a bad %s, which could turn into a busy loop", async (field, bad) => {
    const server = fakeStatus("DONE");
    const error = await poll({ fetchStatus: server.fetchStatus, isDone, intervalMs: 1000, ...bad }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((i) => i.field)).toEqual([field]);
    expect(server.calls()).toBe(0);
  });
});

describe("isTerminalStatus", () => {
  it("reads status or state, ignoring case", () => {
    expect(isDone({ status: "done" })).toBe(true);
    expect(isDone({ state: "Failed" })).toBe(true);
    expect(isDone("SUCCESS")).toBe(true);
    expect(isDone({ status: "RUNNING" })).toBe(false);
    expect(isDone({})).toBe(false);
    expect(isDone(null)).toBe(false);
  });

  it("takes its own terminal states", () => {
    const isReady = isTerminalStatus(["ready"]);
    expect(isReady({ status: "READY" })).toBe(true);
    expect(isReady({ status: "DONE" })).toBe(false);
  });
});

describe("poll retries on its own schedule", () => {
  it("retries a retryable failure after the next wait, at least the failure's own delay, and gives up after maxFailures", async () => {
    const { waits, sleep } = fakeSleep();
    let calls = 0;
    const failing = new Error("503");
    const value = await poll({
      ...pollDefaults.status,
      sleep,
      isDone,
      retryDelayMs: (error) => (error === failing ? (calls === 2 ? 7_000 : 0) : undefined),
      fetchStatus: async () => {
        calls++;
        if (calls <= 2) throw failing;
        return { status: "DONE" };
      },
    });
    expect(value).toEqual({ status: "DONE" });
    expect(waits).toEqual([3_000, 7_000]);

    const tries = { n: 0 };
    const error = await poll({
      ...pollDefaults.status,
      sleep,
      isDone,
      maxFailures: 3,
      retryDelayMs: () => 0,
      fetchStatus: async () => {
        tries.n++;
        throw failing;
      },
    }).catch((e: unknown) => e);
    expect(error).toBe(failing);
    expect(tries.n).toBe(3);
  });

  it("a failure retryDelayMs calls final rejects at once", async () => {
    const { waits, sleep } = fakeSleep();
    const final = new Error("404");
    await expect(
      poll({
        ...pollDefaults.status,
        sleep,
        isDone,
        retryDelayMs: () => undefined,
        fetchStatus: () => Promise.reject(final),
      }),
    ).rejects.toBe(final);
    expect(waits).toEqual([]);
  });
});
