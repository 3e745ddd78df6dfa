/**
 * The client's public types: the client itself, its configuration as exposed, and the hooks the
 * workflow helpers observe calls with. In a module of their own so that the helpers depend on
 * these types, not on the composition root (create-client.ts), which depends on the helpers.
 */
import type { Client } from "openapi-fetch";
import type { OperationInfo } from "../generated/operations.ts";
import type { ClientConfig } from "./options.ts";
import type { RateState } from "./rate-state.ts";
import type { HeldAccessToken, SessionTokens } from "./session/tokens.ts";
import type { ClientPaths } from "./types.ts";
import type { SetupProcess } from "./workflows/setup-process-types.ts";

/** openapi-fetch's client over the description. */
export type RawClient = Client<ClientPaths>;
/** The HTTP methods of openapi-fetch the client exposes, one function each. */
export const METHODS = ["GET", "PUT", "POST", "DELETE", "PATCH", "HEAD", "OPTIONS", "TRACE"] as const;

/** Hooks around every call made through the client: refuse before sending, observe after. */
export interface CallHooks {
  /** Runs after validation, before sending; throw to refuse the call. */
  before?(call: HookedCall): void;
  /**
   * Runs once the call has a response (whatever its status); what it throws is logged, never
   * thrown into the call. What it returns is added to what the call's error is built from.
   */
  after?(call: HookedCall, result: { data?: unknown; error?: unknown; response: Response }): CallNote | undefined;
}

/** What a hook learned of a call's answer that its error should say (errors/from-response.ts). */
export interface CallNote {
  /** The API refused a setup call because the setup is published (Section 3 rules 1–2). */
  readonly setupRefused?: { readonly eid: string };
}

/** A call as the hooks see it: its operation row, parameters (defaults filled) and body. */
export interface HookedCall {
  /** The operation's row in the generated operation table (method, path, host, auth, retry policy). */
  readonly op: OperationInfo;
  /** The call's parameters, defaults filled (such as `adplatform`). */
  readonly params: CallParams | undefined;
  /** The request body as the caller gave it. */
  readonly body: unknown;
}

/** The `params` of a raw call, as the hooks see them. */
export interface CallParams {
  /** Path parameters. */
  path?: Record<string, unknown>;
  /** Query parameters. */
  query?: unknown;
  /** Header parameters. */
  header?: unknown;
}

/**
 * The client: openapi-fetch's typed `GET`/`POST`/… over the API description, plus the session,
 * partner and limiter state. Made by {@link createAudienceClient}.
 */
export interface AudienceClient extends Pick<RawClient, (typeof METHODS)[number] | "request" | "use" | "eject"> {
  /** The normalized, frozen configuration, without its secrets (credentials, session tokens, token store). */
  readonly config: PublicConfig;
  /** The partner id in use, once known. */
  partnerId(): string | undefined;
  /** Sign-in and refresh counts of this client's session. */
  sessionStats(): {
    /** Sign-ins made. */
    signIns: number;
    /** Token refreshes made. */
    refreshes: number;
  };
  /**
   * The partner's rate state now, as a plain snapshot: calls in flight and queued per lane, the
   * concurrency cap, the pace, the 429 cool-down and the clock skew (docs/OPERATING.md).
   */
  rateState(): RateState;
  /** Current concurrency cap and usage for the partner (Section 8.4). */
  concurrency(): {
    /** Calls allowed in flight now (8, or 4 after a 429). */
    limit: number;
    /** Calls in flight. */
    active: number;
    /** Calls waiting for a slot. */
    queued: number;
  };
  /**
   * New credentials for this client: forgets the session and any sign-in refusal or cool-down the
   * client remembered (a refused sign-in is not repeated until then); the next call signs in.
   * Checked like the `credentials` option (a TypeError names the field).
   */
  useCredentials(credentials: { username: string; password: string }): void;
  /** A new session for this client (as the `session` option); forgets any remembered refusal. */
  useSession(session: SessionTokens): void;
  /**
   * The access token this client holds, renewed first when within the refresh window, with its
   * expiry (epoch ms) and the partner: for the backend endpoint a page's session provider calls.
   * The token is a secret: hand it only to the user it belongs to.
   */
  accessToken(): Promise<HeldAccessToken>;
  /** The campaign setup of one event (Section 3): one handle per eid, shared by every caller. */
  setupProcess(eid: string): SetupProcess;
  /**
   * Whether this client has sent `PUT /events/{eid}/client_campaign_status` for `eid` (and had an
   * answer): the task poll of {@link waitForClientCampaignStatusTask} belongs to such a PUT (Section 8.5).
   */
  hasSentClientCampaignStatus(eid: string): boolean;
}

/** The configuration as the client exposes it: everything but what could carry a secret. */
export type PublicConfig = Readonly<
  Omit<ClientConfig, "credentials" | "session" | "sessionProvider" | "tokenStore" | "headers">
>;
