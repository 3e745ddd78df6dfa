/**
 * `@audience-intelligence/client` — the public surface. Nothing else in src/ is public. Runs in
 * Node, browsers and edge runtimes (no `node:` imports); file-path helpers are in
 * `@audience-intelligence/client/node`.
 * @module @audience-intelligence/client
 */
export { createAudienceClient, type AudienceClient, type CallHooks, type CallParams, type HookedCall, type PublicConfig } from "./create-client.ts";
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

// Workflows (Section 3, 8): small functions over a client, each tree-shakeable on its own.
export type { SetupProcess, SetupPayload, EditPublishedClusterPayload, PublishedClusterEdit, PublishResult } from "./workflows/setup-process.ts";
export { normalizeBenchmark, benchmarkValuesOf, type BenchmarkUnit, type NormalizedBenchmark, type NormalizeBenchmarkOptions } from "./workflows/benchmark.ts";
export { listEvents, listEventCampaigns, readBenchmark, readPrediction, type BenchmarkRead, type Event, type PredictionType } from "./workflows/events.ts";
export type { ListOptions } from "./workflows/list.ts";
export { getPartners, getProfile, getFeatures, getPermissions, listPartnerMessages, countUnreadMessages, listNotifications, getNotificationStats } from "./workflows/reads.ts";
export {
  createCampaign,
  setClientCampaignStatus,
  waitForClientCampaignStatusTask,
  watchAdPlatformConnection,
  createEventSeries,
  listAvailableEventsForSeries,
  getOptimisationStatus,
  setOptimisationStatus,
  type QueryParams,
  type WaitOptions,
} from "./workflows/campaigns.ts";
export { ingestTransactionSummary, ingestExcel, uploadMedia, type TransactionSummary, type UploadInput } from "./workflows/ingest.ts";
export { paginate, type PaginateOptions, type PageRequest } from "./workflows/paginate.ts";
export { poll, isTerminalStatus, taskPollDefaults, statusPollDefaults, type PollOptions } from "./workflows/poll.ts";
export { assertXlsx } from "./workflows/xlsx.ts";
