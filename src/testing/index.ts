/**
 * `@audience-intelligence/client/testing` — a mock of the Audience Intelligence API for your own
 * tests (Node only): Prism serving this package's own description with its examples. Needs
 * `@stoplight/prism-cli`, an optional peer dependency, in your devDependencies.
 * @module @audience-intelligence/client/testing
 */
import { SPEC } from "../limits.ts";
import { startPrism } from "./prism.ts";

/** A running mock of the API. */
export interface MockApi {
  /** Pass as `baseUrl`: `http://127.0.0.1:<port>/api/v3` (the base address includes the version segment, Section 1, 9). */
  readonly baseUrl: string;
  /** The media host, `http://127.0.0.1:<port>/api/media`: what the client derives from `baseUrl` by default. */
  readonly mediaUrl: string;
  /** Stops the mock; resolves once it has exited. Calling it again does nothing. */
  close(): Promise<void>;
}

/** Options of {@link startMockApi}. */
export interface MockApiOptions {
  /** Another description file to serve. @default the package's generated/openapi.json */
  description?: string;
  /** How long to wait for Prism to listen. @default 30000 */
  startTimeoutMs?: number;
}

/**
 * Starts Prism on a free 127.0.0.1 port, serving the package's merged description with its
 * examples. Any bearer token is accepted; a call without one gets the description's 401. The
 * mock is stopped by `close()`, and at the latest when the process exits.
 *
 * @example
 * const api = await startMockApi();
 * const client = createAudienceClient({
 *   baseUrl: api.baseUrl,
 *   mediaUrl: api.mediaUrl,
 *   session: { accessToken: "test-token" },
 *   partnerId: "partner-id-test",
 * });
 * // … calls answered with the description's examples …
 * await api.close();
 */
export async function startMockApi(options: MockApiOptions = {}): Promise<MockApi> {
  const prism = await startPrism({
    ...(options.description !== undefined ? { description: options.description } : {}),
    ...(options.startTimeoutMs !== undefined ? { startTimeoutMs: options.startTimeoutMs } : {}),
  });
  return { baseUrl: prism.url, mediaUrl: `${new URL(prism.url).origin}${SPEC.mediaPath}`, close: () => prism.stop() };
}
