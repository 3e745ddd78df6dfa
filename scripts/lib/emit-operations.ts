/** Emits generated/operations.ts: one row per operation of the merged description. */
// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document read as loose JSON; each field is checked where it is used
type Doc = Record<string, any>;

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options"] as const;
const RETRY = new Set(["repeatable", "check-first", "never"]);

interface OperationRow {
  method: string;
  path: string;
  operationId: string;
  host: "main" | "media";
  auth: boolean;
  retry: "repeatable" | "check-first" | "never";
  pathParams: string[];
}

function operationRows(doc: Doc): OperationRow[] {
  const rows: OperationRow[] = [];
  for (const [path, item] of Object.entries<Doc>(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const declared = op["x-retry"];
      if (declared !== undefined && !RETRY.has(declared)) {
        throw new Error(`${method.toUpperCase()} ${path}: x-retry must be one of ${[...RETRY].join(", ")}`);
      }
      const retry = declared ?? (method === "post" || method === "patch" ? "never" : "repeatable");
      const security = op.security ?? doc.security ?? [];
      rows.push({
        method: method.toUpperCase(),
        path,
        operationId: op.operationId,
        host: (item.servers ?? op.servers)?.some((s: Doc) => String(s.url).includes("/api/media")) ? "media" : "main",
        auth: security.length > 0,
        retry,
        pathParams: [...path.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1] as string),
      });
    }
  }
  return rows.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}

/**
 * The retry policy an operation has unless `x-retry` says otherwise: RFC 9110's methods that are
 * not idempotent (POST, PATCH, CONNECT) are never repeated. The generated `defaultRetry` below is
 * this rule, for calls the table does not describe (retry-policy.ts); keep the two the same.
 */
const defaultRetry = (method: string): OperationRow["retry"] =>
  method === "POST" || method === "PATCH" || method === "CONNECT" ? "never" : "repeatable";

/**
 * One row as one line, `METHOD /path operationId [flags]`: `media` for the media host, `public`
 * for no auth, and the retry policy when it is not the method's default. The table is decoded
 * once at load: lines and a decoder gzip smaller than object literals (the bundle's size budget).
 */
function encodeRow(r: OperationRow): string {
  if (!/^\S+$/.test(`${r.path}${r.operationId ?? ""}`))
    throw new Error(`${r.method} ${r.path}: needs an operationId, and neither may contain whitespace`);
  const flags = [
    ...(r.host === "media" ? ["media"] : []),
    ...(r.auth ? [] : ["public"]),
    ...(r.retry === defaultRetry(r.method) ? [] : [r.retry]),
  ];
  return [r.method, r.path, r.operationId, ...flags].join(" ");
}

/**
 * Emits generated/version.ts. The version is a module of its own: every error's support report
 * names it, so it is loaded up front, and the operation table is not (a browser app loads it with
 * the client's engine).
 */
export function emitVersion(doc: Doc, header: string): string {
  return `${header}
/** Version of the API description (\`info.version\`) this client was generated from. */
export const API_VERSION = ${JSON.stringify(String(doc.info.version))};
`;
}

export function emitOperations(doc: Doc, header: string): string {
  const rows = operationRows(doc).map((r) => `  ${JSON.stringify(encodeRow(r))},`);
  return `${header}
/** One row per operation: how the client addresses, authenticates and may repeat it. */
export interface OperationInfo {
  readonly method: "GET" | "PUT" | "POST" | "DELETE" | "PATCH" | "HEAD" | "OPTIONS";
  readonly path: string;
  readonly operationId: string;
  /** \`media\`: served under the media host (\`/api/media\`), not the main API. */
  readonly host: "main" | "media";
  /** Whether the operation takes the bearer token and partner header. */
  readonly auth: boolean;
  /** From \`x-retry\` in openapi/overlays/20-local.overlay.yaml, else from the HTTP method. */
  readonly retry: "repeatable" | "check-first" | "never";
  readonly pathParams: readonly string[];
}

/** The retry policy of a method the table does not describe: POST, PATCH and CONNECT are not idempotent (RFC 9110). */
export function defaultRetry(method: string): OperationInfo["retry"] {
  return method === "POST" || method === "PATCH" || method === "CONNECT" ? "never" : "repeatable";
}

/**
 * Decodes a row of the table below: \`METHOD /path operationId [flags]\`, where the flags are
 * \`media\` (media host), \`public\` (no auth) and a retry policy other than the method's default
 * (\`never\` for POST and PATCH, else \`repeatable\`).
 */
function row(line: string): OperationInfo {
  const [method, path, operationId, ...flags] = line.split(" ") as [OperationInfo["method"], string, string, ...string[]];
  const retry = flags.find((f): f is OperationInfo["retry"] => f === "repeatable" || f === "check-first" || f === "never");
  return {
    method,
    path,
    operationId,
    host: flags.includes("media") ? "media" : "main",
    auth: !flags.includes("public"),
    retry: retry ?? defaultRetry(method),
    pathParams: Array.from(path.matchAll(/\\{([^{}]+)\\}/g), (m) => m[1] as string),
  };
}

export const operations: readonly OperationInfo[] = [
${rows.join("\n")}
].map(row);
`;
}
