/**
 * Translates src/coordination/pacing-rules.ts to Lua for the Redis coordinator's scripts, so that
 * the pacing rules are written once. Only the subset that file keeps to is accepted (numbers,
 * 0/1 flags, `Math.*`, `if`, counted `for` and `while` loops, arrays of numbers, functions declared
 * before their callers); anything else fails generation with the construct and its line, instead
 * of producing Lua that means something else. Functions whose doc says "(TypeScript only" are left
 * out (Lua's load() fills a new state itself).
 */
import ts from "typescript";

const MATH = new Set(["max", "min", "floor", "ceil"]);
const BINARY: Partial<Record<ts.SyntaxKind, string>> = {
  [ts.SyntaxKind.PlusToken]: "+",
  [ts.SyntaxKind.MinusToken]: "-",
  [ts.SyntaxKind.AsteriskToken]: "*",
  [ts.SyntaxKind.SlashToken]: "/",
  [ts.SyntaxKind.PercentToken]: "%",
  [ts.SyntaxKind.AsteriskAsteriskToken]: "^",
  [ts.SyntaxKind.LessThanToken]: "<",
  [ts.SyntaxKind.LessThanEqualsToken]: "<=",
  [ts.SyntaxKind.GreaterThanToken]: ">",
  [ts.SyntaxKind.GreaterThanEqualsToken]: ">=",
  [ts.SyntaxKind.EqualsEqualsEqualsToken]: "==",
  [ts.SyntaxKind.ExclamationEqualsEqualsToken]: "~=",
  [ts.SyntaxKind.AmpersandAmpersandToken]: "and",
  [ts.SyntaxKind.BarBarToken]: "or",
  // Only ever `array[i] ?? 0`: nil or a number, and a number is true in Lua.
  [ts.SyntaxKind.QuestionQuestionToken]: "or",
};
const COMPOUND: Partial<Record<ts.SyntaxKind, string>> = {
  [ts.SyntaxKind.PlusEqualsToken]: "+",
  [ts.SyntaxKind.MinusEqualsToken]: "-",
};

/** The Lua of `source`'s functions and numeric constants (its state's fields keep their names). */
export function emitLua(source: string): string {
  const file = ts.createSourceFile("pacing-rules.ts", source, ts.ScriptTarget.Latest, true);
  const fail = (node: ts.Node, what: string): never => {
    const line = file.getLineAndCharacterOfPosition(node.getStart()).line + 1;
    throw new Error(`emit-lua: ${what} at line ${line}: ${node.getText().slice(0, 80)}`);
  };

  const expr = (node: ts.Expression): string => {
    if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isNonNullExpression(node)) {
      return expr(node.expression);
    }
    if (ts.isNumericLiteral(node)) return String(Number(node.text));
    if (node.kind === ts.SyntaxKind.TrueKeyword) return "true";
    if (node.kind === ts.SyntaxKind.FalseKeyword) return "false";
    if (ts.isIdentifier(node)) return node.text === "undefined" ? "nil" : node.text;
    if (ts.isPrefixUnaryExpression(node)) {
      if (node.operator === ts.SyntaxKind.MinusToken) return `(-${expr(node.operand)})`;
      if (node.operator === ts.SyntaxKind.ExclamationToken) return `(not ${expr(node.operand)})`;
      return fail(node, "unsupported prefix operator");
    }
    if (ts.isBinaryExpression(node)) {
      const op = BINARY[node.operatorToken.kind];
      if (!op) return fail(node, "unsupported operator");
      return `(${expr(node.left)} ${op} ${expr(node.right)})`;
    }
    // `c ? a : b` is `c and a or b`: right as long as `a` is never nil or false (numbers here).
    if (ts.isConditionalExpression(node)) {
      return `(${expr(node.condition)} and ${expr(node.whenTrue)} or ${expr(node.whenFalse)})`;
    }
    if ((ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) && node.questionDotToken) {
      return fail(node, "optional chaining");
    }
    if (ts.isPropertyAccessExpression(node)) {
      const name = node.name.text;
      if (name === "length") return `#${expr(node.expression)}`;
      return `${expr(node.expression)}.${name}`;
    }
    if (ts.isElementAccessExpression(node)) {
      return `${expr(node.expression)}[${expr(node.argumentExpression)} + 1]`;
    }
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const args = node.arguments.map(expr).join(", ");
      if (ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression)) {
        if (callee.expression.text === "Math" && MATH.has(callee.name.text)) return `math.${callee.name.text}(${args})`;
        return fail(node, "unsupported method call");
      }
      if (ts.isIdentifier(callee)) return `${callee.text}(${args})`;
    }
    return fail(node, `unsupported expression (${ts.SyntaxKind[node.kind]})`);
  };

  /** Assignments, ++, +=, and an array's push, shift and splice(0, n), as Lua statements. */
  const effect = (node: ts.Expression): string[] => {
    if (ts.isBinaryExpression(node)) {
      const kind = node.operatorToken.kind;
      if (kind === ts.SyntaxKind.EqualsToken) return [`${expr(node.left)} = ${expr(node.right)}`];
      const op = COMPOUND[kind];
      if (op) return [`${expr(node.left)} = ${expr(node.left)} ${op} ${expr(node.right)}`];
    }
    if (
      (ts.isPostfixUnaryExpression(node) || ts.isPrefixUnaryExpression(node)) &&
      node.operator === ts.SyntaxKind.PlusPlusToken
    ) {
      return [`${expr(node.operand)} = ${expr(node.operand)} + 1`];
    }
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const list = expr(node.expression.expression);
      if (node.expression.name.text === "push") return node.arguments.map((a) => `table.insert(${list}, ${expr(a)})`);
      if (node.expression.name.text === "shift" && node.arguments.length === 0) return [`table.remove(${list}, 1)`];
      const [from, count] = node.arguments;
      if (node.expression.name.text === "splice" && from?.getText() === "0" && count && ts.isNumericLiteral(count)) {
        return Array.from({ length: Number(count.text) }, () => `table.remove(${list}, 1)`);
      }
    }
    if (ts.isCallExpression(node)) return [expr(node)];
    return fail(node, "unsupported statement");
  };

  const block = (node: ts.Statement, depth: number): string[] =>
    (ts.isBlock(node) ? [...node.statements] : [node]).flatMap((s) => statement(s, depth));

  const statement = (node: ts.Statement, depth: number): string[] => {
    const pad = "  ".repeat(depth);
    if (ts.isVariableStatement(node)) {
      return node.declarationList.declarations.map((d) => {
        if (!ts.isIdentifier(d.name)) return fail(d, "a destructuring declaration");
        return `${pad}local ${d.name.text} = ${d.initializer ? expr(d.initializer) : "nil"}`;
      });
    }
    if (ts.isExpressionStatement(node)) return effect(node.expression).map((line) => pad + line);
    if (ts.isReturnStatement(node)) return [`${pad}return${node.expression ? ` ${expr(node.expression)}` : ""}`];
    if (ts.isIfStatement(node)) {
      const lines = [`${pad}if ${expr(node.expression)} then`, ...block(node.thenStatement, depth + 1)];
      let rest = node.elseStatement;
      while (rest && ts.isIfStatement(rest)) {
        lines.push(`${pad}elseif ${expr(rest.expression)} then`, ...block(rest.thenStatement, depth + 1));
        rest = rest.elseStatement;
      }
      if (rest) lines.push(`${pad}else`, ...block(rest, depth + 1));
      return [...lines, `${pad}end`];
    }
    if (ts.isWhileStatement(node)) {
      return [`${pad}while ${expr(node.expression)} do`, ...block(node.statement, depth + 1), `${pad}end`];
    }
    if (ts.isForStatement(node)) {
      // A counted loop as `do local i = …; while … do …; i = i + … end end` (its step after the body).
      const init = node.initializer;
      if (!init || !ts.isVariableDeclarationList(init) || !node.condition || !node.incrementor) {
        return fail(node, "a for loop that is not counted");
      }
      const inner = "  ".repeat(depth + 1);
      return [
        `${pad}do`,
        ...init.declarations.map((d) =>
          d.initializer
            ? `${inner}local ${d.name.getText()} = ${expr(d.initializer)}`
            : fail(d, "a loop counter without a start"),
        ),
        `${inner}while ${expr(node.condition)} do`,
        ...block(node.statement, depth + 2),
        ...effect(node.incrementor).map((line) => `${inner}  ${line}`),
        `${inner}end`,
        `${pad}end`,
      ];
    }
    return fail(node, `unsupported statement (${ts.SyntaxKind[node.kind]})`);
  };

  const out: string[] = [];
  for (const node of file.statements) {
    if (ts.isImportDeclaration(node) || ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) continue;
    if (ts.isVariableStatement(node)) {
      for (const d of node.declarationList.declarations) {
        // Numeric constants only.
        if (d.initializer && ts.isNumericLiteral(d.initializer) && ts.isIdentifier(d.name)) {
          out.push(`local ${d.name.text} = ${expr(d.initializer)}`);
        }
      }
      continue;
    }
    if (ts.isFunctionDeclaration(node) && node.name && node.body) {
      if (/\(TypeScript only/.test(node.getFullText().slice(0, node.getStart() - node.getFullStart()))) continue;
      const params = node.parameters.map((p) => p.name.getText()).join(", ");
      out.push(`local function ${node.name.text}(${params})`, ...block(node.body, 1), "end");
      continue;
    }
    fail(node, "unsupported top-level statement");
  }
  return `${out.join("\n")}\n`;
}
