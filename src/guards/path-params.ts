/**
 * Path parameter values that would change the URL's path are refused: empty values, `.` and `..`
 * (encodeURIComponent leaves them as they are) and their percent-encoded forms. Other characters
 * are percent-encoded by openapi-fetch, so `tc` names reach the API URL-encoded, never slugified.
 *
 * The path parameters of this API are identifiers (`eid`, `adplatform`), so whitespace is refused
 * as well: a pasted id with a trailing space or line break would otherwise reach the API,
 * percent-encoded, as another id. So is a value longer than {@link MAX_ID_LENGTH}.
 */
import type { ValidationIssue } from "../errors/validation-error.ts";
import { hasLoneSurrogate } from "./request-values.ts";

/** `.` or `..`, plain or percent-encoded: a segment that would change the URL's path. */
export const DOT_SEGMENT = /^(\.|%2e){1,2}$/i;

/**
 * Longest id accepted. Far above any id the API issues, far below what a request line may carry:
 * without a cap a 1 MB eid was sent, and refused by the server (HTTP 431) only after it went out.
 */
export const MAX_ID_LENGTH = 512;

/**
 * Parameters that are free text rather than identifiers: inner spaces allowed, only leading or
 * trailing whitespace refused. Section 2: a taste cluster name `tc` is "used as a path segment,
 * URL-encoded, not slugified" (no operation of the description takes it in the path yet).
 */
const FREE_TEXT = new Set(["tc"]);

/** What is wrong with one id-like value (path parameter, or an eid in a query or body), if anything. */
export function idIssues(value: unknown, field: string, freeText = false): ValidationIssue[] {
  if (typeof value === "number" && Number.isFinite(value)) return [];
  if (typeof value !== "string") return [{ field, message: "is required and must be a string" }];
  if (value.trim() === "") return [{ field, message: "must not be empty" }];
  // Capped before the decoding below: each pass decodes one level, so nested escapes cost n² without it.
  if (value.length > MAX_ID_LENGTH) return [{ field, message: `must be at most ${MAX_ID_LENGTH} characters` }];
  if (DOT_SEGMENT.test(value)) return [{ field, message: "must not be '.' or '..' (it would change the URL's path)" }];
  if (hasControlCharacter(value)) return [{ field, message: "must not contain control characters (CR, LF, …)" }];
  if (hasLoneSurrogate(value)) return [{ field, message: "must be well-formed text (it has a lone surrogate)" }];
  if (freeText ? value.trim() !== value : /\s/.test(value))
    return [{ field, message: freeText ? "must not start or end with whitespace" : "must not contain whitespace" }];
  const decoded = freeText ? undefined : decodedSegmentIssue(value);
  return decoded ? [{ field, message: decoded }] : [];
}

const SEPARATOR =
  "must not be '.' or '..' or contain '/' or '\\', percent-encoded or not (it would change the URL's path)";

/** A dot segment or a separator: what would change the URL's path. */
const changesPath = (text: string): boolean => text === "." || text === ".." || /[/\\]/.test(text);

/**
 * An identifier travels as one path segment. openapi-fetch percent-encodes it, but a server that
 * decodes it (once, or again) must not see a dot segment or a separator: `%2e%2e` is `..`, `%2F` a
 * `/`. So the value is decoded until it no longer changes, and refused if any form is `.` or `..`
 * or holds `/` or `\` (which WHATWG URL parsing also reads as `/`), or if it cannot be decoded.
 * The one rule for the `adPlatform` option and every identifier a call gives.
 */
function decodedSegmentIssue(value: string): string | undefined {
  // Without a '%' nothing decodes: one test of the separators says it (most ids, most calls).
  if (!value.includes("%")) return changesPath(value) ? SEPARATOR : undefined;
  let text = value;
  for (let previous = ""; text !== previous; ) {
    if (changesPath(text)) return SEPARATOR;
    previous = text;
    try {
      text = decodeURIComponent(text);
    } catch {
      return "must not contain a malformed percent-escape";
    }
  }
  return undefined;
}

/** True when `text` holds a C0 control character (CR, LF, NUL, tab…) or DEL. */
export function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

export function pathParamIssues(
  path: Readonly<Record<string, unknown>> | undefined,
  names: readonly string[],
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const name of names)
    for (const issue of idIssues(path?.[name], `params.path.${name}`, FREE_TEXT.has(name))) issues.push(issue);
  return issues;
}
