/**
 * Whether a 401 is worth a refresh and a replay (retry-policy.ts). Not when its code says the
 * endpoint is not for this token (Section 4, 7: `error.auth.missing_token` from
 * `/campaigns/by_partner_id` for a partner token): a new token of the same kind fares no better.
 */
import { errorCodeOf } from "../assumptions.ts";
import { isNotForThisToken } from "../internal/not-for-partner-tokens.ts";

export async function worthRefreshing(basePath: string, url: string, response: Response): Promise<boolean> {
  const pathname = new URL(url).pathname;
  const relative = pathname.startsWith(basePath) ? pathname.slice(basePath.length) : pathname;
  let body: unknown;
  try {
    body = await response.clone().json();
  } catch {
    return true; // no readable code: an ordinary 401
  }
  return !isNotForThisToken(relative, errorCodeOf(body));
}
