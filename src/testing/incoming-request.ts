/**
 * One incoming request read whole: what the scenarios and routes see of it, and what the log keeps
 * (secrets out, frozen). A request the mock cannot serve — a target that is no URL, a body over
 * 16 MiB — comes with the answer that refuses it.
 */
import type { IncomingMessage } from "node:http";
import { type Answer, json } from "./answer.ts";
import type { FaultRequest } from "./faults.ts";
import {
  bearerOf,
  headerOf,
  jsonBody,
  loggedBody,
  MAX_BODY_BYTES,
  readBody,
  stripPrefix,
  targetOf,
} from "./incoming.ts";
import { scrubQuery } from "./log-secrets.ts";
import type { MockState } from "./mock-state.ts";
import { preciseNow, type RecordedRequest } from "./recorded-request.ts";

/** The header a test sets (with the client's `headers` option) to tell its clients apart in the log. */
const TAG_HEADER = "x-mock-tag";

export interface Incoming {
  readonly request: FaultRequest;
  readonly url: URL;
  readonly raw: Buffer;
  readonly body: unknown;
  readonly token: string | undefined;
  /** What the log keeps, but the request id. */
  readonly record: Omit<RecordedRequest, "endedAt" | "status" | "requestId">;
  /** The answer refusing a request the mock cannot serve. */
  readonly refused: Answer | undefined;
}

export async function readIncoming(req: IncomingMessage, state: MockState): Promise<Incoming> {
  const startedAt = preciseNow();
  const target = targetOf(req.url);
  const url = target ?? new URL("http://127.0.0.1/");
  const method = (req.method ?? "GET").toUpperCase();
  const { bytes: raw, size } = await readBody(req).catch(() => ({ bytes: Buffer.alloc(0), size: 0 }));
  const contentType = headerOf(req.headers["content-type"]);
  const body = jsonBody(raw, contentType);
  const token = bearerOf(headerOf(req.headers.authorization));
  const { secrets } = state;
  // Learned before anything is logged: the bearer sent, a sign-in's password.
  secrets.add(token);
  const password = (body as { password?: unknown } | undefined)?.password;
  if (typeof password === "string") secrets.add(password);
  const partner = headerOf(req.headers["x-preferred-partner-id"]);
  const request = { method, path: target ? stripPrefix(url.pathname) : "(not a URL)", partner, bearer: !!token };
  const tag = headerOf(req.headers[TAG_HEADER]);
  const tokenPartners = token === undefined ? undefined : state.partnersOf(token);
  const record = {
    ...request,
    path: secrets.cut(request.path),
    partner: partner === undefined ? undefined : secrets.cut(partner),
    query: scrubQuery(url.searchParams, secrets),
    body: loggedBody(raw, size, body, contentType, secrets),
    startedAt,
    ...(tag !== undefined ? { tag: secrets.cut(tag) } : {}),
    ...(tokenPartners ? { tokenPartners: Object.freeze([...tokenPartners]) } : {}),
  };
  const refused = !target
    ? json(400, { code: "error.mock.bad_target", message: "The request target is not a URL" })
    : size > MAX_BODY_BYTES
      ? json(413, { code: "error.mock.body_too_large", message: `The mock reads bodies up to ${MAX_BODY_BYTES} bytes` })
      : undefined;
  return { request, url, raw, body, token, record, refused };
}
