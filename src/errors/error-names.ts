/**
 * The `name` of every error class of the client, as literal types. A class with subclasses
 * declares the union of its own name and theirs (an `ApiError` may be a `RateLimitError`), so each
 * class's `name` is a literal type and `switch (error.name)` over {@link AnyAudienceError} narrows.
 */

/** Names of {@link NetworkError} and its subclasses. */
export type NetworkErrorName = "NetworkError" | "TimeoutError" | "ResponseTooLargeError";

/** Names of {@link ApiError} and its subclasses. */
export type ApiErrorName =
  | "ApiError"
  | "AuthenticationError"
  | "PartnerAccessError"
  | "NotFoundError"
  | "RateLimitError"
  | "ServerError"
  | "BadRequestError"
  | "ConflictError"
  | "UnprocessableEntityError";

/** Names of every error class of the client. */
export type AudienceErrorName =
  | "AudienceError"
  | ApiErrorName
  | NetworkErrorName
  | "PartnerSelectionError"
  | "SessionError"
  | "SetupStateError"
  | "ValidationError";
