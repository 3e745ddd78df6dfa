/**
 * Path values travel as one path segment each, percent-encoded as openapi-fetch encodes them
 * (encodeURIComponent: `/`, `\`, `?`, `#`, `%` and every other reserved character, text as UTF-8),
 * so a taste cluster name reaches the API "URL-encoded, not slugified" (Section 2): "Jazz / Blues"
 * is one segment, `Jazz%20%2F%20Blues`, and an id already holding `%2F` is sent as `%252F`, as
 * openapi-fetch sends it. Refused is what no encoding makes safe: an empty value (the path would
 * name another endpoint), a value that is `.` or `..`, plain or percent-encoded at any depth
 * (encodeURIComponent leaves dots as they are, URL parsing resolves them, and a server that
 * decodes the segment sees `..` in `%2e%2e`), a lone surrogate (no UTF-8 form), and a value longer
 * than {@link MAX_ID_LENGTH}.
 *
 * Identifiers (`eid`, `adplatform`) are held to more, for the reasons README's "Differences from
 * openapi-fetch" gives: no whitespace, no control character (a pasted id with a trailing space or a
 * line break would reach the API, percent-encoded, as another id) and no malformed percent-escape.
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
 * Parameters that are free text rather than identifiers. Section 2: a taste cluster name `tc` is
 * "used as a path segment, URL-encoded, not slugified" (no operation of the description takes it in
 * the path yet; a path outside the description may).
 */
const FREE_TEXT = new Set(["tc"]);

const DOTS = "must not be '.' or '..', percent-encoded or not (URL parsing would move the call to another path)";

/** What {@link idIssues} says of a value, without the field: named only when something is wrong. */
function idProblem(value: unknown, freeText: boolean | undefined): string | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return undefined;
  if (typeof value !== "string") return "is required and must be a string";
  if (value === "" || (!freeText && value.trim() === "")) return "must not be empty";
  // Capped before the decoding below: each pass decodes one level, so nested escapes cost n² without it.
  if (value.length > MAX_ID_LENGTH) return `must be at most ${MAX_ID_LENGTH} characters`;
  if (DOT_SEGMENT.test(value)) return DOTS;
  if (hasLoneSurrogate(value)) return "must be well-formed text (it has a lone surrogate)";
  if (!freeText) {
    if (hasControlCharacter(value)) return "must not contain control characters (CR, LF, …)";
    if (/\s/.test(value)) return "must not contain whitespace";
  }
  return decodedIssue(value, freeText);
}

/** What is wrong with one path value (or an eid in a query or body), if anything: see above. */
export function idIssues(value: unknown, field: string, freeText?: boolean): ValidationIssue[] {
  const message = idProblem(value, freeText);
  return message ? [{ field, message }] : [];
}

/**
 * A server that decodes a segment (once, or again) must not find a dot segment in it: the value is
 * decoded until it no longer changes, and refused if any form is `.` or `..`. An identifier that
 * cannot be decoded is refused too; free text is sent as it is (its `%` encoded as `%25`).
 */
function decodedIssue(value: string, freeText: boolean | undefined): string | undefined {
  if (!value.includes("%")) return undefined; // nothing decodes (most ids, most calls)
  let text = value;
  for (let previous = ""; text !== previous; ) {
    if (text === "." || text === "..") return DOTS;
    previous = text;
    try {
      text = decodeURIComponent(text);
    } catch {
      return freeText ? undefined : "must not contain a malformed percent-escape";
    }
  }
  return undefined;
}

export function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/**
 * @param names the parameters of the path template
 * @param described whether the path is an operation of the description; in a path outside it, a
 *   parameter the description does not name as an identifier is free text
 */
export function pathParamIssues(
  path: Readonly<Record<string, unknown>> | undefined,
  names: readonly string[],
  described = true,
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const name of names) {
    const freeText = FREE_TEXT.has(name) || (!described && !IDENTIFIERS.has(name));
    // Checked on every call: the field's name is built only for a value that is refused.
    const message = idProblem(path?.[name], freeText);
    if (message) issues.push({ field: `params.path.${name}`, message });
  }
  return issues;
}

/** The description's path parameters (Section 2), identifiers wherever they appear. */
const IDENTIFIERS = new Set(["eid", "adplatform"]);

/** The parameters of a path template, `{name}` each, as openapi-fetch fills them. */
export const templateParams = (path: string): string[] =>
  Array.from(path.matchAll(/\{([^{}]+)\}/g), (m) => m[1] as string);
