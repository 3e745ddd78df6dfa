import { AudienceError } from "./audience-error.ts";

/** No HTTP response: the connection failed, was reset, or a redirect could not be followed. */
export class NetworkError extends AudienceError {
  override name = "NetworkError";
}

/** An attempt took longer than `timeoutMs`, or the overall deadline passed. */
export class TimeoutError extends NetworkError {
  override name = "TimeoutError";
}
