/**
 * What the request log keeps of a value: secrets taken out (Section 5: tokens and passwords never
 * reach a log). Two nets: a field whose name says it holds a secret (`password`, `token`,
 * `RefreshToken`, `access_token`, `authorization`, …) is replaced whatever its value, in JSON
 * bodies, form bodies and query strings; and every secret the mock knows (the passwords it was
 * sent, the bearers it saw, the tokens it minted) is cut out of any text it appears in — as is,
 * percent-encoded, form-encoded, JSON-escaped, base64 or base64url.
 */

const REDACTED = "[redacted]";

/** Field names that hold a secret, whatever their case and separators. */
const SECRET_NAME = /pass(word|wd)?|token|secret|authori[sz]ation|api[-_]?key|credential|session/i;

const isSecretName = (name: string): boolean => SECRET_NAME.test(name);

/** Secrets shorter than this are cut by name only: cutting "pw" out of every text would garble the log. */
const SHORTEST_CUT = 6;

/** The secrets the mock knows, with every form each takes in text, longest first. */
export class KnownSecrets {
  #forms: string[] = [];
  readonly #seen = new Set<string>();

  add(secret: string | undefined): void {
    if (!secret || secret.length < SHORTEST_CUT || this.#seen.has(secret)) return;
    this.#seen.add(secret);
    const bytes = Buffer.from(secret, "utf8");
    const forms = [
      secret,
      encodeURIComponent(secret),
      new URLSearchParams([["k", secret]]).toString().slice(2),
      JSON.stringify(secret).slice(1, -1),
      withoutPadding(bytes.toString("base64")),
      bytes.toString("base64url"),
    ];
    for (const form of forms) if (!this.#forms.includes(form)) this.#forms.push(form);
    this.#forms.sort((a, b) => b.length - a.length);
  }

  /** `text` with every known secret cut out. */
  cut(text: string): string {
    let out = text;
    for (const form of this.#forms) if (out.includes(form)) out = out.replaceAll(form, REDACTED);
    return out;
  }

  clear(): void {
    this.#forms = [];
    this.#seen.clear();
  }
}

/** A deep, frozen copy of a parsed JSON value with secret fields replaced and known secrets cut. */
export function scrubJson(value: unknown, secrets: KnownSecrets): unknown {
  if (typeof value === "string") return secrets.cut(value);
  if (Array.isArray(value)) return Object.freeze(value.map((v) => scrubJson(v, secrets)));
  if (typeof value !== "object" || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    copy[secrets.cut(key)] = isSecretName(key) && v !== null && v !== undefined ? REDACTED : scrubJson(v, secrets);
  }
  return Object.freeze(copy);
}

/** A form-encoded text (a body or a query) with secret fields replaced and known secrets cut. */
export function scrubForm(text: string, secrets: KnownSecrets): string {
  const params = new URLSearchParams(text);
  const out = new URLSearchParams();
  for (const [key, value] of params) out.append(key, isSecretName(key) ? REDACTED : value);
  return secrets.cut(out.toString());
}

/** Every value of every query parameter, in order, secrets out, frozen. */
export function scrubQuery(
  search: URLSearchParams,
  secrets: KnownSecrets,
): Readonly<Record<string, readonly string[]>> {
  const query: Record<string, string[]> = {};
  for (const [rawKey, value] of search) {
    const key = secrets.cut(rawKey);
    query[key] = [...(query[key] ?? []), isSecretName(rawKey) ? REDACTED : secrets.cut(value)];
  }
  for (const values of Object.values(query)) Object.freeze(values);
  return Object.freeze(query);
}

/** Base64 without its `=` padding (a loop: a `/=+$/` backtracks on a run of `=` in caller text). */
function withoutPadding(text: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === "=") end--;
  return text.slice(0, end);
}
