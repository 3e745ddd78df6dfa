/**
 * A fake Audience Intelligence API on a recording server: /auth and /auth/refresh_token issue
 * tokens, anything else goes to the test's route handler. Counts sign-ins and refreshes.
 */
import type { ServerResponse } from "node:http";
import { json, type RecordedRequest, type RecordingServer, startRecordingServer } from "./recording-server.ts";
import { makeTokens } from "./tokens.ts";

export interface FakeApi extends RecordingServer {
  signIns: () => number;
  refreshes: () => number;
  /** Tokens issued most recently. */
  tokens: () => ReturnType<typeof makeTokens>;
  /** Every token ever issued (for secret scans). */
  issued: string[];
  route: (handler: (req: RecordedRequest, res: ServerResponse) => void | Promise<void>) => void;
  /** Requests other than /auth*. */
  calls: () => RecordedRequest[];
}

export interface FakeApiOptions {
  groups?: string[];
  /** exp (epoch seconds) of issued tokens. */
  expSeconds?: () => number;
  /** Omit RefreshToken from refresh responses (it does not rotate). */
  refreshOmitsRefreshToken?: boolean;
  signInDelayMs?: number;
  onRefresh?: (req: RecordedRequest, res: ServerResponse) => boolean;
}

export async function startFakeApi(options: FakeApiOptions = {}): Promise<FakeApi> {
  let signIns = 0;
  let refreshes = 0;
  let current = makeTokens({
    ...(options.groups ? { groups: options.groups } : {}),
    ...(options.expSeconds ? { expSeconds: options.expSeconds() } : {}),
  });
  const issued: string[] = [];
  let route: (req: RecordedRequest, res: ServerResponse) => void | Promise<void> = (_req, res) =>
    json(res, 200, { ok: true }, { "x-request-id": "req-ok" });
  const issue = () => {
    current = makeTokens({
      ...(options.groups ? { groups: options.groups } : {}),
      ...(options.expSeconds ? { expSeconds: options.expSeconds() } : {}),
    });
    issued.push(current.AccessToken, current.IdToken, current.RefreshToken);
    return current;
  };
  const server = await startRecordingServer(async (req, res) => {
    if (req.method === "POST" && req.path === "/auth") {
      signIns += 1;
      if (options.signInDelayMs) await new Promise((r) => setTimeout(r, options.signInDelayMs));
      return json(res, 200, issue(), { "x-request-id": `req-auth-${signIns}` });
    }
    if (req.method === "POST" && req.path === "/auth/refresh_token") {
      if (options.onRefresh?.(req, res)) return;
      refreshes += 1;
      await new Promise((r) => setTimeout(r, 20));
      const { RefreshToken, ...rest } = issue();
      return json(res, 200, options.refreshOmitsRefreshToken ? rest : { ...rest, RefreshToken }, {
        "x-request-id": `req-refresh-${refreshes}`,
      });
    }
    return route(req, res);
  });
  return Object.assign(server, {
    signIns: () => signIns,
    refreshes: () => refreshes,
    tokens: () => current,
    issued,
    route: (h: typeof route) => {
      route = h;
    },
    calls: () => server.requests.filter((r) => !r.path.startsWith("/auth")),
  });
}
