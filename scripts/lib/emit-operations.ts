/** Emits generated/operations.ts: one row per operation of the merged description. */
type Doc = Record<string, any>;

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options"] as const;
const RETRY = new Set(["repeatable", "check-first", "never"]);

export interface OperationRow {
  method: string;
  path: string;
  operationId: string;
  host: "main" | "media";
  auth: boolean;
  retry: "repeatable" | "check-first" | "never";
  pathParams: string[];
}

export function operationRows(doc: Doc): OperationRow[] {
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
        pathParams: [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string),
      });
    }
  }
  return rows.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}

export function emitOperations(doc: Doc, header: string): string {
  const rows = operationRows(doc).map((r) => `  ${JSON.stringify(r)},`);
  return `${header}
/** Version of the API description (\`info.version\`) this client was generated from. */
export const API_VERSION = ${JSON.stringify(String(doc.info.version))};

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

export const operations: readonly OperationInfo[] = [
${rows.join("\n")}
];
`;
}
