/**
 * The path of a raw call (`client.GET(path, …)`) is a template of the description, or a path the
 * description does not list (drift). Either way it must stay a path under the base URL: URL
 * parsing resolves `..` and `.` segments — `%2e%2e` too — so `/events/../partners/` would reach
 * another endpoint, and `/../../x` a path outside `/api/v3`, with the bearer token. A `?` or `#`
 * would smuggle a query past validation (`/events/?limit=10000`), and whitespace or control
 * characters corrupt the request line. Parameters belong in `params`, where they are checked.
 */
import type { ValidationIssue } from "../errors/validation-error.ts";
import { DOT_SEGMENT, hasControlCharacter } from "./path-params.ts";
import { hasLoneSurrogate } from "./request-values.ts";

export function rawPathIssues(path: unknown): ValidationIssue[] {
  if (typeof path !== "string" || !path.startsWith("/"))
    return [{ field: "path", message: "must be a string starting with /" }];
  if (/\s/.test(path) || hasControlCharacter(path) || hasLoneSurrogate(path))
    return [{ field: "path", message: "must not contain whitespace, control characters or lone surrogates" }];
  if (/[?#]/.test(path))
    return [{ field: "path", message: "must not contain ? or #: pass query parameters in params.query" }];
  if (path.split("/").some((segment) => DOT_SEGMENT.test(segment)))
    return [
      {
        field: "path",
        message: "must not contain '.' or '..' segments (URL parsing would move the call to another path)",
      },
    ];
  return [];
}
