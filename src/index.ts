/**
 * `@audience-intelligence/client` — the public surface. Nothing else in src/ is public. Runs in
 * Node, browsers and edge runtimes (no `node:` imports); file-path helpers are in
 * `@audience-intelligence/client/node`.
 * @module @audience-intelligence/client
 */

export { API_VERSION } from "../generated/version.ts";
export type { AudienceClient, CallParams, PublicConfig } from "./client-types.ts";
export { createAudienceClient } from "./create-client.ts";
export type { Declared, DeclaredFields, DeclaredKey } from "./declared-fields.ts";
export type { DriftReport } from "./drift/drift-watch.ts";
export type { AnyAudienceError } from "./errors/any-audience-error.ts";
export {
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  NotFoundError,
  PartnerAccessError,
  RateLimitError,
  ServerError,
  UnprocessableEntityError,
} from "./errors/api-error.ts";
export { AudienceError, type ErrorContext, isAudienceError } from "./errors/audience-error.ts";
export type { ApiErrorName, AudienceErrorName, NetworkErrorName } from "./errors/error-names.ts";
export { NetworkError, ResponseTooLargeError, TimeoutError } from "./errors/network-error.ts";
export { PartnerSelectionError } from "./errors/partner-selection-error.ts";
export { SessionError } from "./errors/session-error.ts";
export { type SetupState, SetupStateError } from "./errors/setup-state-error.ts";
export { ValidationError, type ValidationIssue } from "./errors/validation-error.ts";
export { SPEC } from "./limits.ts";
export type {
  AudienceClientOptions,
  Logger,
  MeterLike,
  RetryOptions,
  TracerLike,
} from "./options.ts";
export type { RateState } from "./rate-state.ts";
export { memoryTokenStore, type TokenStore } from "./session/token-store.ts";
export type { HeldAccessToken, SessionProvider, SessionTokens } from "./session/tokens.ts";
export type { ClientPaths, components, operations, paths } from "./types.ts";
export { unwrap } from "./unwrap.ts";
export {
  type BenchmarkUnit,
  benchmarkValuesOf,
  type NormalizeBenchmarkOptions,
  type NormalizedBenchmark,
  normalizeBenchmark,
} from "./workflows/benchmark.ts";
export type { CallOptions } from "./workflows/call-options.ts";
export {
  createCampaign,
  createEventSeries,
  getOptimisationStatus,
  listAvailableEventsForSeries,
  type QueryParams,
  setClientCampaignStatus,
  setOptimisationStatus,
  type WaitOptions,
  waitForClientCampaignStatusTask,
  watchAdPlatformConnection,
} from "./workflows/campaigns.ts";
export {
  type BenchmarkRead,
  type Event,
  listEventCampaigns,
  listEvents,
  type PredictionType,
  readBenchmark,
  readPrediction,
} from "./workflows/events.ts";
export {
  ingestExcel,
  ingestTransactionSummary,
  type TransactionSummary,
  type UploadInput,
  uploadMedia,
} from "./workflows/ingest.ts";
export type { ListOptions } from "./workflows/list.ts";
export { type PageRequest, type PaginateOptions, paginate } from "./workflows/paginate.ts";
export { isTerminalStatus, type PollOptions, poll, pollDefaults } from "./workflows/poll.ts";
export {
  countUnreadMessages,
  getPartners,
  listNotifications,
  listPartnerMessages,
  type Partner,
} from "./workflows/reads.ts";
// Workflows (Section 3, 8): small functions over a client, each tree-shakeable on its own.
export type {
  EditPublishedClusterPayload,
  PublishedClusterEdit,
  PublishResult,
  SetupPayload,
  SetupProcess,
} from "./workflows/setup-process-types.ts";
export { assertXlsx } from "./workflows/xlsx.ts";
