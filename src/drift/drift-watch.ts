/**
 * `onDrift`: responses of described operations are checked against the
 * description (check-drift.ts, loaded on first use, with the description's response table) and
 * what differs is reported as `{ operation, status, requestId, problems }`. The check runs after
 * the call has its result: it never delays, changes or fails a call, and a throwing `onDrift` is
 * logged and ignored.
 *
 * Sampling: the first response of each operation, status and kind of media type (JSON, another,
 * none) is always checked, then
 * `driftSampleRate` of the rest (default 1 %). Drift is systematic — a renamed field is missing
 * from every response — so the first response finds it and a small sample keeps finding it, while
 * the cost (a walk over a parsed body) stays off nearly every call.
 */
import type { OperationInfo } from "../../generated/operations.ts";
import type { Redactor } from "../internal/redact.ts";

/** What a response of a described operation shows that the description does not say (option `onDrift`). */
export interface DriftReport {
  /** `METHOD /path` as in the description. */
  readonly operation: string;
  /** The response's HTTP status. */
  readonly status: number;
  /** The response's `x-request-id`, redacted. */
  readonly requestId: string | undefined;
  /** What differs, one sentence each; never a value of the body. */
  readonly problems: readonly string[];
}

type Check = typeof import("./check-drift.ts").driftProblems;

export class DriftWatch {
  readonly #onDrift: (report: DriftReport) => unknown;
  readonly #rate: number;
  readonly #redactor: Redactor;
  readonly #warn: (message: string, error: unknown) => void;
  readonly #random: () => number;
  readonly #seen = new Set<string>();
  #check: Promise<Check> | undefined;
  /** Whether a load of the check failed and was reported (the logger hears of it once). */
  #loadFailed = false;

  constructor(deps: {
    onDrift: (report: DriftReport) => void;
    sampleRate: number;
    redactor: Redactor;
    warn: (message: string, error: unknown) => void;
    random?: () => number;
  }) {
    this.#onDrift = deps.onDrift;
    this.#rate = deps.sampleRate;
    this.#redactor = deps.redactor;
    this.#warn = deps.warn;
    this.#random = deps.random ?? Math.random;
  }

  /** A described operation's result: checked in the background when sampled. */
  observe(op: OperationInfo, response: Response, body: unknown, bodyRead: boolean): void {
    const operation = `${op.method} ${op.path}`;
    const contentType = response.headers.get("content-type");
    const key = `${operation} ${response.status} ${mediaKind(contentType)}`;
    const first = !this.#seen.has(key);
    if (!first && !(this.#random() < this.#rate)) return;
    this.#seen.add(key);
    const requestId = response.headers.get("x-request-id");
    this.#check ??= import("./check-drift.ts").then((m) => m.driftProblems);
    const loading = this.#check;
    loading
      .then(
        (check) => {
          const problems = check(operation, response.status, contentType, body, bodyRead);
          if (problems.length === 0) return;
          // Returned: an async onDrift's rejection reaches the catch below, not the process.
          return this.#onDrift({
            operation,
            status: response.status,
            requestId: requestId === null ? undefined : this.#redactor.shown(requestId),
            problems: problems.map((p) => this.#redactor.shown(p)),
          });
        },
        (error: unknown) => {
          // A check that could not load is not lost for the client's life: a later response tries
          // the load again, and a kind whose first response went unchecked is checked next time.
          if (this.#check === loading) this.#check = undefined;
          if (first) this.#seen.delete(key);
          // One line, not one per response while the chunk stays away.
          if (!this.#loadFailed) this.#warn("the drift check could not be loaded; tried again later", error);
          this.#loadFailed = true;
        },
      )
      .catch((error: unknown) => this.#warn("onDrift threw; ignored", error));
  }
}

/**
 * The kind of a response's media type: the description's are all JSON, so a first HTML answer
 * after many JSON ones is a first of its kind. Three kinds, not the type itself: a server's
 * content types are unbounded, the set of keys above is not.
 */
function mediaKind(contentType: string | null): string {
  if (!contentType) return "none";
  const essence = (contentType.split(";")[0] ?? "").trim().toLowerCase();
  return essence.endsWith("/json") || essence.endsWith("+json") ? "json" : "other";
}
