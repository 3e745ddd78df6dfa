/**
 * `@audience-intelligence/client/redis`: one partner's session and rate budget shared by every
 * process, in Redis. The root entry and the browser bundle carry none of this.
 *
 * ```ts
 * import Redis from "ioredis";
 * import { redisCoordinator } from "@audience-intelligence/client/redis";
 * const client = createAudienceClient({ ...options, coordinator: redisCoordinator({ redis: new Redis(url) }) });
 * ```
 *
 * Where there are no TCP sockets (Vercel Edge, Deno Deploy, Netlify Edge), the same coordinator
 * over the Upstash REST protocol: `redisCoordinator({ redis: restRedis({ url, token }) })`. This
 * entry loads no `node:` module.
 */
import type { Coordinator, PartnerKey, SessionKey } from "../coordination/coordinator.ts";
import { flagOption, observerOption, optionFailure, timingOption } from "../coordination/store-options.ts";
import { type RedisClientLike, redisCommands } from "./commands.ts";
import { sha256Hex } from "./digests.ts";
import { RedisPartner } from "./redis-partner.ts";
import { RedisSessionShare } from "./redis-session.ts";
import { REDIS_DEFAULTS, type RedisSettings } from "./settings.ts";

export type { Coordinator } from "../coordination/coordinator.ts";
export type { RedisClientLike } from "./commands.ts";
export { type RestRedis, type RestRedisOptions, restRedis } from "./rest.ts";
export { REDIS_DEFAULTS } from "./settings.ts";

/** Options of {@link redisCoordinator}. */
export interface RedisCoordinatorOptions {
  /**
   * Your ioredis or node-redis client (an optional peer dependency: this package does not install
   * one). Turn its offline queue off (ioredis: `enableOfflineQueue: false`, `maxRetriesPerRequest: 1`;
   * node-redis: `disableOfflineQueue: true`) so a command to an unreachable Redis fails at once.
   * Or, without TCP (edge runtimes), a REST connection: `restRedis({ url, token })`.
   */
  readonly redis: RedisClientLike;
  /** Prefix of every key this coordinator writes. @default "audience:" */
  readonly keyPrefix?: string;
  /**
   * While Redis does not answer, fail calls (a retryable NetworkError) instead of going on with
   * this process's fair share of the partner's last known cap and pace. @default false
   */
  readonly failClosed?: boolean;
  /** A command not answered within this long counts as Redis being away. @default 250 */
  readonly commandTimeoutMs?: number;
  /** Told when Redis stops answering (for your logs and alerts). */
  readonly onUnavailable?: (error: Error) => void;
  /** Told when Redis answers again and the shared state is used again. */
  readonly onRestored?: () => void;
  /** Shorter or longer leases and waits than {@link REDIS_DEFAULTS} (tests, unusual deployments). */
  readonly timing?: RedisTiming;
}

/** The timings of {@link REDIS_DEFAULTS} that can be changed, in ms. */
export interface RedisTiming {
  /** A slot lease lapses this long after its last renewal. */
  readonly leaseMs?: number;
  /** A process not seen for this long no longer counts among the partner's live processes. */
  readonly liveMs?: number;
  /** How often the call at the head of a process's line asks again while every slot is taken. */
  readonly pollMs?: number;
  /** How often Redis is asked again while it does not answer. */
  readonly probeMs?: number;
  /** The sign-in lock lapses this long after its last renewal. */
  readonly lockMs?: number;
  /** A process waits this long at most for the sign-in lock. */
  readonly lockWaitMs?: number;
}

const fail = optionFailure("redisCoordinator");

/** What {@link redisCoordinator} returns: a coordinator that can be closed. */
export interface RedisCoordinator extends Coordinator {
  /**
   * Ends this process's part: stops renewing its leases and takes it off the partner's live
   * processes. Call it when the process is done (a script's `finally`), then close your Redis
   * client yourself — the coordinator never opens or closes a connection. Calls after `close()`
   * are not coordinated reliably; close the client's last call first.
   */
  close(): Promise<void>;
}

/** A coordinator that keeps the partner's slots, pace, cool-downs and session in Redis. */
export function redisCoordinator(options: RedisCoordinatorOptions): RedisCoordinator {
  if (typeof options !== "object" || options === null || options.redis == null) fail("redis", "is required");
  const keyPrefix = options.keyPrefix ?? "audience:";
  if (typeof keyPrefix !== "string" || /[\s{}]/.test(keyPrefix))
    fail("keyPrefix", "must be a string without whitespace or braces");
  const timeout = options.commandTimeoutMs ?? REDIS_DEFAULTS.commandTimeoutMs;
  if (!(typeof timeout === "number" && timeout > 0 && timeout <= 60_000))
    fail("commandTimeoutMs", "must be a number of ms from 1 to 60000");
  const redis = redisCommands(options.redis, timeout);
  const { leaseMs, liveMs, pollMs, probeMs, lockMs, lockWaitMs } = REDIS_DEFAULTS;
  const settings: RedisSettings = {
    ...REDIS_DEFAULTS,
    // The timings RedisTiming documents; the others are not the caller's to change.
    ...timingOption(options.timing, { leaseMs, liveMs, pollMs, probeMs, lockMs, lockWaitMs }, fail),
    processId: crypto.randomUUID(),
    failClosed: flagOption(options.failClosed, "failClosed", fail),
    onUnavailable: observerOption(options.onUnavailable, "onUnavailable", fail),
    onRestored: observerOption(options.onRestored, "onRestored", fail),
  };
  const partners = new Map<string, RedisPartner>();
  return {
    partner(key: PartnerKey): RedisPartner {
      const id = `${key.environment}\n${key.partnerId ?? ""}\n${key.maxConcurrency}\n${key.reducedConcurrency}\n${key.quietMs}\n${key.pacing}`;
      let partner = partners.get(id);
      if (!partner) {
        // One hash tag: the three keys live in one Redis Cluster slot, as a script needs.
        const tag = `${keyPrefix}{p:${digest(id)}}:`;
        partner = new RedisPartner(redis, [`${tag}slots`, `${tag}state`, `${tag}procs`], key, settings);
        partners.set(id, partner);
      }
      return partner;
    },
    session(key: SessionKey): RedisSessionShare {
      return new RedisSessionShare(
        redis,
        `${keyPrefix}{s:${digest(`${key.environment}\n${key.identity}`)}}:`,
        settings,
      );
    },
    async close(): Promise<void> {
      await Promise.all([...partners.values()].map((partner) => partner.close()));
      partners.clear();
    },
  };
}

const digest = (text: string): string => sha256Hex(text).slice(0, 24);
