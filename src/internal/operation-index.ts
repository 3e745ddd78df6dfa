/**
 * The one index of the description's operations: by method and path template (a typed call names
 * its template), and by URL (a request's URL names its operation, so every policy can read the
 * operation's row).
 */
import { type OperationInfo, operations } from "../../generated/operations.ts";

export interface MatchedOperation {
  readonly op: OperationInfo;
}

interface Compiled {
  op: OperationInfo;
  regex: RegExp;
  literal: number;
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function compile(op: OperationInfo): Compiled {
  const source = op.path
    .split(/(\{[^{}]+\})/) // [^{}], not [^}]: a run of "{" is then read in linear time
    .map((part) => (part.startsWith("{") ? "([^/]+)" : escapeRegExp(part)))
    .join("");
  return { op, regex: new RegExp(`^${source}$`), literal: op.path.replace(/\{[^{}]+\}/g, "").length };
}

/** Operations by method, then path template. */
const byTemplate = new Map<string, Map<string, OperationInfo>>();
for (const op of operations) {
  let byPath = byTemplate.get(op.method);
  if (!byPath) {
    byPath = new Map();
    byTemplate.set(op.method, byPath);
  }
  byPath.set(op.path, op);
}

/** The operation a typed call names: its method (upper case) and path template. */
export const operationOf = (method: string, template: string): OperationInfo | undefined =>
  byTemplate.get(method)?.get(template);

// Literal segments win over parameters (/setup_processes/call_to_action/ before /setup_processes/{eid}).
const compiled = operations.map(compile).sort((a, b) => b.literal - a.literal);

export function createOperationMatcher(bases: { main: URL; media: URL }) {
  const prefixes = [
    { host: "main" as const, origin: bases.main.origin, path: bases.main.pathname.replace(/\/$/, "") },
    { host: "media" as const, origin: bases.media.origin, path: bases.media.pathname.replace(/\/$/, "") },
  ];
  return function match(method: string, url: URL): MatchedOperation | undefined {
    for (const prefix of prefixes) {
      if (url.origin !== prefix.origin || !url.pathname.startsWith(prefix.path)) continue;
      const rest = url.pathname.slice(prefix.path.length) || "/";
      for (const c of compiled) {
        if (c.op.method !== method || c.op.host !== prefix.host) continue;
        if (c.regex.test(rest)) return { op: c.op };
      }
    }
    return undefined;
  };
}

export type OperationMatcher = ReturnType<typeof createOperationMatcher>;
