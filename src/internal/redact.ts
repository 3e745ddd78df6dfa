/**
 * Redaction by value: every secret the client holds (tokens, password) is replaced wherever it
 * appears — messages, bodies, URLs, headers, request ids — in every form it takes in text, not
 * only under the header names one expects and not only as the raw value.
 *
 * A server echoes what it received in its own encoding: JSON escapes `"` and `\` (and Python's
 * json.dumps writes every non-ASCII character as `\uXXXX`), query strings and forms percent-encode
 * (either hex case, `+` for a space, sometimes twice, in Latin-1 or as `%uXXXX`), HTML pages escape
 * entities, debug dumps write hex, and headers or blobs carry base64 or base64url — of the secret
 * alone, of `username:password` (HTTP Basic), or of a larger text the secret sits in, at any of
 * base64's three alignments. Each of these is taken of the secret as given and in Unicode's
 * composed and decomposed forms (NFC, NFD), which a server may normalize to. Each secret is expanded into those forms
 * once, when it is set, and all forms of all secrets are matched by one regular expression in one
 * pass (so a mask is never matched again, and a longer form wins over a shorter one).
 *
 * Secrets are kept per slot (password, access, refresh, id): setting a slot keeps the values it
 * replaces for as long as they can appear — while a response to an attempt sent with them may
 * still arrive (`retainMs`), and a token until its own expiry (`validUntil`): a token refreshed
 * away is still a valid bearer until then, whatever the number of refreshes since — and forgets
 * them after. Memory is bounded by `maxRetiredChars` (the characters of the retired forms of a
 * slot): past it the generations retired first are forgotten first. With tokens of a few KB that
 * is hundreds of generations, far more than the refreshes a token's lifetime sees (a long token
 * is held by its first characters only, see {@link LONG_SECRET}).
 */
import { MASK, type Masks, maskedHeaders } from "./masks.ts";
import { terminalSafe } from "./terminal-text.ts";

/**
 * Shortest base64 fragment masked: a secret of one byte leaves nothing at some alignments. Short
 * passwords give short fragments, which may mask a few characters of unrelated base64 text too:
 * a secret is never shown, at the cost of some readability for very short passwords.
 */
const MIN_FRAGMENT = 2;

export type SecretSlot = "password" | "access" | "refresh" | "id";

/** How long replaced secrets stay masked (internal/redact.ts). */
export interface RetentionOptions {
  /**
   * Ms a replaced value stays masked after its replacement: as long as an attempt sent with it can
   * still answer (the client passes its attempt timeout and a margin). 0: one generation only.
   * @default 0
   */
  readonly retainMs?: number;
  /**
   * Until when (monotonic ms) a secret can still be used, when it says so (a JWT's `exp`, judged in
   * the server's time): a replaced value stays masked until then too.
   */
  readonly validUntil?: (secret: string) => number | undefined;
  /** Characters of retired forms kept per slot at most (the memory bound). @default 8 Mi */
  readonly maxRetiredChars?: number;
  /** Monotonic ms. @default performance.now */
  readonly now?: () => number;
}

interface Retired {
  readonly forms: readonly string[];
  /** Masked until then (monotonic ms). */
  readonly until: number;
}

interface Held {
  readonly current: readonly string[];
  /** The current values, asked until when they can be used only once they are replaced (a
   * token's expiry means decoding it, which a hostile multi-megabyte IdToken makes costly). */
  readonly values: ReadonlyArray<string | undefined>;
  readonly retired: readonly Retired[];
}

const charsOf = (forms: readonly string[]): number => forms.reduce((n, f) => n + f.length, 0);

export class Redactor implements Masks {
  readonly #slots = new Map<SecretSlot, Held>();
  /** One pattern over every form of every secret; null when there is none, undefined when stale. */
  #pattern: RegExp | null | undefined = null;
  readonly #retainMs: number;
  readonly #maxRetiredChars: number;
  readonly #validUntil: (secret: string) => number | undefined;
  readonly #now: () => number;

  constructor(options: RetentionOptions = {}) {
    this.#retainMs = options.retainMs ?? 0;
    this.#maxRetiredChars = options.maxRetiredChars ?? 8 * 1024 * 1024;
    this.#validUntil = options.validUntil ?? (() => undefined);
    this.#now = options.now ?? (() => performance.now());
  }

  /**
   * Holds `values` (the secret and, for the password, `username:password`) under `slot`. A
   * replaced value stays masked while a response to an attempt sent with it may still arrive
   * (`retainMs`) and until its own expiry (`validUntil`), the previous generation always; then it
   * is forgotten. Past `maxRetiredChars` the generations retired first go first.
   */
  set(slot: SecretSlot, ...values: ReadonlyArray<string | undefined>): void {
    const forms = values.flatMap((v) => (v ? formsOf(v) : []));
    const held = this.#slots.get(slot);
    if (held && sameForms(held.current, forms)) return;
    const now = this.#now();
    const retired = held
      ? [
          { forms: held.current, until: Math.max(now + this.#retainMs, this.#latestValidity(held.values)) },
          ...held.retired,
        ]
      : [];
    // The newest replaced generation is always kept; older ones while their time lasts.
    const kept: Retired[] = [];
    let chars = 0;
    for (const [i, r] of retired.entries()) {
      if (i > 0 && r.until <= now) continue;
      chars += charsOf(r.forms);
      if (i > 0 && chars > this.#maxRetiredChars) break;
      kept.push(r);
    }
    this.#slots.set(slot, { current: forms, values, retired: kept });
    this.#pattern = undefined;
  }

  /** The latest time until which one of `values` can be used (monotonic ms), 0 when none says. */
  #latestValidity(values: ReadonlyArray<string | undefined>): number {
    let latest = 0;
    for (const v of values) if (v) latest = Math.max(latest, this.#validUntil(v) ?? 0);
    return latest;
  }

  /** How many forms are held (for tests of the bound). */
  get size(): number {
    let n = 0;
    for (const { current, retired } of this.#slots.values())
      n += current.length + retired.reduce((sum, r) => sum + r.forms.length, 0);
    return n;
  }

  text(input: string): string {
    const pattern = this.#compiled();
    return pattern ? input.replace(pattern, MASK) : input;
  }

  /**
   * Text for humans built from a server's or a caller's value (a request id, a content type, a
   * message): secrets masked, then every control and bidi character written as `\uXXXX`
   * (internal/terminal-text.ts), whatever object will hold it — a report, a span, an error.
   */
  shown(input: string): string {
    return terminalSafe(this.text(input));
  }

  /** Copy of a JSON-like value with every secret masked, in string values and in keys. */
  value<T>(input: T): T {
    if (input === undefined || input === null) return input;
    if (typeof input === "string") return this.text(input) as T;
    if (typeof input !== "object") return input;
    if (!this.#compiled()) return input;
    try {
      const text = JSON.stringify(input, (_key, v: unknown) => {
        if (typeof v === "string") return this.text(v);
        if (v && typeof v === "object" && !Array.isArray(v)) {
          const out: Record<string, unknown> = {};
          for (const [k, x] of Object.entries(v)) out[this.text(k)] = x;
          return out;
        }
        return v;
      });
      return (text === undefined ? undefined : JSON.parse(text)) as T;
    } catch {
      return MASK as T; // cyclic or too deep to copy: nothing of it is shown
    }
  }

  headers(headers: Headers): Record<string, string> {
    return maskedHeaders(headers, (value) => this.text(value));
  }

  #compiled(): RegExp | null {
    if (this.#pattern !== undefined) return this.#pattern;
    const all = new Set<string>();
    for (const { current, retired } of this.#slots.values()) {
      for (const f of current) all.add(f);
      for (const r of retired) for (const f of r.forms) all.add(f);
    }
    // Longest first, so a longer form wins over a shorter one it starts with (escaping is per
    // character, so a form that starts another has a source that starts the other's).
    const sorted = [...all].sort((a, b) => b.length - a.length);
    this.#pattern = sorted.length ? new RegExp(sorted.join("|"), "g") : null;
    return this.#pattern;
  }
}

const sameForms = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((f, i) => f === b[i]);

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");

const lowerHex = (s: string): string => s.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());

/**
 * A token longer than this is masked by its beginning. A sign-in body is the server's, and a
 * hostile or broken one (an IdToken with 200 000 groups, a 4 MB claim) would otherwise cost
 * seconds of encoding and a pattern of tens of MB, on every sign-in.
 */
const LONG_SECRET = 4096;
/** Characters of a long token whose forms are matched (a multiple of 3: base64 then needs no padding). */
const LONG_PREFIX = 255;
/** The characters of a token (JWT, opaque base64): those of a long token masked by its beginning. */
const TOKEN_CHARS = /^[A-Za-z0-9._~+/=-]+$/;
/**
 * Every character any form of such a token can hold (itself, base64/base64url, hex, JSON's `\/`,
 * percent-encoding): after the forms of its beginning, the rest of the run is masked too.
 */
const TOKEN_FORM_RUN = "[A-Za-z0-9._~+/=\\\\%-]*";

/**
 * Every form `secret` can take in text (see the module comment), as sources of a regular
 * expression. A long token is matched by the forms of its first {@link LONG_PREFIX} characters
 * followed by the rest of the run: linear in the token's length, bounded in memory, and a secret
 * is still never shown (at worst a few characters after it are masked with it).
 */
function formsOf(secret: string): string[] {
  if (secret.length > LONG_SECRET && TOKEN_CHARS.test(secret)) {
    return plainForms(secret.slice(0, LONG_PREFIX)).map((f) => escapeRegExp(f) + TOKEN_FORM_RUN);
  }
  return plainForms(secret).map(escapeRegExp);
}

function plainForms(secret: string): string[] {
  const forms = new Set<string>();
  // A server may normalize Unicode (é as one code point or as e + U+0301) before echoing it.
  const variants = new Set([secret, secret.normalize("NFC"), secret.normalize("NFD")]);
  for (const variant of variants) for (const f of textForms(variant)) forms.add(f);
  forms.delete("");
  return [...forms];
}

function textForms(secret: string): string[] {
  const forms = new Set<string>([secret]);
  // JSON string content, also with `\/` (PHP) and with non-ASCII as \uXXXX in either hex case.
  const json = JSON.stringify(secret).slice(1, -1);
  const ascii = json.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  for (const f of [json, ascii, ascii.replace(/\\u([0-9a-f]{4})/g, (_m, h: string) => `\\u${h.toUpperCase()}`)]) {
    forms.add(f);
    forms.add(f.replaceAll("/", "\\/"));
  }
  // Percent-encoding: URI components, forms (`+` for a space), encoded twice, Latin-1 and `%uXXXX`
  // (the legacy `escape`), each in either hex case.
  const legacy = escape(secret);
  // …and with the characters `escape` keeps encoded too (every one but letters and digits).
  const percent: string[] = [
    legacy,
    legacy.replace(/[@*_+\-./]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`),
  ];
  try {
    const uri = encodeURIComponent(secret);
    percent.push(
      uri,
      encodeURI(secret),
      new URLSearchParams([["", secret]]).toString().slice(1),
      encodeURIComponent(uri),
    );
  } catch {
    // a lone surrogate has no UTF-8 percent-encoding, so it cannot appear that way either
  }
  for (const f of percent) {
    forms.add(f);
    forms.add(lowerHex(f));
  }
  // HTML entities, named and numeric.
  const html = secret.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
  forms.add(html.replaceAll('"', "&quot;").replaceAll("'", "&#39;"));
  forms.add(html.replaceAll('"', "&#34;").replaceAll("'", "&#x27;"));
  // base64 and base64url, of the secret alone and inside larger text; and hex, either case.
  const bytes = new TextEncoder().encode(secret);
  for (const f of base64Forms(bytes)) forms.add(f);
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  forms.add(hex);
  forms.add(hex.toUpperCase());
  return [...forms];
}

function base64Forms(bytes: Uint8Array): string[] {
  const whole = toBase64(bytes);
  const out = [whole, whole.replace(/={1,2}$/, "")]; // base64 pads with at most two; bounded, so linear
  // With k bytes before it, the characters that depend on the secret's bytes alone run from
  // ceil(8k/6) to floor(8(k+n)/6): those are the same whatever surrounds it.
  for (let k = 0; k < 3; k++) {
    const shifted = new Uint8Array(k + bytes.length);
    shifted.set(bytes, k);
    const fragment = toBase64(shifted).slice(Math.ceil((8 * k) / 6), Math.floor((8 * (k + bytes.length)) / 6));
    if (fragment.length >= MIN_FRAGMENT) out.push(fragment);
  }
  return out.flatMap((f) => [f, f.replaceAll("+", "-").replaceAll("/", "_")]);
}

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
