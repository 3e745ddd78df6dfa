/**
 * The group's session inside the `AudienceCoordinator` object: the tokens one isolate obtained,
 * the /auth cool-down, and the sign-in lock with its fencing token (the Redis coordinator's
 * src/redis/redis-session.ts, in the object). The record and the fence counter are kept in the
 * object's storage: a restarted object still has the group's session (no second sign-in), and a
 * fence is never issued twice. The lock is memory only: a restart frees it, as its expiry would.
 * The record holds tokens: the object's storage is as sensitive as the tokens.
 */
import { sharedTokens } from "../coordination/shared-tokens.ts";
import { LONGEST_SHARED_COOL_DOWN_MS, trustedMsLeft } from "../coordination/stored-limits.ts";
import type { SessionAsk, SessionReply } from "./protocol.ts";
import { PROTOCOL } from "./protocol.ts";
import type { DurableObjectStorageLike } from "./types.ts";

interface SessionRecord {
  tokens?: Record<string, string>;
  /** The cool-down's end, epoch ms of the object's clock. */
  cool?: number;
  fence: number;
}

const RECORD = "session";
const FENCE = "fence";

export class SessionRoom {
  readonly #storage: DurableObjectStorageLike;
  #loaded: Promise<void> | undefined;
  #record: SessionRecord = { fence: 0 };
  #fence = 0;
  #lock: { fence: number; until: number } | undefined;

  constructor(storage: DurableObjectStorageLike) {
    this.#storage = storage;
  }

  async step(ask: SessionAsk): Promise<SessionReply> {
    this.#loaded ??= this.#load();
    await this.#loaded;
    const now = Date.now();
    switch (ask.act) {
      case "read":
        return this.#read(now);
      case "lock": {
        if (this.#lock && this.#lock.until > now) return { v: PROTOCOL, fence: 0 };
        this.#fence += 1;
        this.#lock = { fence: this.#fence, until: now + ask.lockMs };
        await this.#storage.put(FENCE, this.#fence);
        return { v: PROTOCOL, fence: this.#fence };
      }
      case "renew": {
        const held = this.#lock?.fence === ask.fence;
        if (held && this.#lock) this.#lock.until = now + ask.lockMs;
        return { v: PROTOCOL, ok: held };
      }
      case "unlock": {
        const held = this.#lock?.fence === ask.fence;
        if (held) this.#lock = undefined;
        return { v: PROTOCOL, ok: held };
      }
      case "write":
        return this.#write(ask, now);
    }
  }

  async #load(): Promise<void> {
    const [record, fence] = await Promise.all([this.#storage.get(RECORD), this.#storage.get(FENCE)]);
    if (typeof record === "object" && record !== null) this.#record = record as SessionRecord;
    this.#fence = Number.isSafeInteger(fence) ? (fence as number) : 0;
  }

  #read(now: number): SessionReply {
    const rec = this.#record;
    const tokens = sharedTokens(rec.tokens);
    const coolMs = typeof rec.cool === "number" ? trustedMsLeft(rec.cool - now, LONGEST_SHARED_COOL_DOWN_MS) : 0;
    return {
      v: PROTOCOL,
      fence: Number.isSafeInteger(rec.fence) && rec.fence > 0 ? rec.fence : 0,
      ...(tokens ? { tokens } : {}),
      ...(coolMs > 0 ? { coolMs } : {}),
    };
  }

  async #write(ask: Extract<SessionAsk, { act: "write" }>, now: number): Promise<SessionReply> {
    if (ask.fence !== this.#fence) return { v: PROTOCOL, ok: false };
    const tokens = ask.tokens ? sharedTokens(ask.tokens) : undefined;
    const record: SessionRecord = { ...this.#record, fence: ask.fence };
    if (tokens) record.tokens = { ...tokens };
    if (ask.coolMs !== null) record.cool = now + Math.min(ask.coolMs, LONGEST_SHARED_COOL_DOWN_MS);
    this.#record = record;
    await this.#storage.put(RECORD, record);
    return { v: PROTOCOL, ok: true };
  }
}
