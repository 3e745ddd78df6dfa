/**
 * The one definition of drift (Section 9.2: the description drifts from the
 * service): what a response of a described operation shows that the description does not say —
 * a status it does not declare, another media type or none, or a body whose shape differs where the
 * description shows one (a missing required property, a property of another type, an array that
 * is not one). Fields the description leaves open are never drift. Used by `onDrift` and by
 * `npm run contract:live`.
 *
 * A problem names where and what, never a value from the body: no secret can reach a report.
 */
import { responses, type Shape, shapes } from "../../generated/responses.ts";

const KINDS: Readonly<Record<string, string>> = { s: "string", i: "integer", n: "number", b: "boolean" };
const MAX_PROBLEMS = 20;

/**
 * The drift of one response, as sentences; [] when it agrees with the description.
 * @param body the parsed JSON body, or `undefined` when it was not read as JSON
 */
export function driftProblems(
  operation: string,
  status: number,
  contentType: string | null,
  body: unknown,
  bodyRead: boolean,
): string[] {
  const declared = responses[operation];
  if (!declared) return [];
  const row = declared[String(status)] ?? declared[`${String(status)[0]}XX`] ?? declared.default;
  if (!row) return [`status ${status} is not in the description (it declares ${Object.keys(declared).join(", ")})`];
  const [mediaType, shapeName] = row;
  const problems: string[] = [];
  const actual = contentType?.split(";")[0]?.trim().toLowerCase() || undefined;
  if (mediaType && actual && !sameMediaType(actual, mediaType))
    problems.push(`content type ${actual}, the description has ${mediaType}`);
  if (mediaType && !actual) problems.push(`no content type, the description has ${mediaType}`);
  if (shapeName && bodyRead && (!actual || sameMediaType(actual, mediaType as string)))
    walk(body, `#${shapeName}`, "body", problems);
  return problems.slice(0, MAX_PROBLEMS);
}

/** `application/json` also matches `+json` types and the charset parameter is ignored above. */
const sameMediaType = (actual: string, declared: string): boolean =>
  actual === declared || (declared === "application/json" && actual.endsWith("+json"));

function walk(value: unknown, shape: Shape, at: string, problems: string[]): void {
  if (problems.length >= MAX_PROBLEMS) return;
  if (typeof shape === "string") {
    if (shape.startsWith("#")) {
      const named = shapes[shape.slice(1)];
      if (named !== undefined) walk(value, named, at, problems);
      return;
    }
    const kind = KINDS[shape];
    if (kind && !isKind(value, shape)) problems.push(`${at}: ${kind} expected, ${typeName(value)} found`);
    return;
  }
  if ("a" in shape) {
    if (!Array.isArray(value)) {
      problems.push(`${at}: array expected, ${typeName(value)} found`);
      return;
    }
    if (shape.a === "") return;
    for (let i = 0; i < value.length && problems.length < MAX_PROBLEMS; i++)
      walk(value[i], shape.a, `${at}[${i}]`, problems);
    return;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    problems.push(`${at}: object expected, ${typeName(value)} found`);
    return;
  }
  const record = value as Record<string, unknown>;
  for (const key of shape.r ?? []) if (!(key in record)) problems.push(`${at}.${key}: required, missing`);
  for (const [key, inner] of Object.entries(shape.o)) {
    if (record[key] !== undefined && record[key] !== null) walk(record[key], inner, `${at}.${key}`, problems);
  }
}

function isKind(value: unknown, shape: string): boolean {
  if (shape === "s") return typeof value === "string";
  if (shape === "b") return typeof value === "boolean";
  if (shape === "i") return typeof value === "number" && Number.isInteger(value);
  return typeof value === "number" && Number.isFinite(value);
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number" && !Number.isInteger(value)) return "number";
  return typeof value === "number" ? "integer" : typeof value;
}
