/**
 * Redaction by value: every secret the client holds (tokens, password) is replaced wherever it
 * appears — messages, bodies, URLs, headers — not only under the header names one expects.
 */
const MASK = "[REDACTED]";
const SECRET_HEADERS = new Set(["authorization", "cookie", "set-cookie", "proxy-authorization"]);

export class Redactor {
  readonly #secrets = new Set<string>();

  /** Remembers a secret value; short values are ignored so that redaction cannot shred text. */
  add(value: string | undefined): void {
    if (value && value.length >= 4) this.#secrets.add(value);
  }

  text(input: string): string {
    let out = input;
    // Longest first, so a secret that contains another is masked whole.
    for (const secret of [...this.#secrets].sort((a, b) => b.length - a.length)) {
      if (out.includes(secret)) out = out.split(secret).join(MASK);
    }
    return out;
  }

  /** Deep copy of a JSON-like value with every secret masked. */
  value<T>(input: T): T {
    if (input === undefined || input === null) return input;
    if (typeof input === "string") return this.text(input) as T;
    if (typeof input !== "object") return input;
    try {
      return JSON.parse(this.text(JSON.stringify(input))) as T;
    } catch {
      return MASK as T;
    }
  }

  headers(headers: Headers): Record<string, string> {
    const out: Record<string, string> = {};
    headers.forEach((value, key) => {
      out[key] = SECRET_HEADERS.has(key.toLowerCase())
        ? value.startsWith("Bearer ")
          ? `Bearer ${MASK}`
          : MASK
        : this.text(value);
    });
    return out;
  }
}
