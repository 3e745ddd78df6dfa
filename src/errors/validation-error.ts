import { AudienceError, type ErrorContext } from "./audience-error.ts";

/** One problem with one field. Messages never repeat the value (it may be a secret). */
export interface ValidationIssue {
  /** Dotted path of the field, e.g. `tickets.0.sold`, `params.path.eid`, `partnerId`. */
  readonly field: string;
  /** What is wrong, without the value. */
  readonly message: string;
}

/** Input refused before anything was sent. The client stays usable. */
export class ValidationError extends AudienceError {
  /** The class name as a literal, stable across bundlers and minifiers. */
  override readonly name = "ValidationError";
  /** Every problem found, one per field. */
  readonly issues: readonly ValidationIssue[];

  constructor(issues: readonly ValidationIssue[], context: ErrorContext = {}) {
    super(issues.map((i) => `${i.field}: ${i.message}`).join("; "), { expected: "valid input", ...context });
    this.issues = issues;
  }
}
