/** What the mock received, one record per request (`api.requests()`). */

/**
 * One request as the mock received it, a frozen copy. Never holds a token, a password or a refresh
 * token, in any field or encoding.
 */
export interface RecordedRequest {
  /** Upper case: `GET`, `POST`, … */
  readonly method: string;
  /** The path after the host's prefix: `/events/evt-1`, `/campaigns/`; the media host's is `/media`. */
  readonly path: string;
  /** Query parameters, each with all its values in order (`city=a&city=b` → `{ city: ["a", "b"] }`); secrets redacted as in `body`. */
  readonly query: Readonly<Record<string, readonly string[]>>;
  /** The `X-Preferred-Partner-Id` header, when one came. */
  readonly partner: string | undefined;
  /** Whether an `Authorization: Bearer …` header came (the token itself is never kept). */
  readonly bearer: boolean;
  /**
   * The body: parsed JSON, form or other short text, a note (`[application/json, 20971520 bytes]`)
   * for a body over 64 KiB or a binary one, or undefined when empty. Fields named for a secret
   * (`password`, `token`, `RefreshToken`, `authorization`, …) read `"[redacted]"`, and any secret
   * the mock knows is cut out of the rest.
   */
  readonly body: unknown;
  /** When the request arrived, in ms since the epoch (fractional: order of arrival is exact). */
  readonly startedAt: number;
  /** When the answer was sent or the connection closed; undefined while in flight. */
  readonly endedAt: number | undefined;
  /** The answer's status; 0 when the connection was closed without an answer (reset-after-write). */
  readonly status: number | undefined;
  /** The answer's `x-request-id`. */
  readonly requestId: string;
  /**
   * The request's `x-mock-tag` header, when one came: give each client (process, job) its own with
   * the client's `headers` option, and the assertions tell their requests apart.
   */
  readonly tag?: string | undefined;
  /**
   * The partners the request's bearer token belongs to, when the mock minted it (its IdToken's
   * groups, Section 5.3); undefined for a token it did not mint or no token.
   */
  readonly tokenPartners?: readonly string[] | undefined;
}

/** The one path a request is known by in messages: `POST /campaigns/?eid=e1&name=n`. */
export function describeRequest(r: Pick<RecordedRequest, "method" | "path" | "query">): string {
  const query = new URLSearchParams();
  for (const [key, values] of Object.entries(r.query)) for (const v of values) query.append(key, v);
  const text = query.toString();
  return `${r.method} ${r.path}${text ? `?${text}` : ""}`;
}

/** A clock with sub-millisecond steps, so that records order exactly as the requests arrived. */
export const preciseNow = (): number => performance.timeOrigin + performance.now();
