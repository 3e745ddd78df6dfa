import { AudienceError, type ErrorContext } from "./audience-error.ts";

/** Where a setup process is, as far as this client has seen (Section 3). */
export type SetupState = "unknown" | "none" | "draft" | "published";

/** What a SetupStateError is built with: the setup, and the API's answer when there was one. */
export interface SetupStateDetails extends ErrorContext {
  readonly eid: string;
  readonly state: SetupState;
  readonly status?: number | undefined;
  readonly code?: string | undefined;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>> | undefined;
}

/**
 * A setup-process call that its state does not allow (Section 3 rules 1–2): refused before
 * sending when the state is known, or the API's refusal of it (a PUT, a publish or a cancel after
 * publish), which keeps what the API answered: `status`, `code`, `body`, `headers`.
 */
export class SetupStateError extends AudienceError {
  /** The class name as a literal, stable across bundlers and minifiers. */
  override readonly name = "SetupStateError";
  /** The event whose setup process the call was for. */
  readonly eid: string;
  /** The state the client had seen when it refused, or `published` after the API's refusal. */
  readonly state: SetupState;
  /** HTTP status when the API refused the call; undefined when refused before sending. */
  readonly status: number | undefined;
  /** The API's error code, when it refused the call with one (body shape not shown, Section 7). */
  readonly code: string | undefined;
  /** The API's parsed response body, redacted; undefined when refused before sending. */
  readonly body: unknown;
  /** The API's response headers, secrets redacted; undefined when refused before sending. */
  readonly headers: Readonly<Record<string, string>> | undefined;

  constructor(message: string, details: SetupStateDetails) {
    super(message, details);
    this.eid = details.eid;
    this.state = details.state;
    this.status = details.status;
    this.code = details.code;
    this.body = details.body;
    this.headers = details.headers;
  }

  protected override actual(): string {
    if (this.status === undefined) return super.actual();
    return `HTTP ${this.status}${this.code ? ` ${this.code}` : ""} — ${this.name}: ${this.message}`;
  }
}
