/**
 * Text for humans (messages, support reports, log lines, the demo's tables) often embeds what a
 * server or caller sent: a request id, an event name, a content type. Printed raw, such text can
 * drive the reader's terminal — ESC and C1 sequences clear the screen, set the title or write the
 * clipboard (OSC 52) — or reorder what is shown (bidi overrides, "Trojan Source"). Every such
 * character becomes a visible `\uXXXX` escape; everything else is left as it is.
 */

/** C0 controls, DEL, C1 controls, line and paragraph separators, bidi embeddings, overrides and isolates. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const unicodeEscape = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;

/**
 * `text` with every control character (C0 including CR, LF and tab; DEL; C1), line separator and
 * bidi control written as `\uXXXX`. One character class, no backtracking: linear in the length.
 */
export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, unicodeEscape);
}
