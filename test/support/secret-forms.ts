/**
 * Finds a secret in text in any form it takes there: as is, JSON-escaped (also with `\/` and with
 * every non-ASCII character as `\uXXXX`, as Python's json.dumps writes it), percent-encoded (either
 * hex case, `+` for spaces as forms do), HTML-escaped, and base64 or base64url, alone or inside a
 * larger base64 text at any alignment (a token inside a base64 JSON blob, `Basic
 * base64(username:password)`).
 *
 * Written independently of src/internal/redact.ts: the tests must not ask the redactor what to look
 * for. The base64 check decodes every base64-looking run of the text at each of its four offsets
 * and searches the bytes, so it finds an embedded secret without knowing how it was embedded.
 */

/** The plain-text forms of `secret` (base64 is found by decoding instead). */
function textForms(secret: string): string[] {
  const forms = new Set<string>([secret]);
  const json = JSON.stringify(secret).slice(1, -1);
  forms.add(json);
  forms.add(json.replaceAll("/", "\\/"));
  const ascii = [...json]
    .map((c) => {
      const code = c.codePointAt(0) ?? 0;
      if (code < 0x7f) return c;
      // JSON writes astral characters as a surrogate pair of \u escapes.
      return [...String.fromCodePoint(code)].map((u) => `\\u${u.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");
    })
    .join("");
  for (const x of [ascii, ascii.replace(/\\u([0-9a-f]{4})/g, (_m, h: string) => `\\u${h.toUpperCase()}`)]) forms.add(x);
  try {
    const uri = encodeURIComponent(secret);
    forms.add(uri);
    forms.add(uri.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()));
    forms.add(uri.replaceAll("%20", "+"));
  } catch {
    // a lone surrogate has no percent-encoding
  }
  const form = new URLSearchParams([["k", secret]]).toString().slice(2);
  forms.add(form);
  forms.add(form.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()));
  // Latin-1 percent-encoding and %uXXXX, as the legacy escape() and old form encoders write it
  const legacy = Array.from(secret, (c) => {
    const code = c.charCodeAt(0);
    if (/[A-Za-z0-9@*_+\-./]/.test(c)) return c;
    return code < 256
      ? `%${code.toString(16).toUpperCase().padStart(2, "0")}`
      : `%u${code.toString(16).toUpperCase().padStart(4, "0")}`;
  }).join("");
  forms.add(legacy);
  // …and every character but letters and digits encoded (`.`, `-`, `_`, `~` too), in either hex case.
  const strict = Array.from(secret, (c) => {
    const code = c.charCodeAt(0);
    if (/[A-Za-z0-9]/.test(c)) return c;
    return code < 256 ? `%${code.toString(16).padStart(2, "0")}` : `%u${code.toString(16).padStart(4, "0")}`;
  }).join("");
  forms.add(strict);
  forms.add(strict.replace(/%u?[0-9a-f]+/g, (m) => m.toUpperCase().replace("%U", "%u")));
  try {
    forms.add(encodeURIComponent(encodeURIComponent(secret)));
  } catch {
    // lone surrogate
  }
  const hex = Buffer.from(secret, "utf8").toString("hex");
  forms.add(hex);
  forms.add(hex.toUpperCase());
  const html = secret
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
  forms.add(html);
  forms.add(html.replaceAll("&quot;", "&#34;").replaceAll("&#39;", "&#x27;"));
  return [...forms];
}

const B64_RUN = /[A-Za-z0-9+/_-]{4,}={0,2}/g;

/** Whether `text` holds `secret` in base64 or base64url, at any alignment. */
function inBase64(text: string, secret: string): boolean {
  const needle = Buffer.from(secret, "utf8");
  for (const match of text.matchAll(B64_RUN)) {
    const run = match[0].replace(/=+$/, "").replaceAll("-", "+").replaceAll("_", "/");
    for (let offset = 0; offset < 4; offset++) {
      const part = run.slice(offset);
      if (part.length < 2) break;
      const bytes = Buffer.from(part, "base64");
      if (bytes.includes(needle)) return true;
    }
  }
  return false;
}

/** Where a secret shows in `text`, in any form; undefined when it does not. */
export function findSecret(text: string, secret: string): string | undefined {
  const variants = new Set([secret, secret.normalize("NFC"), secret.normalize("NFD")]);
  for (const variant of variants) {
    const found = findForm(text, variant);
    if (found) return found;
  }
  return undefined;
}

function findForm(text: string, secret: string): string | undefined {
  for (const form of textForms(secret)) {
    const at = text.indexOf(form);
    if (at >= 0)
      return `${text.slice(Math.max(0, at - 60), at)}<SECRET>${text.slice(at + form.length, at + form.length + 60)}`;
  }
  // Base64 of a short secret would match by chance in any long base64 run; 4+ bytes are distinctive.
  if (Buffer.byteLength(secret) >= 3 && inBase64(text, secret)) return `${text.slice(0, 120)}… (base64)`;
  return undefined;
}

/** The forms a server could echo a secret in, for a test server to send back. */
export function echoForms(secret: string): Record<string, string> {
  const b64 = Buffer.from(secret, "utf8").toString("base64");
  return {
    raw: secret,
    url: encodeURIComponent(secret),
    form: new URLSearchParams([["k", secret]]).toString().slice(2),
    base64: b64,
    base64url: Buffer.from(secret, "utf8").toString("base64url"),
    // embedded at offsets 1 and 2 of a larger base64 text
    embedded1: Buffer.from(`{"t":"${secret}"}`, "utf8").toString("base64"),
    embedded2: Buffer.from(`x{"t":"${secret}"}`, "utf8").toString("base64url"),
    html: secret.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;"),
    nfd: secret.normalize("NFD"),
    nfdUrl: encodeURIComponent(secret.normalize("NFD")),
    twiceEncoded: encodeURIComponent(encodeURIComponent(secret)),
    latin1: Array.from(secret, (c) =>
      /[A-Za-z0-9]/.test(c) ? c : `%${c.charCodeAt(0).toString(16).padStart(2, "0")}`,
    ).join(""),
    hex: Buffer.from(secret, "utf8").toString("hex"),
  };
}

/**
 * Characters whose base64 holds both `+` and `/` at each of base64's three alignments (`~~~` is
 * `fn5+`, `???` is `Pz8/`). A test secret that carries them differs in base64 and base64url,
 * alone and embedded, so a redactor that dropped either form fails a test; one without them is
 * the same text in both, and dropping one passes unseen.
 */
export const EVERY_ENCODING = "~~~???";

/** Whether `secret`'s base64 and base64url differ at every alignment (alone and inside larger base64). */
export function differsInEveryEncoding(secret: string): boolean {
  const n = Buffer.byteLength(secret);
  return [0, 1, 2].every((k) => {
    const bytes = Buffer.concat([Buffer.alloc(k, 0x41), Buffer.from(secret)]);
    const part = (b64: string) => b64.slice(Math.ceil((8 * k) / 6), Math.floor((8 * (k + n)) / 6));
    return part(bytes.toString("base64")) !== part(bytes.toString("base64url"));
  });
}
