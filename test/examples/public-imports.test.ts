/**
 * The examples are templates a partner copies into an app: each imports only what an app can
 * import — the package's public entry points (its `exports`), other packages, Node's built-ins and
 * the example's own files — never the repository's src/, scripts/, test/ or generated/.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, normalize } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { name: string; exports: Record<string, unknown> };
const entries = new Set(Object.keys(pkg.exports).map((k) => (k === "." ? pkg.name : `${pkg.name}/${k.slice(2)}`)));

const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );

function specifiers(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier)
      out.push((node.moduleSpecifier as ts.StringLiteral).text);
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteral(arg)) out.push(arg.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

function issue(file: string, spec: string): string | undefined {
  if (spec.startsWith(".")) {
    const target = normalize(join(file, "..", spec));
    return target.startsWith(`examples/`) ? undefined : `reaches ${target}, outside examples/`;
  }
  if (spec.startsWith("node:")) return undefined;
  if (spec === pkg.name || spec.startsWith(`${pkg.name}/`))
    return entries.has(spec) ? undefined : "is not one of the package's entry points";
  return undefined; // another package (ioredis, react, …)
}

describe("the examples import only what an app can import", () => {
  const all = files("examples");
  it("finds the examples", () => expect(all.length).toBeGreaterThanOrEqual(5));
  for (const file of all) {
    it(file, () => {
      const found = specifiers(file).flatMap((spec) => {
        const why = issue(file, spec);
        return why ? [`${spec} ${why}`] : [];
      });
      expect(found).toEqual([]);
    });
  }
});
