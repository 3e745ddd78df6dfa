/**
 * Typed reads of the partner, the user, partner messages and user notifications. Messages and
 * notifications are separate surfaces, not one inbox (Section 2).
 */

import type { AudienceClient } from "../client-types.ts";
import type { GetOk } from "../types.ts";
import { unwrap } from "../unwrap.ts";
import { type CallOptions, callInit } from "./call-options.ts";
import { type ListOptions, pagedList } from "./list.ts";

/** @inline */
type Client = Pick<AudienceClient, "GET" | "config">;

/** GET /partners/: the partner record(s); `id` is the numeric client_id. */
export const getPartners = async (client: Client, options?: AbortSignal | CallOptions): Promise<GetOk<"/partners/">> =>
  unwrap(await client.GET("/partners/", callInit(options)));

/** Partner messages, page by page (GET /messages/partner/ with page and limit). */
export function listPartnerMessages(client: Client, options: ListOptions = {}): AsyncIterableIterator<unknown> {
  return pagedList(client, options, async ({ page, limit, ...call }) =>
    unwrap(await client.GET("/messages/partner/", { params: { query: { page, limit } }, ...call })),
  );
}

/** The number of unread partner messages. */
export async function countUnreadMessages(client: Client, options?: AbortSignal | CallOptions): Promise<number> {
  return unwrap(await client.GET("/messages/totalunread", callInit(options))).total_unread;
}

/** The user's notification feed. The endpoint takes only `limit` (no page): one page is read. */
export function listNotifications(client: Client, options: ListOptions = {}): AsyncIterableIterator<unknown> {
  return pagedList(
    client,
    options,
    async ({ limit, page: _page, ...call }) =>
      unwrap(await client.GET("/notifications/", { params: { query: { limit } }, ...call })),
    { single: true },
  );
}
