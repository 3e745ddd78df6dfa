/**
 * A seeded fault-injection server for the reliability suite: a real node:http server on
 * 127.0.0.1 that answers the client's calls with a mix of faults and counts what it receives and
 * what it creates, so that retries, duplicates, concurrency and the session can be judged by the
 * server — the honest witness — rather than by the client's own bookkeeping.
 *
 * Determinism: the fault of attempt n of a logical call is a pure function of (seed, call, n),
 * drawn from a mulberry32 generator seeded with a hash of the three. The order in which
 * concurrent calls reach the server does not change any call's faults, so a seed reproduces its
 * faults; only what follows from timing (a request stamped with a token that another call's 401
 * has since revoked, how an autosave coalesces) can vary slightly between runs.
 *
 * A logical call is keyed by method, resource (the path; for ingests the body's eid; for
 * campaigns the `name` query value), a hash of the body and, for the GET that checks a draft
 * create, the number of POSTs to that draft before it. Give every call of a run its own resource.
 *
 * The probe (`fetch`, passed to the client as its `fetch` option) marks each request so the
 * server can tell which requests the client sent inside a 429 episode, and which it has abandoned
 * (timed out) before the server noticed the closed socket.
 */
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { API_PREFIX, apiRelative } from "../support/recording-server.ts";

/** Every kind of answer the server can give an attempt. */
export const FAULT_KINDS = [
  "ok",
  "401",
  "429",
  "429-retry-after-seconds",
  "429-retry-after-date",
  "429-retry-after-past-date",
  "429-retry-after-too-long",
  "500",
  "502",
  "503",
  "504",
  "slow",
  "reset-mid-body",
  "truncated-json",
  "malformed-json",
  "wrong-content-type",
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** Relative weights of the fault kinds, per attempt (30 % faults, 7 % of them 429s). */
export const DEFAULT_WEIGHTS: Readonly<Record<FaultKind, number>> = Object.freeze({
  ok: 700,
  "401": 10,
  "429": 25,
  "429-retry-after-seconds": 20,
  "429-retry-after-date": 10,
  "429-retry-after-past-date": 5,
  "429-retry-after-too-long": 5,
  "500": 25,
  "502": 25,
  "503": 25,
  "504": 25,
  slow: 25,
  "reset-mid-body": 25,
  "truncated-json": 25,
  "malformed-json": 25,
  "wrong-content-type": 25,
});

/** The same without 429s: a phase in which the client runs at its full concurrency of 8. */
export const CALM_WEIGHTS: Readonly<Record<FaultKind, number>> = Object.freeze({
  ...DEFAULT_WEIGHTS,
  "429": 0,
  "429-retry-after-seconds": 0,
  "429-retry-after-date": 0,
  "429-retry-after-past-date": 0,
  "429-retry-after-too-long": 0,
});

/** mulberry32: a small, fast 32-bit PRNG; the same seed gives the same sequence. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a, 32 bits: turns (seed, call, attempt) into a generator seed. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** One request as the server saw it. */
export interface AttemptRecord {
  readonly seq: number;
  /** Send order at the client (the probe's number). */
  readonly probe: number;
  readonly method: string;
  readonly path: string;
  /** The resource the call is about (see the module comment). */
  readonly resource: string;
  /** The logical call this attempt belongs to. */
  readonly key: string;
  /** 0 for the first attempt of the call. */
  readonly index: number;
  /** The answer given; `stale-401` is a 401 for a token an earlier 401 revoked (not drawn). */
  fault: FaultKind | "stale-401" | "auth";
  status: number | undefined;
  readonly requestId: string;
  /** The response was written whole (status, headers and full body), x-request-id included. */
  completed: boolean;
  /** The client gave up on the attempt (timed out) before the server finished it. */
  abandoned: boolean;
  /** A write this attempt carried took effect on the server. */
  applied: boolean;
  readonly partner: boolean;
  /** Sent inside a 429 episode of the client (marked by the probe). */
  readonly inEpisode: boolean;
  readonly receivedAt: number;
}

export interface FaultStats {
  readonly seed: number;
  readonly requests: number;
  readonly faultsByKind: Record<string, number>;
  /** Sign-in and refresh answers the client received (one it timed out on and retried does not count). */
  readonly signIns: number;
  readonly refreshes: number;
  /** Sign-in and refresh requests, retries of abandoned ones included. */
  readonly authRequests: number;
  readonly revocations: number;
  /** Refreshes asked for while the current access token was still valid. */
  readonly unneededRefreshes: number;
  /** Most partner-scoped requests in flight at once (sign-in and refresh carry no partner). */
  readonly maxInFlight: number;
  /** Most requests of any kind in flight at once. */
  readonly maxInFlightAll: number;
  /**
   * Most partner-scoped requests in flight when a request sent inside a 429 episode arrived,
   * counting it and those the client sent before it.
   */
  readonly maxInFlightInEpisode: number;
  readonly episodes: number;
  readonly requestsInEpisode: number;
  /**
   * Checks of the client's concurrency cap right after it reacted to a 429: `judged` ran inside the
   * quiet period (the cap must then be reduced), `late` did not (the process was paused for longer
   * than the quiet period between the 429 and the check: a cap back at 8 is then correct).
   */
  readonly capChecks: { readonly judged: number; readonly late: number };
  /** Writes applied per resource (draft creates, ingests, campaigns). */
  readonly creations: Readonly<Record<"drafts" | "ingests" | "campaigns", number>>;
  readonly duplicates: readonly string[];
  /** Problems the server itself saw (an unknown token, a wrong partner, two PUTs of one draft at once…). */
  readonly violations: readonly string[];
}

export interface FaultServerOptions {
  readonly seed: number;
  /** Fault weights for a call, by its resource. @default DEFAULT_WEIGHTS for every call */
  readonly weightsFor?: (resource: string) => Readonly<Record<FaultKind, number>>;
  /** How long a `slow` answer takes; make it longer than the client's `timeoutMs`. */
  readonly slowMs: number;
  /** The client's `rateLimitQuietPeriodMs`: how long a 429 episode lasts after the client saw the 429. */
  readonly quietPeriodMs: number;
  /** The client's attempt cap; an injected 401 is never the last attempt (it could not be replayed). */
  readonly maxAttempts?: number;
  /** The client's reduced concurrency cap after a 429 (Section 8.4: 4). */
  readonly reducedCap?: number;
}

export interface FaultServer {
  readonly url: string;
  readonly seed: number;
  readonly partnerId: string;
  readonly credentials: { readonly username: string; readonly password: string };
  /** Pass as the client's `fetch`: marks requests for the episode and abandonment accounting. */
  readonly fetch: (request: Request) => Promise<Response>;
  /** Lets the probe read the client's concurrency cap when it marks an episode. */
  attach(client: { concurrency(): { limit: number } }): void;
  /** The password and every token issued so far: none may appear in anything the client produced. */
  secrets(): string[];
  attempts(): readonly AttemptRecord[];
  /** The attempts of the last logical call with this method on this resource (`abandoned` filled in). */
  lastCall(method: string, resource: string): AttemptRecord[];
  /** Stored state: drafts by eid, writes applied per resource. */
  draft(eid: string): unknown;
  applied(resource: string): number;
  stats(): FaultStats;
  close(): Promise<void>;
}

const PARTNER = "partner-id-acme";
const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString("base64url");

export async function startFaultServer(options: FaultServerOptions): Promise<FaultServer> {
  const { seed, slowMs, quietPeriodMs } = options;
  const maxAttempts = options.maxAttempts ?? 5;
  const reducedCap = options.reducedCap ?? 4;
  const weightsFor = options.weightsFor ?? (() => DEFAULT_WEIGHTS);
  const password = `pw-"${seed}"\\é-correct-horse-battery`; // a quote, a backslash, non-ASCII
  const refreshToken = `refresh-${seed}-opaque-never-rotates`;
  const idToken = `${b64({ alg: "none" })}.${b64({ sub: "ops", token_use: "id", groups: [PARTNER, "staff"], exp: Math.floor(Date.now() / 1000) + 7200 })}.sig-id-${seed}`;
  const issued: string[] = [idToken, refreshToken];
  const accessTokens = new Set<string>();
  const revoked = new Set<string>();
  let current: string | undefined;
  let currentIssuedBy = 0; // the probe of the sign-in or refresh that issued `current`
  const issueAccess = (): string => {
    current = `${b64({ alg: "none" })}.${b64({ sub: "ops", token_use: "access", n: issued.length, exp: Math.floor(Date.now() / 1000) + 3600 })}.sig-access-${seed}-${issued.length}`;
    issued.push(current);
    accessTokens.add(current);
    return current;
  };

  const records: AttemptRecord[] = [];
  const perKey = new Map<string, AttemptRecord[]>();
  const lastKey = new Map<string, string>();
  const faultsByKind: Record<string, number> = {};
  const drafts = new Map<string, unknown>();
  const appliedCount = new Map<string, number>();
  const creations = { drafts: 0, ingests: 0, campaigns: 0 };
  const duplicates: string[] = [];
  const violations: string[] = [];
  const postsTo = new Map<string, number>();
  const putsInFlight = new Map<string, number>();
  let revocations = 0;
  let unneededRefreshes = 0;

  // In flight: from arrival until the server finishes the answer or the client abandons it.
  const inFlight = new Map<number, { partner: boolean }>();
  const abandoned = new Set<number>();
  let maxInFlight = 0;
  let maxInFlightAll = 0;
  let maxInFlightInEpisode = 0;
  let requestsInEpisode = 0;
  const countInFlight = (partnerOnly: boolean, sentUpTo = Number.POSITIVE_INFINITY): number => {
    let n = 0;
    for (const [probe, entry] of inFlight)
      if (!abandoned.has(probe) && probe <= sentUpTo && (!partnerOnly || entry.partner)) n++;
    return n;
  };

  // 429 episodes as the client lived them: from just after it saw the 429 until its quiet period ended.
  const episodes: Array<{ from: number; until: number }> = [];
  const capChecks = { judged: 0, late: 0 };
  let attached: { concurrency(): { limit: number } } | undefined;
  const inEpisode = (t: number): boolean => episodes.slice(-8).some((e) => t >= e.from && t < e.until);
  let probeSeq = 0;

  const probeFetch = async (request: Request): Promise<Response> => {
    const probe = ++probeSeq;
    request.headers.set("x-fault-probe", String(probe));
    if (inEpisode(Date.now())) request.headers.set("x-fault-episode", "1");
    let response: Response;
    try {
      response = await fetch(request);
    } catch (error) {
      abandoned.add(probe);
      throw error;
    }
    if (response.status !== 429) return response;
    // Read the 429 whole here, so that the client's own read of it (and its limiter's reaction,
    // rateLimited()) happens in microtasks. A tick queued from this microtask runs once the
    // microtask queue is empty — after that reaction, and before any timer or I/O callback — so
    // the check no longer waits behind the other calls' callbacks as a setImmediate did (one run
    // in three saw the 50 ms quiet period checked 81 ms after the 429, and the cap back at 8).
    const body = await response.arrayBuffer().catch(() => new ArrayBuffer(0));
    const seenAt = Date.now();
    process.nextTick(() => {
      const now = Date.now();
      // The client saw the 429 at or after seenAt: while the quiet period since then lasts, its
      // cap must be reduced. Past it (only if the process was paused that long), 8 is correct.
      if (now - seenAt < quietPeriodMs) {
        capChecks.judged++;
        const limit = attached?.concurrency().limit;
        if (limit !== undefined && limit > reducedCap)
          violations.push(`after a 429 the client's concurrency cap was ${limit}, not ≤ ${reducedCap}`);
      } else {
        capChecks.late++;
      }
      episodes.push({ from: now, until: seenAt + quietPeriodMs });
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };

  const drawFor = (resource: string, key: string, index: number): { kind: FaultKind; next: () => number } => {
    const next = mulberry32(hash32(`${seed}|${key}|${index}`));
    const weights = weightsFor(resource);
    let r = next() * FAULT_KINDS.reduce((n, k) => n + weights[k], 0);
    for (const kind of FAULT_KINDS) {
      r -= weights[kind];
      if (r < 0) return { kind, next };
    }
    return { kind: "ok", next };
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => handle(req, res, Buffer.concat(chunks).toString("utf8")));
  });

  function handle(req: IncomingMessage, res: ServerResponse, body: string): void {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const method = req.method ?? "GET";
    const path = apiRelative(url.pathname);
    const probe = Number(req.headers["x-fault-probe"] ?? -++probeSeq);
    const partner = req.headers["x-preferred-partner-id"] !== undefined;
    const episode = req.headers["x-fault-episode"] === "1";
    const seq = records.length + 1;
    const requestId = `req-${seed}-${seq}`;

    inFlight.set(probe, { partner });
    let finished = false;
    let countedPut = false;
    const finish = (): void => {
      if (finished) return;
      finished = true;
      inFlight.delete(probe);
      if (countedPut) putsInFlight.set(path, (putsInFlight.get(path) ?? 1) - 1);
    };
    res.on("close", finish);
    maxInFlight = Math.max(maxInFlight, countInFlight(true));
    maxInFlightAll = Math.max(maxInFlightAll, countInFlight(false));
    if (episode && partner) {
      requestsInEpisode++;
      // Only requests the client sent before this one count: one sent later may have left after
      // the episode ended (and overtaken this one on another connection), when 8 are allowed again.
      maxInFlightInEpisode = Math.max(maxInFlightInEpisode, countInFlight(true, probe));
    }

    const parsed = parseJson(body);
    const resource = resourceOf(method, path, url, parsed);
    let key = `${method} ${resource} ${createHash("sha1").update(body).digest("hex").slice(0, 12)}`;
    if (method === "GET" && path.startsWith("/setup_processes/")) key += ` #${postsTo.get(path) ?? 0}`;
    if (method === "POST" && path.startsWith("/setup_processes/")) postsTo.set(path, (postsTo.get(path) ?? 0) + 1);
    const previous = perKey.get(key) ?? [];
    perKey.set(key, previous);
    lastKey.set(`${method} ${resource}`, key);
    const record: AttemptRecord = {
      seq,
      probe,
      method,
      path,
      resource,
      key,
      index: previous.length,
      fault: "ok",
      status: undefined,
      requestId,
      completed: false,
      abandoned: false,
      applied: false,
      partner,
      inEpisode: episode,
      receivedAt: Date.now(),
    };
    previous.push(record);
    records.push(record);

    let latencyMs = 0; // drawn with the fault: a real API takes a few ms, so calls overlap
    const send = (
      status: number,
      payload: string,
      type = "application/json",
      extra: Record<string, string> = {},
    ): void => {
      const write = (): void => {
        record.status = status;
        if (res.destroyed) {
          finish();
          return;
        }
        res.writeHead(status, {
          "content-type": type,
          "content-length": Buffer.byteLength(payload),
          "x-request-id": requestId,
          ...extra,
        });
        res.end(payload);
        record.completed = true;
        finish();
      };
      if (latencyMs === 0) {
        write();
        return;
      }
      const timer = setTimeout(write, latencyMs);
      res.on("close", () => clearTimeout(timer));
    };
    const sendJson = (status: number, value: unknown, extra: Record<string, string> = {}): void =>
      send(status, JSON.stringify(value), "application/json", extra);

    // Sign-in and refresh are not faulted: the session must sign in once, and refresh only when told to.
    if (method === "POST" && path === "/auth") {
      record.fault = "auth";
      const credentials = parsed as { username?: unknown; password?: unknown } | undefined;
      if (credentials?.password !== password) violations.push("sign-in with a wrong password");
      currentIssuedBy = probe;
      sendJson(200, { AccessToken: issueAccess(), IdToken: idToken, RefreshToken: refreshToken });
      return;
    }
    if (method === "POST" && path === "/auth/refresh_token") {
      record.fault = "auth";
      if ((parsed as { token?: unknown } | undefined)?.token !== refreshToken)
        violations.push("refresh with a wrong refresh token");
      // Needed when the token is revoked, or when the client never got the answer that issued it.
      if (current !== undefined && !revoked.has(current) && !abandoned.has(currentIssuedBy)) unneededRefreshes++;
      currentIssuedBy = probe;
      sendJson(200, { AccessToken: issueAccess(), IdToken: idToken }); // Section 5.4: the refresh token does not rotate
      return;
    }

    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    if (!bearer || !accessTokens.has(bearer)) violations.push(`${method} ${path}: unknown or missing bearer token`);
    if (req.headers["x-preferred-partner-id"] !== PARTNER)
      violations.push(`${method} ${path}: partner header ${String(req.headers["x-preferred-partner-id"])}`);
    // The server echoes the caller's credentials into its error bodies: the worst case for leaks.
    const echo = { authorization: req.headers.authorization, body: body.slice(0, 200) };
    if (bearer && revoked.has(bearer)) {
      record.fault = "stale-401";
      count("stale-401");
      sendJson(401, { code: "error.auth.token_revoked", echo });
      return;
    }

    const { kind: drawn, next } = drawFor(resource, key, record.index);
    let kind = drawn;
    // An injected 401 revokes the current token; never on the last attempt, nor right after a 401
    // (the client replays once per call after renewing), so that every revocation is answered.
    if (kind === "401" && (record.index >= maxAttempts - 1 || bearer !== current || previous.at(-2)?.status === 401))
      kind = "ok";
    record.fault = kind;
    count(kind);
    const second = next();
    latencyMs = 1 + Math.floor(next() * 6);

    if (kind === "401") {
      revoked.add(current as string);
      revocations++;
      sendJson(401, { code: "error.auth.expired", echo });
      return;
    }
    if (kind.startsWith("429")) {
      const headers: Record<string, string> = {};
      if (kind === "429-retry-after-seconds") headers["retry-after"] = second < 0.5 ? "0" : "1";
      if (kind === "429-retry-after-date") headers["retry-after"] = new Date(Date.now() + 1000).toUTCString();
      if (kind === "429-retry-after-past-date") headers["retry-after"] = new Date(Date.now() - 60_000).toUTCString();
      if (kind === "429-retry-after-too-long") headers["retry-after"] = "30";
      sendJson(429, { code: "error.rate_limited", echo }, headers);
      return;
    }
    if (method === "PUT") {
      countedPut = true;
      const now = (putsInFlight.get(path) ?? 0) + 1;
      putsInFlight.set(path, now);
      if (now > 1) violations.push(`${path}: ${now} PUTs in flight at once (autosave must not overlap)`);
    }
    // A 5xx may come after the write took effect (a proxy timing out on a slow upstream); a
    // broken answer (slow, reset, bad JSON) always comes after it.
    const isServerError = ["500", "502", "503", "504"].includes(kind);
    const answer = route(method, path, resource, parsed, url, isServerError ? second < 0.5 : true, record);
    if (isServerError) {
      if (kind === "502") {
        send(502, "<html><body><h1>502 Bad Gateway</h1></body></html>", "text/html");
        return;
      }
      sendJson(Number(kind), { code: `error.server.${kind}`, echo });
      return;
    }
    const text = JSON.stringify(answer.body);
    switch (kind) {
      case "slow": {
        const timer = setTimeout(() => send(answer.status, text), slowMs);
        res.on("close", () => clearTimeout(timer));
        return;
      }
      case "reset-mid-body": {
        record.status = answer.status;
        res.writeHead(answer.status, {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(text) + 64,
          "x-request-id": requestId,
        });
        res.write(text.slice(0, Math.max(1, text.length >> 1)));
        finish(); // the server is done with it: it drops the connection now
        setTimeout(() => res.socket?.destroy(), 2);
        return;
      }
      case "truncated-json":
        send(answer.status, text.slice(0, Math.max(1, text.length - 3)));
        return;
      case "malformed-json":
        send(answer.status, `{'id': ${JSON.stringify(resource)}, }`);
        return;
      case "wrong-content-type":
        send(answer.status, `<!doctype html><p>${answer.status}</p>`, "text/html; charset=utf-8");
        return;
      default:
        send(answer.status, text);
        return;
    }
  }

  /** The fake API itself: drafts, ingests, campaigns and reads. */
  function route(
    method: string,
    path: string,
    resource: string,
    body: unknown,
    url: URL,
    apply: boolean,
    record: AttemptRecord,
  ): { status: number; body: unknown } {
    const setup = /^\/setup_processes\/([^/]+)$/.exec(path);
    const write = (kind: keyof typeof creations, effect: () => void): void => {
      if (!apply) return;
      record.applied = true;
      const n = (appliedCount.get(resource) ?? 0) + 1;
      appliedCount.set(resource, n);
      if (n > 1) duplicates.push(`${resource} created ${n} times`);
      else creations[kind]++;
      effect();
    };
    if (setup) {
      const eid = decodeURIComponent(setup[1] as string);
      if (method === "GET")
        return drafts.has(eid)
          ? { status: 200, body: drafts.get(eid) }
          : { status: 404, body: { code: "error.not_found" } };
      if (method === "POST") {
        write("drafts", () => drafts.set(eid, body));
        return { status: 201, body: drafts.get(eid) ?? body };
      }
      if (method === "PUT") {
        if (apply) {
          record.applied = true;
          drafts.set(eid, body);
        }
        return { status: 200, body };
      }
    }
    if (method === "POST" && path === "/ingest/transaction_summary") {
      write("ingests", () => undefined);
      return { status: 200, body: { ingested: resource } };
    }
    if (method === "POST" && path === "/campaigns/") {
      write("campaigns", () => undefined);
      return { status: 201, body: { campaign: url.searchParams.get("name") } };
    }
    const event = /^\/events\/([^/]+)(\/lookout_prediction_benchmark)?$/.exec(path);
    if (method === "GET" && event) {
      const eid = decodeURIComponent(event[1] as string);
      return event[2]
        ? { status: 200, body: { eid, benchmark: [85, "90%", 101.5] } }
        : { status: 200, body: { id: eid, name: `Event ${eid}` } };
    }
    return { status: 404, body: { code: "error.not_found" } };
  }

  function received(path: string): number {
    return records.filter((r) => r.fault === "auth" && r.path === path && r.completed && !abandoned.has(r.probe))
      .length;
  }

  function count(kind: string): void {
    faultsByKind[kind] = (faultsByKind[kind] ?? 0) + 1;
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}${API_PREFIX}`,
    seed,
    partnerId: PARTNER,
    credentials: { username: "ops@acme.test", password },
    fetch: probeFetch,
    attach: (client) => {
      attached = client;
    },
    secrets: () => [password, ...issued],
    attempts: () => records,
    lastCall: (method, resource) => {
      const call = perKey.get(lastKey.get(`${method} ${resource}`) ?? "") ?? [];
      for (const a of call) a.abandoned = abandoned.has(a.probe);
      return [...call];
    },
    draft: (eid) => drafts.get(eid),
    applied: (resource) => appliedCount.get(resource) ?? 0,
    stats: () => ({
      seed,
      requests: records.length,
      faultsByKind: { ...faultsByKind },
      signIns: received("/auth"),
      refreshes: received("/auth/refresh_token"),
      authRequests: records.filter((r) => r.fault === "auth").length,
      revocations,
      unneededRefreshes,
      maxInFlight,
      maxInFlightAll,
      maxInFlightInEpisode,
      episodes: episodes.length,
      requestsInEpisode,
      capChecks: { ...capChecks },
      creations: { ...creations },
      duplicates: [...duplicates],
      violations: [...violations],
    }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** What a call is about: ingests by their eid, campaigns by their name, everything else by path. */
function resourceOf(method: string, path: string, url: URL, body: unknown): string {
  if (method === "POST" && path === "/ingest/transaction_summary")
    return `ingest:${String((body as { eid?: unknown } | undefined)?.eid)}`;
  if (method === "POST" && path === "/campaigns/") return `campaign:${url.searchParams.get("name") ?? ""}`;
  return path;
}
