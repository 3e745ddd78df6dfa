/**
 * What a rejected fetch means for the attempt: a network failure (and whether the request surely
 * never left), or the runtime's refusal to build a request from the call's init. Apart from
 * failure.ts, which the lazily loaded policies import: this part serves only the engine's last step
 * (fetch-terminal.ts), and its hint for a page (errors/browser-hints.ts) is code the up-front bundle
 * shares with the engine alone.
 */
import { networkFailureHint } from "../errors/browser-hints.ts";
import { AttemptFailure } from "./failure.ts";

// Connection-level failures that happen before a single byte of the request leaves.
const NOT_SENT = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
]);

/** The failure of an attempt whose fetch rejected: the network's. */
export function describeNetworkError(error: unknown, requestId?: string): AttemptFailure {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } })?.cause;
  const code = typeof cause?.code === "string" ? cause.code : undefined;
  const reason = code ?? (error instanceof Error ? error.message : "network error");
  const hint = code ? "" : networkFailureHint();
  return new AttemptFailure(
    "network",
    !(code && NOT_SENT.has(code)),
    `network error: ${reason}${hint}`,
    requestId,
    error,
  );
}

/**
 * The runtime's refusal to build a request from `init` (an unknown `cache`, `mode`, `credentials`
 * or `referrerPolicy`, a stream body without `duplex`…), or undefined when it builds one: then the
 * TypeError the attempt failed with was the network's (the Fetch standard throws TypeError for
 * both). Asked only after an attempt failed with a TypeError; a stream body is not probed (it could
 * be read only once).
 */
export function initRefusal(url: string, init: RequestInit): AttemptFailure | undefined {
  const { body, duplex } = init as RequestInit & { duplex?: string };
  if (duplex && typeof ReadableStream !== "undefined" && body instanceof ReadableStream) return undefined;
  try {
    new Request(url, { ...init, signal: null });
    return undefined;
  } catch (error) {
    return new AttemptFailure("refused", false, "the runtime refused to build a request from it", undefined, error);
  }
}
