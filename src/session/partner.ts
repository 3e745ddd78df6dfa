/** Section 5.3, 5.5: the partner is chosen from the IdToken's groups claim when not given. */
import { groupsClaims } from "../assumptions.ts";
import { PartnerSelectionError } from "../errors/partner-selection-error.ts";
import { headerValueIssue } from "../guards/header-value.ts";
import { decodeJwtPayload } from "../internal/jwt.ts";

/**
 * The one partner id among the groups of every groups claim together. The answer depends neither
 * on the order of the token's keys nor on state kept in a pattern: the patterns come from the
 * configuration, copied there without the `g` and `y` flags (whose `lastIndex` would carry over).
 */
export function partnerFromIdToken(idToken: string | undefined, patterns: readonly RegExp[]): string {
  if (!idToken) {
    throw new PartnerSelectionError(
      "No partner id: pass partnerId, or a session with an IdToken whose groups claim names the partner",
      [],
    );
  }
  const candidates = new Set<string>();
  for (const { groups } of groupsClaims(decodeJwtPayload(idToken) ?? {}))
    for (const group of groups) if (patterns.some((p) => p.test(group))) candidates.add(group);
  const found = [...candidates];
  if (found.length === 1) return found[0] as string;
  if (found.length === 0) {
    throw new PartnerSelectionError(
      "No partner id in the IdToken's groups claim: pass partnerId (or partnerIdPatterns for another id form)",
      [],
    );
  }
  throw new PartnerSelectionError(
    `The user belongs to ${found.length} partners in the IdToken's groups claims (${found.join(", ")}): pass partnerId to choose one`,
    found,
  );
}

/** The partner chosen from the IdToken, refused when it cannot be sent as X-Preferred-Partner-Id (Section 5.5). */
export function headerPartnerFromIdToken(idToken: string | undefined, patterns: readonly RegExp[]): string {
  const partner = partnerFromIdToken(idToken, patterns);
  const issue = headerValueIssue(partner);
  if (issue) {
    throw new PartnerSelectionError(
      `The partner id in the IdToken's groups claim cannot be sent as X-Preferred-Partner-Id: it ${issue}; pass partnerId`,
      [],
    );
  }
  return partner;
}
