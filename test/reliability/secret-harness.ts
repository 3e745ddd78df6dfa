/**
 * Secret scan for the reliability suite. Every test of the suite hands
 * the harness what the client produced — each error (its message, String(), stack,
 * JSON.stringify, supportReport(), and the same for each cause) and each logger line — and the
 * suite's afterAll fails if any of it contains a token or password that was in use.
 *
 * test/unit/secrets.test.ts drives every error family once against an echoing server; this
 * harness applies the same scan to everything the much larger reliability suite produces.
 */
import { isAudienceError, type Logger } from "../../src/index.ts";
import { findSecret } from "../support/secret-forms.ts";

export interface SecretHarness {
  /** Pass as the client's `logger`: every line is kept for the scan. */
  readonly logger: Required<Logger>;
  /** Keeps everything an error can show. Returns the error, for chaining. */
  capture<E>(error: E): E;
  /** Secrets to look for (tokens as they are issued, passwords). */
  addSecrets(...secrets: readonly string[]): void;
  /** How much was collected, for the figures. */
  counts(): { errors: number; supportReports: number; logLines: number; texts: number; secrets: number };
  /** Texts that contain a secret, each shortened around the secret (which is masked here). */
  leaks(): string[];
}

const MAX_CAUSE_DEPTH = 8;

export function createSecretHarness(): SecretHarness {
  const texts: string[] = [];
  const secrets = new Set<string>();
  let errors = 0;
  let supportReports = 0;
  let logLines = 0;

  const line =
    (level: string) =>
    (message: string, details?: Record<string, unknown>): void => {
      logLines++;
      texts.push(`${level} ${message} ${safeJson(details)}`);
    };

  return {
    logger: { debug: line("debug"), info: line("info"), warn: line("warn") },
    capture(error) {
      errors++;
      let e: unknown = error;
      for (let depth = 0; e !== undefined && e !== null && depth < MAX_CAUSE_DEPTH; depth++) {
        const err = e as Partial<Error>;
        texts.push(safeString(e), String(err.message ?? ""), String(err.stack ?? ""), safeJson(e));
        if (isAudienceError(e)) {
          supportReports++;
          texts.push(e.supportReport());
        }
        e = (e as { cause?: unknown }).cause;
      }
      return error;
    },
    addSecrets(...values) {
      for (const v of values) if (v) secrets.add(v);
    },
    counts: () => ({ errors, supportReports, logLines, texts: texts.length, secrets: secrets.size }),
    leaks() {
      // Every form a secret takes in text (escaped, percent-encoded, base64 at any alignment…),
      // not only the raw value: test/support/secret-forms.ts.
      const found: string[] = [];
      for (const text of texts) {
        for (const secret of secrets) {
          const where = findSecret(text, secret);
          if (where) found.push(`<SECRET ${JSON.stringify(secret.slice(0, 6))}…> in …${where}…`);
        }
      }
      return found;
    },
  };
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch (error) {
    return `<unserializable: ${String(error)}>`;
  }
}

function safeString(value: unknown): string {
  try {
    return String(value);
  } catch {
    return "<unprintable>";
  }
}
