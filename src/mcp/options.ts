/** createMcpServer's options, checked and defaulted once. */
import type { AudienceClientOptions } from "../index.ts";
import { observe } from "../internal/observe.ts";
import { MAX_TIMER_MS } from "../internal/timers.ts";

/** Options of {@link createMcpServer}. */
export interface McpServerOptions {
  /** The options of the one client the server makes and every tool call goes through. */
  client: AudienceClientOptions;
  /** Offer save_draft and cancel_draft. @default false */
  allowWrites?: boolean;
  /** Offer publish_setup (live, paid campaigns). @default false */
  allowPublish?: boolean;
  /**
   * How long a tool call may wait for the API, retries and rate-limit waits included; a wait that
   * would end later fails at once, saying when to retry. Also the client's `retry.deadlineMs`
   * unless that is lower. @default 15000
   */
  deadlineMs?: number;
  /** How long a question to the person (elicitation) waits for an answer; then nothing is sent. @default 600000 */
  confirmTimeoutMs?: number;
  /** Where the server's own log lines go (secrets masked); never stdout under stdio. @default none */
  log?: (line: string) => void;
}

/** The options, defaults filled. */
export interface McpConfig {
  readonly client: AudienceClientOptions;
  readonly allowWrites: boolean;
  readonly allowPublish: boolean;
  readonly deadlineMs: number;
  readonly confirmTimeoutMs: number;
  readonly log: ((line: string) => void) | undefined;
}

const positive = (name: string, value: number | undefined, fallback: number): number => {
  if (value === undefined) return fallback;
  // Past MAX_TIMER_MS a timer fires at once: a question would time out before anyone could answer.
  if (!(typeof value === "number" && value > 0 && value <= MAX_TIMER_MS))
    throw new TypeError(`createMcpServer: ${name} must be a positive number of ms, at most ${MAX_TIMER_MS}`);
  return value;
};

export function normalizeMcpOptions(options: McpServerOptions): McpConfig {
  if (typeof options !== "object" || options === null || typeof options.client !== "object" || options.client === null)
    throw new TypeError("createMcpServer: client (the client's options) is required");
  const { log } = options;
  if (log !== undefined && typeof log !== "function") throw new TypeError("createMcpServer: log must be a function");
  const deadlineMs = positive("deadlineMs", options.deadlineMs, 15_000);
  const given = options.client.retry?.deadlineMs;
  return {
    // One tool call's API calls end within the bound: the client's own deadline per call.
    client: {
      ...options.client,
      retry: { ...options.client.retry, deadlineMs: Math.min(given ?? deadlineMs, deadlineMs) },
    },
    allowWrites: options.allowWrites === true,
    allowPublish: options.allowPublish === true,
    deadlineMs,
    confirmTimeoutMs: positive("confirmTimeoutMs", options.confirmTimeoutMs, 600_000),
    // A log that throws or rejects changes no tool call's result (a publish it reports is done).
    log: log && ((line) => observe(() => log(line))),
  };
}
