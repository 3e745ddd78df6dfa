import { AudienceError, type ErrorContext } from "./audience-error.ts";

/** Where a setup process is, as far as this client has seen (Section 3). */
export type SetupState = "unknown" | "none" | "draft" | "published";

/**
 * A setup-process call that its state does not allow (Section 3 rules 1–2): refused before
 * sending when the state is known, or the API's rejection of a PUT after publish.
 */
export class SetupStateError extends AudienceError {
  /** The class name as a literal, stable across bundlers and minifiers. */
  override name = "SetupStateError";
  /** The event whose setup process the call was for. */
  readonly eid: string;
  /** The state the client had seen when it refused, or `published` after the API's rejection. */
  readonly state: SetupState;
  /** HTTP status when the API rejected the call; undefined when refused before sending. */
  readonly status: number | undefined;

  constructor(message: string, details: ErrorContext & { eid: string; state: SetupState; status?: number }) {
    super(message, details);
    this.eid = details.eid;
    this.state = details.state;
    this.status = details.status;
  }
}
