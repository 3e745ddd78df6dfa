/** One call of the binding through the client: typed errors thrown, as the workflows throw them. */
import type { AudienceClient } from "../client-types.ts";
import { unwrap } from "../unwrap.ts";
import type { HttpMethod } from "./types.ts";

type Raw = (
  path: string,
  init?: Record<string, unknown>,
) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

/**
 * Calls `method path` with `init` (and TanStack's `signal`, when given). A failure rejects with the
 * client's typed error (`RateLimitError`, `SetupStateError`, …) through `unwrap`; an empty
 * success resolves with `null`, since TanStack refuses `undefined` as query data.
 */
export async function callOnce(
  client: AudienceClient,
  method: HttpMethod,
  path: string,
  init: object | undefined,
  signal?: AbortSignal,
): Promise<unknown> {
  const raw = client[method.toUpperCase() as Uppercase<HttpMethod>] as unknown as Raw;
  const result = await raw(path, { ...(init as Record<string, unknown>), ...(signal ? { signal } : {}) });
  return unwrap(result as Parameters<typeof unwrap>[0]) ?? null;
}
