/**
 * The vendor's description is data from outside, read in CI: nothing in it may make the pipeline
 * reach anything beyond the file, and the one vendor string that reaches titles and release notes
 * unquoted, `info.version`, must be a plain token. Checked before redocly and openapi-typescript
 * see the file (both follow `$ref`s wherever they point, over HTTP too), by `npm run generate` and
 * by `npm run vendor:update` before it replaces the committed file.
 *
 * Accepted references are local JSON pointers (`#/components/schemas/Event`) that resolve in the
 * file itself, written without percent-encoding. Refused, wherever they appear (extensions and
 * example values included, since a resolver does not know what is data):
 * - `$ref` and Link `operationRef` that are anything else: a URL, a protocol-relative `//host`, a
 *   relative or absolute file, `other.yaml#/x`, a percent-encoded form, a pointer that resolves to
 *   nothing, a value that is not a string;
 * - `$id` (it re-bases the references under it onto the URL it names), `$dynamicRef` and
 *   `$recursiveRef` (resolved against such a base), `externalValue` (an example fetched from a URL);
 * - a `discriminator.mapping` value that is neither such a reference nor a schema of the file.
 */
import { type Doc, isObject, type Json, lookup } from "./json-ref.ts";
import { visible } from "./visible-text.ts";

/**
 * A version as the release notes and the pull request title print it: digits first (an optional
 * `v`), then letters, digits, `.`, `+`, `-` (semver's alphabet), 64 characters at most. No space,
 * newline, `_`, `:`, `@`, `#`, `<` or `[`: nothing Markdown, HTML or GitHub turns into a heading,
 * comment, link, mention or reference (`_www.` and `://` would autolink).
 */
const VERSION_TOKEN = /^v?[0-9][0-9A-Za-z.+-]{0,62}$/;

export const isVersionToken = (value: unknown): value is string =>
  typeof value === "string" && VERSION_TOKEN.test(value);

export interface Refusal {
  /** RFC 6901 pointer, as a URI fragment, into the vendor file. */
  readonly pointer: string;
  readonly reason: string;
}

const LOCAL = /^#(\/[^\s%\\#]*)+$/;
const REFERENCE_KEYS = new Set(["$ref", "operationRef"]);
const REFUSED_KEYS: Record<string, string> = {
  $id: "re-bases the references under it onto another document; refused",
  $dynamicRef: "a dynamic reference resolves outside this file; refused",
  $recursiveRef: "a recursive reference resolves outside this file; refused",
  externalValue: "an example fetched from elsewhere; give it as `value` instead",
};

const escapePart = (part: string) => part.replaceAll("~", "~0").replaceAll("/", "~1");

/** A value for a message: quoted, hidden characters spelled out, at most 80 characters. */
const quoted = (value: Json | undefined): string => visible(JSON.stringify(value) ?? "undefined", 80);

function localReference(doc: Doc, value: Json | undefined): string | undefined {
  if (typeof value !== "string") return "is not a string";
  if (!LOCAL.test(value)) return 'is not a local reference (only "#/..." pointers into this file are accepted)';
  if (lookup(doc, value) === undefined) return "does not resolve in this file";
  return undefined;
}

function mappingValue(doc: Doc, value: Json | undefined): string | undefined {
  if (typeof value === "string" && /^[A-Za-z0-9_.-]+$/.test(value)) {
    const schemas = isObject(doc.components) && isObject(doc.components.schemas) ? doc.components.schemas : {};
    return value in schemas ? undefined : "names no schema of this file";
  }
  return localReference(doc, value);
}

/** Every reason to refuse `doc` as a vendor description, each with its pointer; none when it is data only. */
export function refusals(doc: Doc): Refusal[] {
  const found: Refusal[] = [];
  const visit = (node: Json, pointer: string, parentKey: string | undefined): void => {
    if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) visit(item, `${pointer}/${i}`, undefined);
      return;
    }
    if (!isObject(node)) return;
    for (const [key, value] of Object.entries(node)) {
      const at = `${pointer}/${escapePart(key)}`;
      const refused = Object.hasOwn(REFUSED_KEYS, key) ? REFUSED_KEYS[key] : undefined;
      if (refused) found.push({ pointer: at, reason: `${quoted(value)}: ${refused}` });
      else if (REFERENCE_KEYS.has(key)) {
        const why = localReference(doc, value);
        if (why) found.push({ pointer: at, reason: `${quoted(value)} ${why}` });
      } else if (parentKey === "discriminator" && key === "mapping" && isObject(value)) {
        for (const [name, target] of Object.entries(value)) {
          const why = mappingValue(doc, target);
          if (why) found.push({ pointer: `${at}/${escapePart(name)}`, reason: `${quoted(target)} ${why}` });
        }
      }
      visit(value, at, key);
    }
  };
  visit(doc, "#", undefined);
  const info = isObject(doc.info) ? doc.info : undefined;
  if (!isVersionToken(info?.version))
    found.push({
      pointer: "#/info/version",
      reason: `${quoted(info?.version)} is not a plain version token (${VERSION_TOKEN.source}; a string in YAML: quote 3.1)`,
    });
  return found;
}

/** The refusal as printed: what was refused and why, one pointer a line. */
export function formatRefusals(file: string, found: readonly Refusal[]): string {
  return [
    `${file} refused: the vendor file is data; it may reference only itself ("#/..."), and info.version must be a plain version token.`,
    ...found.map((r) => `  ${r.pointer}: ${r.reason}`),
    "Nothing was linted, generated or written.",
  ].join("\n");
}
