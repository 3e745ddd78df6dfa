/**
 * @audience-intelligence/client — the public surface. Nothing else in src/ is public.
 * @packageDocumentation
 */
export { createAudienceClient, type AudienceClient, type CallHooks, type CallParams } from "./create-client.ts";
export type { AudienceClientOptions, Logger, RetryOptions, SessionTokens } from "./options.ts";
export { memoryTokenStore, type StoredSession, type TokenStore } from "./session/token-store.ts";
export { unwrap, type RawResult } from "./unwrap.ts";
export { AudienceError, isAudienceError, type ErrorContext, type RedactedRequest } from "./errors/audience-error.ts";
export { ApiError, AuthenticationError, NotFoundError, PartnerAccessError, RateLimitError, ServerError } from "./errors/api-error.ts";
export { NetworkError, TimeoutError } from "./errors/network-error.ts";
export { ValidationError, type ValidationIssue } from "./errors/validation-error.ts";
export { SetupStateError, type SetupState } from "./errors/setup-state-error.ts";
export { PartnerSelectionError } from "./errors/partner-selection-error.ts";
export { SPEC } from "./limits.ts";
export { API_VERSION } from "../generated/operations.ts";
export type { ClientPaths, paths, components, operations } from "./types.ts";
