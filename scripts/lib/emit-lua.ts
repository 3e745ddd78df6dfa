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
  return new LuaEmitter(ts.createSourceFile("pacing-rules.ts", source, ts.ScriptTarget.Latest, true)).module();
}

class LuaEmitter {
  readonly #file: ts.SourceFile;

  constructor(file: ts.SourceFile) {
    this.#file = file;
  }

  module(): string {
    const out: string[] = [];
    for (const node of this.#file.statements) {
      if (ts.isImportDeclaration(node) || ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) continue;
      if (ts.isVariableStatement(node)) {
        for (const d of node.declarationList.declarations) {
          // Numeric constants only.
          if (d.initializer && ts.isNumericLiteral(d.initializer) && ts.isIdentifier(d.name)) {
            out.push(`local ${d.name.text} = ${this.expr(d.initializer)}`);
          }
        }
      } else if (ts.isFunctionDeclaration(node) && node.name && node.body) {
        if (/\(TypeScript only/.test(node.getFullText().slice(0, node.getStart() - node.getFullStart()))) continue;
        const params = node.parameters.map((p) => p.name.getText()).join(", ");
        out.push(`local function ${node.name.text}(${params})`, ...this.block(node.body, 1), "end");
      } else {
        this.fail(node, "unsupported top-level statement");
      }
    }
    return `${out.join("\n")}\n`;
  }

  fail(node: ts.Node, what: string): never {
    const line = this.#file.getLineAndCharacterOfPosition(node.getStart()).line + 1;
    throw new Error(`emit-lua: ${what} at line ${line}: ${node.getText().slice(0, 80)}`);
  }

  expr(node: ts.Expression): string {
    if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isNonNullExpression(node)) {
      return this.expr(node.expression);
    }
    if (ts.isNumericLiteral(node)) return String(Number(node.text));
    if (node.kind === ts.SyntaxKind.TrueKeyword) return "true";
    if (node.kind === ts.SyntaxKind.FalseKeyword) return "false";
    if (ts.isIdentifier(node)) return node.text === "undefined" ? "nil" : node.text;
    if (ts.isPrefixUnaryExpression(node)) {
      if (node.operator === ts.SyntaxKind.MinusToken) return `(-${this.expr(node.operand)})`;
      if (node.operator === ts.SyntaxKind.ExclamationToken) return `(not ${this.expr(node.operand)})`;
      return this.fail(node, "unsupported prefix operator");
    }
    if (ts.isBinaryExpression(node)) {
      const op = BINARY[node.operatorToken.kind];
      if (!op) return this.fail(node, "unsupported operator");
      return `(${this.expr(node.left)} ${op} ${this.expr(node.right)})`;
    }
    // `c ? a : b` is `c and a or b`: right as long as `a` is never nil or false (numbers here).
    if (ts.isConditionalExpression(node)) {
      return `(${this.expr(node.condition)} and ${this.expr(node.whenTrue)} or ${this.expr(node.whenFalse)})`;
    }
    return this.access(node);
  }

  /** Fields, array elements (1-based in Lua), `length`, and calls of `Math.*` and of the rules' functions. */
  access(node: ts.Expression): string {
    if ((ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) && node.questionDotToken) {
      return this.fail(node, "optional chaining");
    }
    if (ts.isPropertyAccessExpression(node)) {
      const name = node.name.text;
      return name === "length" ? `#${this.expr(node.expression)}` : `${this.expr(node.expression)}.${name}`;
    }
    if (ts.isElementAccessExpression(node)) {
      return `${this.expr(node.expression)}[${this.expr(node.argumentExpression)} + 1]`;
    }
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const args = node.arguments.map((a) => this.expr(a)).join(", ");
      if (ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression)) {
        if (callee.expression.text === "Math" && MATH.has(callee.name.text)) return `math.${callee.name.text}(${args})`;
        return this.fail(node, "unsupported method call");
      }
      if (ts.isIdentifier(callee)) return `${callee.text}(${args})`;
    }
    return this.fail(node, `unsupported expression (${ts.SyntaxKind[node.kind]})`);
  }

  /** Assignments, ++, +=, and an array's push, shift and splice(0, n), as Lua statements. */
  effect(node: ts.Expression): string[] {
    if (ts.isBinaryExpression(node)) {
      const kind = node.operatorToken.kind;
      const target = this.expr(node.left);
      if (kind === ts.SyntaxKind.EqualsToken) return [`${target} = ${this.expr(node.right)}`];
      const op = COMPOUND[kind];
      if (op) return [`${target} = ${target} ${op} ${this.expr(node.right)}`];
    }
    if (
      (ts.isPostfixUnaryExpression(node) || ts.isPrefixUnaryExpression(node)) &&
      node.operator === ts.SyntaxKind.PlusPlusToken
    ) {
      return [`${this.expr(node.operand)} = ${this.expr(node.operand)} + 1`];
    }
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const list = this.expr(node.expression.expression);
      const method = node.expression.name.text;
      const [from, count] = node.arguments;
      if (method === "push") return node.arguments.map((a) => `table.insert(${list}, ${this.expr(a)})`);
      if (method === "shift" && !from) return [`table.remove(${list}, 1)`];
      if (method === "splice" && from?.getText() === "0" && count && ts.isNumericLiteral(count)) {
        return Array.from({ length: Number(count.text) }, () => `table.remove(${list}, 1)`);
      }
    }
    if (ts.isCallExpression(node)) return [this.expr(node)];
    return this.fail(node, "unsupported statement");
  }

  block(node: ts.Statement, depth: number): string[] {
    return (ts.isBlock(node) ? [...node.statements] : [node]).flatMap((s) => this.statement(s, depth));
  }

  statement(node: ts.Statement, depth: number): string[] {
    const pad = "  ".repeat(depth);
    if (ts.isVariableStatement(node)) {
      return node.declarationList.declarations.map((d) => {
        if (!ts.isIdentifier(d.name)) return this.fail(d, "a destructuring declaration");
        return `${pad}local ${d.name.text} = ${d.initializer ? this.expr(d.initializer) : "nil"}`;
      });
    }
    if (ts.isExpressionStatement(node)) return this.effect(node.expression).map((line) => pad + line);
    if (ts.isReturnStatement(node)) return [`${pad}return${node.expression ? ` ${this.expr(node.expression)}` : ""}`];
    if (ts.isIfStatement(node)) {
      const lines = [`${pad}if ${this.expr(node.expression)} then`, ...this.block(node.thenStatement, depth + 1)];
      let rest = node.elseStatement;
      while (rest && ts.isIfStatement(rest)) {
        lines.push(`${pad}elseif ${this.expr(rest.expression)} then`, ...this.block(rest.thenStatement, depth + 1));
        rest = rest.elseStatement;
      }
      if (rest) lines.push(`${pad}else`, ...this.block(rest, depth + 1));
      return [...lines, `${pad}end`];
    }
    if (ts.isWhileStatement(node)) {
      return [`${pad}while ${this.expr(node.expression)} do`, ...this.block(node.statement, depth + 1), `${pad}end`];
    }
    if (ts.isForStatement(node)) return this.counted(node, depth);
    return this.fail(node, `unsupported statement (${ts.SyntaxKind[node.kind]})`);
  }

  /** A counted loop as `do local i = …; while … do …; i = i + … end end` (its step after the body). */
  counted(node: ts.ForStatement, depth: number): string[] {
    const init = node.initializer;
    if (!init || !ts.isVariableDeclarationList(init) || !node.condition || !node.incrementor) {
      return this.fail(node, "a for loop that is not counted");
    }
    const pad = "  ".repeat(depth);
    const inner = `${pad}  `;
    return [
      `${pad}do`,
      ...init.declarations.map((d) =>
        d.initializer
          ? `${inner}local ${d.name.getText()} = ${this.expr(d.initializer)}`
          : this.fail(d, "a loop counter without a start"),
      ),
      `${inner}while ${this.expr(node.condition)} do`,
      ...this.block(node.statement, depth + 2),
      ...this.effect(node.incrementor).map((line) => `${inner}  ${line}`),
      `${inner}end`,
      `${pad}end`,
    ];
  }
}
