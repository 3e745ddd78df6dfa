/**
 * Every error the client throws, as one union of its concrete classes: what
 * {@link isAudienceError} narrows to, so that `switch (error.name)` narrows to the class.
 * A class with subclasses appears with its own name only (`ApiError & { name: "ApiError" }`): an
 * error named "RateLimitError" is a {@link RateLimitError}, never a bare ApiError.
 */
import type {
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  NotFoundError,
  PartnerAccessError,
  RateLimitError,
  ServerError,
  UnprocessableEntityError,
} from "./api-error.ts";
import type { AudienceError } from "./audience-error.ts";
import type { NetworkError, ResponseTooLargeError, TimeoutError } from "./network-error.ts";
import type { PartnerSelectionError } from "./partner-selection-error.ts";
import type { SessionError } from "./session-error.ts";
import type { SetupStateError } from "./setup-state-error.ts";
import type { ValidationError } from "./validation-error.ts";

/** An instance of a class with subclasses, named as itself. */
type Own<E, N extends string> = E & { readonly name: N };

/** Any error of the client, by its concrete class; `error.name` tells which. */
export type AnyAudienceError =
  | Own<AudienceError, "AudienceError">
  | Own<ApiError, "ApiError">
  | AuthenticationError
  | PartnerAccessError
  | NotFoundError
  | RateLimitError
  | ServerError
  | BadRequestError
  | ConflictError
  | UnprocessableEntityError
  | Own<NetworkError, "NetworkError">
  | TimeoutError
  | ResponseTooLargeError
  | PartnerSelectionError
  | SessionError
  | SetupStateError
  | ValidationError;
