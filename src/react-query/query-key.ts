/** The binding's cache keys: `[partnerId, method, path, params]` (see AudienceQueryKey). */
import type { AudienceClient } from "../client-types.ts";
import type { AudienceQueryKey, HttpMethod } from "./types.ts";

let unresolved = 0;

/**
 * The partner part of a client's keys: its partner id once known. Before that (the partner is
 * chosen from the IdToken at sign-in, Section 5.3) a name no other client shares, so that two
 * clients never meet in the cache under an unknown partner.
 */
export function partnerKeyOf(client: Pick<AudienceClient, "partnerId">): () => string {
  const own = `unresolved-partner-${++unresolved}`;
  return () => {
    const id = client.partnerId();
    return id === undefined ? own : `partner:${id}`;
  };
}

/** The key of one read: the init's `params` only (headers, signal and parse options do not change the data). */
export function queryKeyOf(
  partner: string,
  method: HttpMethod,
  path: string,
  init: { params?: object } | undefined,
  ...tail: string[]
): AudienceQueryKey {
  return [partner, method, path, init?.params ?? {}, ...tail];
}
