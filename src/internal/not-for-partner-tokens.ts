/**
 * Section 4 and 7: two endpoints are not for partner tokens — the generic `/campaign_results/`
 * answers them `error.auth.not_authorized`, `/campaigns/by_partner_id` `error.unauthorized` or
 * `error.auth.missing_token`. Shared by the guard that refuses raw calls to them, the transport
 * (no refresh after such a 401) and the error factory (its message).
 */

/** The two paths, relative to the base address, with what they answer a partner token (Section 7). */
const NOT_FOR_PARTNER_TOKENS: ReadonlyArray<NotForPartnerTokens> = [
  { path: "/campaign_results", codes: ["error.auth.not_authorized"] },
  { path: "/campaigns/by_partner_id", codes: ["error.unauthorized", "error.auth.missing_token"] },
];

export interface NotForPartnerTokens {
  readonly path: string;
  readonly codes: readonly string[];
}

/** The entry for `path` (relative to the base address; percent-escapes and a trailing slash ignored). */
export function notForPartnerTokens(path: string): NotForPartnerTokens | undefined {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // a malformed escape is compared as written
  }
  // A loop, not /\/+$/: that pattern retries from every slash of a long run (quadratic).
  let end = decoded.length;
  while (end > 0 && decoded[end - 1] === "/") end--;
  const bare = decoded.slice(0, end);
  return NOT_FOR_PARTNER_TOKENS.find((e) => bare === e.path || bare.startsWith(`${e.path}/`));
}

/** Whether a 401 on `path` (relative to the base address) with `code` says the endpoint is not for this token. */
export function isNotForThisToken(path: string, code: string | undefined): boolean {
  return code !== undefined && (notForPartnerTokens(path)?.codes.includes(code) ?? false);
}
