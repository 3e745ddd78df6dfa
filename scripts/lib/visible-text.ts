/**
 * Text from a vendor file as a message, a log line or Markdown may show it: characters that are
 * invisible or move the text around — controls (line breaks included), format characters (bidi
 * overrides, zero-width characters, soft hyphen, BOM), line and paragraph separators, lone
 * surrogates — are written out as `\uXXXX`, so a string stays on its line and shows what it holds.
 */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;

const spelled = (c: string) => {
  const point = c.codePointAt(0) ?? 0;
  return point > 0xffff ? `\\u{${point.toString(16)}}` : `\\u${point.toString(16).padStart(4, "0")}`;
};

/** `text` with every hidden character spelled out, and at most `max` characters (an ellipsis ends a cut). */
export function visible(text: string, max = Number.POSITIVE_INFINITY): string {
  const chars = Array.from(text.replace(HIDDEN, spelled));
  return chars.length > max ? `${chars.slice(0, max - 1).join("")}…` : chars.join("");
}
