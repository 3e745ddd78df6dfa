/**
 * The documents a user reads: README.md stays short enough to scan (its deep parts live in docs/),
 * and every relative link in the Markdown files resolves, to a file and to a heading's anchor.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";

const root = process.cwd();
const markdown = [
  "README.md",
  "BENCHMARKS.md",
  "CHANGELOG.md",
  "test/README.md",
  ...readdirSync(join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");

function anchorsOf(file: string): Set<string> {
  const text = readFileSync(join(root, file), "utf8").replace(/^```[\s\S]*?^```/gm, "");
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1] ?? "")));
}

function linksOf(file: string): string[] {
  const text = readFileSync(join(root, file), "utf8").replace(/^```[\s\S]*?^```/gm, "");
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] ?? "").filter((t) => !/^[a-z]+:/i.test(t));
}

describe("documents", () => {
  it("README.md is at most 25 KB", () => {
    expect(readFileSync(join(root, "README.md")).byteLength).toBeLessThanOrEqual(25_000);
  });

  it.each(markdown)("every relative link of %s resolves", (file) => {
    const broken: string[] = [];
    for (const link of linksOf(file)) {
      const [path = "", anchor] = link.split("#");
      const target = path === "" ? file : normalize(join(dirname(file), decodeURIComponent(path)));
      if (!existsSync(join(root, target))) broken.push(`${link} (no ${target})`);
      else if (anchor !== undefined && target.endsWith(".md") && !anchorsOf(target).has(anchor))
        broken.push(`${link} (no heading #${anchor} in ${target})`);
    }
    expect(broken).toEqual([]);
  });
});
