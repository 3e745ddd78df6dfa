/**
 * The tenant a binding's keys name: the environment (the client's base address) and the partner,
 * both known before a key is made. A partner is never guessed: it is the one given to
 * `createQueryHooks`, else the client's (its `partnerId` option, or the one its first call chose
 * from the IdToken, Section 5.3). An answer the client got for another partner than the key names
 * is refused, never cached under that key.
 */
import type { AudienceClient } from "../client-types.ts";
import { PartnerSelectionError } from "../errors/partner-selection-error.ts";

/** The first part of every key of the binding: whose data it is. */
export interface QueryTenant {
  /** The partner id (`X-Preferred-Partner-Id`). */
  readonly partner: string;
  /** The API the data came from: the client's base address (origin and path). */
  readonly environment: string;
}

/** The tenant of one `createQueryHooks`. */
export interface TenantScope {
  /** The tenant, or undefined while the partner is not known (the client has not called yet). */
  current(): QueryTenant | undefined;
  /** The tenant, or a TypeError that says how to give the partner. */
  require(): QueryTenant;
  /** Throws when the client's calls now go to another partner than `tenant` names. */
  check(tenant: QueryTenant): void;
}

export function tenantScope(client: Pick<AudienceClient, "partnerId" | "config">, given?: string): TenantScope {
  const configured = client.config.partnerId;
  if (given !== undefined && (typeof given !== "string" || given === ""))
    throw new TypeError("createQueryHooks: partnerId must be a non-empty string");
  if (given !== undefined && configured !== undefined && given !== configured)
    throw new TypeError(
      `createQueryHooks: partnerId "${given}" is not the client's partnerId "${configured}": its calls go to the client's`,
    );
  const { origin, pathname } = client.config.baseUrl;
  const environment = `${origin}${pathname}`;
  const tenants = new Map<string, QueryTenant>();
  const tenantOf = (partner: string) => {
    const tenant = tenants.get(partner) ?? Object.freeze({ partner, environment });
    tenants.set(partner, tenant);
    return tenant;
  };
  const current = () => {
    const partner = given ?? client.partnerId();
    return partner === undefined ? undefined : tenantOf(partner);
  };
  return {
    current,
    require: () => {
      const tenant = current();
      if (tenant) return tenant;
      throw new TypeError(
        "The partner is not known yet, and a cache key must name it: give createQueryHooks(client, { partnerId }) " +
          "or the client's partnerId option (or make the client's first call before asking for query options)",
      );
    },
    check: (tenant) => {
      const now = client.partnerId();
      if (now === undefined || now === tenant.partner) return;
      throw new PartnerSelectionError(
        `The client's calls go to partner ${now}, not to ${tenant.partner} given to createQueryHooks: its answer is not cached as ${tenant.partner}'s`,
        [now, tenant.partner],
      );
    },
  };
}
