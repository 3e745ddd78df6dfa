/**
 * Typed reads of the partner, the user, partner messages and user notifications. Messages and
 * notifications are separate surfaces, not one inbox (Section 2).
 */

import { partnersOf } from "../assumptions.ts";
import type { AudienceClient } from "../client-types.ts";
import type { Declared } from "../declared-fields.ts";
import type { components } from "../types.ts";
import { unwrap } from "../unwrap.ts";
import { type CallOptions, helperCall } from "./call-options.ts";
import { type ListOptions, pagedList } from "./list.ts";

/** @inline */
type Client = Pick<AudienceClient, "GET" | "config">;

/** A partner record: `id` is the numeric client_id; the fields you declare ({@link DeclaredFields}) beside it. */
export type Partner = components["schemas"]["Partner"] & Declared<"partner">;

/**
 * GET /partners/: the partner records, always as a list (the description allows one record or a
 * list, Section 2 does not say which: a single record comes back as a list of one).
 */
export const getPartners = async (client: Client, options?: AbortSignal | CallOptions): Promise<Partner[]> =>
  partnersOf(await helperCall(client, options, (init) => client.GET("/partners/", init))) as Partner[];

/** Partner messages, page by page (GET /messages/partner/ with page and limit). */
export function listPartnerMessages(client: Client, options: ListOptions = {}): AsyncIterableIterator<unknown> {
  return pagedList(client, options, async ({ page, limit, ...call }) =>
    unwrap(await client.GET("/messages/partner/", { params: { query: { page, limit } }, ...call })),
  );
}

/** The number of unread partner messages. */
export async function countUnreadMessages(client: Client, options?: AbortSignal | CallOptions): Promise<number> {
  return (await helperCall(client, options, (init) => client.GET("/messages/totalunread", init))).total_unread;
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
