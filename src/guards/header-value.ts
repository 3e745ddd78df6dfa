/**
 * What may become an HTTP header value (the bearer token, the partner id). Fetch's Headers accept
 * only a ByteString — code units up to U+00FF — without NUL, CR or LF, and would otherwise throw a
 * raw TypeError on every call, quoting the value (a token!) in its message. Values are checked
 * where they enter (an option, a sign-in or refresh response, the IdToken's groups claim) and the
 * problem is described without repeating the value.
 */

/** Why `value` cannot be a header value, without quoting it; undefined when it can. */
export function headerValueIssue(value: string): string | undefined {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c > 0xff) return `has a character outside Latin-1 at position ${i}`;
    if (c < 0x20 || c === 0x7f) return `has a control character at position ${i}`;
  }
  if (value !== value.trim()) return "has leading or trailing whitespace";
  return undefined;
}
