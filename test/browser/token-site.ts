/**
 * The one origin on 127.0.0.1 the browser session test runs against (a recording server, so no
 * CORS in the way): the page and its bundles, the application's backend (`/backend/token`, what a
 * page's session provider asks), and the API, which checks every Authorization it receives the way
 * the real one does (Section 5.2): a token it did not issue, a revoked one, or one past its `exp`
 * is answered 401. The witness of what each context sent: `issued` and `calls`, by tag (each
 * scenario's partner id, which its provider also sends as `?tag=`).
 */
import { json, type RecordedRequest, type RecordingServer, startRecordingServer } from "../support/recording-server.ts";
import { makeTokens } from "../support/tokens.ts";

interface Issued {
  readonly tag: string;
  readonly serial: string;
  /** When the backend was asked (server time, epoch ms). */
  readonly at: number;
  /** The token's `exp`, in epoch ms. */
  readonly expiresAt: number;
}

export interface ApiCall {
  readonly tag: string;
  readonly path: string;
  /** The token's serial, or "" when the Authorization held no token this server issued. */
  readonly serial: string;
  readonly status: number;
  readonly at: number;
  /** The token had expired when the call arrived. */
  readonly expired: boolean;
  /** The call's `x-trace` header, "" when it had none. */
  readonly trace: string;
}

export interface TokenSite {
  readonly url: string;
  readonly issued: Issued[];
  readonly calls: ApiCall[];
  /** Token requests the backend refused (`?fail=1`), by tag. */
  readonly refusedAsks: { readonly tag: string; readonly at: number }[];
  close(): Promise<void>;
}

/** The claims of a JWT (unsigned test tokens, test/support/tokens.ts). */
function claims(token: string): { n?: string; exp?: number } | undefined {
  try {
    return JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8"));
  } catch {
    return undefined;
  }
}

export async function startTokenSite(files: Readonly<Record<string, string>>): Promise<TokenSite> {
  const issued: Issued[] = [];
  const calls: ApiCall[] = [];
  const refusedAsks: { tag: string; at: number }[] = [];
  const tokens = new Map<string, Issued>();
  const revoked = new Set<string>();
  /** Tags whose every token is revoked the moment it is issued (a backend handing out dead tokens). */
  const revokeAll = new Set<string>();

  function backend(req: RecordedRequest, res: Parameters<typeof json>[0]): void {
    const tag = req.query.get("tag") ?? "";
    if (req.path === "/backend/revoke") {
      const latest = issued.filter((i) => i.tag === tag).at(-1);
      if (latest) revoked.add(latest.serial);
      if (req.query.get("all") === "1") revokeAll.add(tag);
      json(res, 204, undefined);
      return;
    }
    if (req.query.get("fail") === "1") {
      refusedAsks.push({ tag, at: req.receivedAt });
      json(res, 503, { message: "token service unavailable" });
      return;
    }
    const lifeMs = Number(req.query.get("life") ?? "3600000");
    // A fractional `exp` (RFC 7519 NumericDate allows it): a token lives exactly lifeMs.
    const t = makeTokens({ expSeconds: (Date.now() + lifeMs) / 1000 });
    const { n = "", exp = 0 } = claims(t.AccessToken) ?? {};
    const entry: Issued = { tag, serial: n, at: req.receivedAt, expiresAt: exp * 1000 };
    issued.push(entry);
    tokens.set(t.AccessToken, entry);
    if (revokeAll.has(tag)) revoked.add(n);
    json(res, 200, { accessToken: t.AccessToken, serial: n });
  }

  function api(req: RecordedRequest, res: Parameters<typeof json>[0]): void {
    const token = String(req.headers.authorization ?? "").replace(/^Bearer /, "");
    const known = tokens.get(token);
    const now = Date.now();
    const expired = known !== undefined && known.expiresAt <= now;
    const ok = known !== undefined && !expired && !revoked.has(known.serial);
    const tag = String(req.headers["x-preferred-partner-id"] ?? "");
    const trace = String(req.headers["x-trace"] ?? "");
    calls.push({ tag, path: req.path, serial: known?.serial ?? "", status: ok ? 200 : 401, at: now, expired, trace });
    if (!ok) json(res, 401, { message: expired ? "error.auth.expired" : "error.auth.invalid_token" });
    else
      json(res, 200, { eid: req.path.split("/")[2], serial: known.serial }, { "x-request-id": `rid-${calls.length}` });
  }

  const server: RecordingServer = await startRecordingServer((req, res) => {
    if (req.path.startsWith("/backend/")) return backend(req, res);
    const file = files[req.path];
    if (file === undefined) return api(req, res);
    const type = req.path.endsWith(".js") ? "text/javascript" : "text/html";
    res.writeHead(200, { "content-type": `${type}; charset=utf-8` }).end(file);
  });
  return { url: server.origin, issued, calls, refusedAsks, close: server.close };
}
