/**
 * A raw call to an endpoint partner tokens cannot use (Section 4, 7) is refused before sending:
 * every call of this client carries a partner's token and header (Section 5.5), so it could only
 * fail. The refusal says why and names the per-event results endpoint.
 */
import type { ValidationIssue } from "../errors/validation-error.ts";
import { notForPartnerTokens } from "../internal/not-for-partner-tokens.ts";

const PER_EVENT_RESULTS = "GET /integrations/{adplatform}/events/{eid}/campaign_results";

export function partnerTokenPathIssues(path: string): ValidationIssue[] {
  const entry = notForPartnerTokens(path);
  if (!entry) return [];
  return [
    {
      field: "path",
      message: `${entry.path} is not for partner tokens (Section 4, 7: it answers ${entry.codes.join(" or ")}), and every call of this client carries one; read campaign results per event with ${PER_EVENT_RESULTS}`,
    },
  ];
}
