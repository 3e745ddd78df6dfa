import { AudienceError } from "./audience-error.ts";

/**
 * The partner could not be chosen from the IdToken's groups claim: none matched, or several did
 * (Section 5.3, 5.5). Pass `partnerId` to the client to choose.
 */
export class PartnerSelectionError extends AudienceError {
  override readonly name = "PartnerSelectionError";
  /** The partner ids found in the groups claim (not secrets). */
  readonly candidates: readonly string[];

  constructor(message: string, candidates: readonly string[]) {
    super(message, { expected: "exactly one partner id in the IdToken groups claim" });
    this.candidates = candidates;
  }
}
