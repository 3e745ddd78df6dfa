/**
 * The size rules of src/ (docs/ARCHITECTURE.md): no function over 80 lines, no class over 250, no
 * file over 350. Prints every one over its limit; with --check, exits 1 when there is any.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";

const LIMITS = { function: 80, class: 250, file: 350 } as const;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path);
    return path.endsWith(".ts") ? [path] : [];
  });
}

function oversized(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const found: string[] = [];
  const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
  if (lines > LIMITS.file) found.push(`file ${file}: ${lines} lines (limit ${LIMITS.file})`);
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const lineOf = (position: number): number => source.getLineAndCharacterOfPosition(position).line + 1;
  const visit = (node: ts.Node): void => {
    const length = lineOf(node.getEnd()) - lineOf(node.getStart()) + 1;
    const where = `${file}:${lineOf(node.getStart())}`;
    if (ts.isClassLike(node) && length > LIMITS.class)
      found.push(`class ${node.name?.text ?? "(anonymous)"} ${where}: ${length} lines (limit ${LIMITS.class})`);
    if (ts.isFunctionLike(node) && "body" in node && node.body && length > LIMITS.function)
      found.push(`function ${nameOf(node)} ${where}: ${length} lines (limit ${LIMITS.function})`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function nameOf(node: ts.Node): string {
  const named = (node as { name?: ts.Node }).name;
  if (named) return named.getText();
  if (ts.isVariableDeclaration(node.parent) || ts.isPropertyAssignment(node.parent)) return node.parent.name.getText();
  return "(anonymous)";
}

const found = filesUnder("src").sort().flatMap(oversized);
console.log(found.length ? found.join("\n") : "every function, class and file of src/ is within its limit");
if (found.length && process.argv.includes("--check")) process.exitCode = 1;
