/** Section 5.3, 5.5: the partner is chosen from the IdToken's groups claim when not given. */
import { groupsClaim } from "../assumptions.ts";
import { PartnerSelectionError } from "../errors/partner-selection-error.ts";
import { decodeJwtPayload } from "../internal/jwt.ts";

export function partnerFromIdToken(idToken: string | undefined, patterns: readonly RegExp[]): string {
  if (!idToken) {
    throw new PartnerSelectionError(
      "No partner id: pass partnerId, or a session with an IdToken whose groups claim names the partner",
      [],
    );
  }
  const claims = decodeJwtPayload(idToken);
  const candidates = [...new Set(groupsClaim(claims ?? {}).filter((g) => patterns.some((p) => p.test(g))))];
  if (candidates.length === 1) return candidates[0] as string;
  if (candidates.length === 0) {
    throw new PartnerSelectionError(
      "No partner id in the IdToken's groups claim: pass partnerId (or partnerIdPatterns for another id form)",
      [],
    );
  }
  throw new PartnerSelectionError(
    `The user belongs to ${candidates.length} partners (${candidates.join(", ")}): pass partnerId to choose one`,
    candidates,
  );
}
