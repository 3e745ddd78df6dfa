/**
 * Vendor strings (paths, names, values, versions) on their way into Markdown that GitHub renders
 * and a package ships: the pull request body, the CHANGELOG draft, the title, the commit message.
 * They are data: each one goes into a code span or a fenced block, where CommonMark and GFM
 * interpret nothing (no HTML or comment, no link, autolink, image, emphasis or heading) and
 * GitHub neither mentions (`@team`) nor links references (`#12`, a SHA); line breaks and other
 * invisible characters are spelled out first, so a string cannot end its line, its span or its
 * list item. Our own words stay plain around them.
 */
import { isVersionToken } from "./vendor-input.ts";
import { visible } from "./visible-text.ts";

export { visible } from "./visible-text.ts";

/** An inline code span holding `text` verbatim (made visible, at most 300 characters). */
export function code(text: string): string {
  const shown = visible(text, 300);
  const longest = Math.max(0, ...Array.from(shown.matchAll(/`+/g), (m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  // A span that starts or ends with a backtick, or is blank, needs a space inside its fence.
  const pad = /^`|`$|^ *$/.test(shown) ? " " : "";
  return `${fence}${pad}${shown}${pad}${fence}`;
}

/** A fenced code block holding `text` verbatim: the fence is longer than any backtick run inside. */
export function fenced(text: string, info = ""): string {
  const shown = text
    .split("\n")
    .map((line) => visible(line))
    .join("\n");
  const longest = Math.max(0, ...Array.from(shown.matchAll(/`+/g), (m) => m[0].length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return `${fence}${info}\n${shown}\n${fence}`;
}

/**
 * A version as titles, headings and release notes print it, plainly: refused vendor files never
 * get this far (scripts/lib/vendor-input.ts), so anything but a plain token is named, not shown.
 */
export const versionText = (version: string | undefined): string =>
  version === undefined ? "?" : isVersionToken(version) ? version : "(not a plain version)";
