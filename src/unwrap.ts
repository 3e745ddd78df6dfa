/** Turns a raw `{ data, error, response }` result into its data, or throws the typed error. */
import { errorFromResponse } from "./errors/from-response.ts";
import { carriedBy } from "./internal/call-record.ts";
import { NO_SECRETS } from "./internal/masks.ts";

/** What openapi-fetch (and so every raw call of the client) resolves to. */
export interface RawResult<T> {
  /** The parsed body of a 2xx response. */
  data?: T;
  /** The parsed body of an error response. */
  error?: unknown;
  /** The response itself. */
  response: Response;
}

/**
 * Returns the data of a successful raw result, or throws the error class its status maps to
 * ({@link ApiError} and its subclasses; a {@link SetupStateError} for a setup call the API refused
 * because the setup is published), redacted, with the request id and the API's code and body.
 *
 * @example
 * const event = unwrap(await client.GET("/events/{eid}", { params: { path: { eid } } }));
 */
export function unwrap<T>(result: RawResult<T>): T {
  const { response } = result;
  if (response.ok && result.error === undefined) return result.data as T;
  // A result of the client carries its error's factory (loaded with the engine: the client's
  // redactor, the setup refusal); one made elsewhere holds no secret of the client and no record.
  const carried = carriedBy(result);
  throw carried ? carried.error(response, result.error) : errorFromResponse(response, result.error, NO_SECRETS);
}
