/** Turns a raw `{ data, error, response }` result into its data, or throws the typed error. */
import { errorFromResponse } from "./errors/from-response.ts";
import { redactorOf } from "./internal/call-record.ts";
import { Redactor } from "./internal/redact.ts";

export interface RawResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/**
 * @example
 * const event = unwrap(await client.GET("/events/{eid}", { params: { path: { eid } } }));
 */
export function unwrap<T>(result: RawResult<T>): T {
  const { response } = result;
  if (response.ok && result.error === undefined) return result.data as T;
  throw errorFromResponse(response, result.error, redactorOf(response) ?? new Redactor());
}
