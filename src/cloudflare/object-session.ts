/**
 * The group's session held by an `AudienceCoordinator` object (session-room.ts), as one isolate
 * uses it: read, the sign-in lock with its fence (renewed while held), fenced writes. A step the
 * object does not answer rejects: the client then signs in or refreshes alone
 * (session/shared-session.ts), as with the Redis coordinator. A read the object does not answer is
 * answered from the record this isolate last read: a worker makes a client per request, and a new
 * client must not sign in again only because the object is away for a moment.
 */
import type { SessionShare, SharedSessionRecord } from "../coordination/coordinator.ts";
import { withFencedLock } from "../coordination/fenced-lock.ts";
import { sharedTokens } from "../coordination/shared-tokens.ts";
import { LONGEST_SHARED_COOL_DOWN_MS, trustedMsLeft } from "../coordination/stored-limits.ts";
import type { SessionTokens } from "../session/tokens.ts";
import type { ObjectLink } from "./link.ts";
import { PROTOCOL, type SessionReply, type SessionStep, sessionReply } from "./protocol.ts";
import type { ObjectSettings } from "./settings.ts";

/** The record each session object last gave this isolate, by object name, and when (monotonic ms). */
const lastRead = new Map<string, { readonly record: SharedSessionRecord; readonly at: number }>();

export class ObjectSessionShare implements SessionShare {
  readonly #link: ObjectLink;
  readonly #name: string;
  readonly #s: ObjectSettings;

  constructor(link: ObjectLink, name: string, settings: ObjectSettings) {
    this.#link = link;
    this.#name = name;
    this.#s = settings;
  }

  async #step(step: SessionStep): Promise<SessionReply> {
    return sessionReply(await this.#link.send({ v: PROTOCOL, op: "session", ...step }, this.#s.answerMs));
  }

  async read(): Promise<SharedSessionRecord> {
    let reply: SessionReply;
    try {
      reply = await this.#step({ act: "read" });
    } catch (error) {
      const last = lastRead.get(this.#name);
      if (!last?.record.tokens) throw error;
      const { coolDownMs, ...rest } = last.record;
      const left = (coolDownMs ?? 0) - (performance.now() - last.at);
      return { ...rest, ...(left > 0 ? { coolDownMs: left } : {}) };
    }
    const tokens = sharedTokens(reply.tokens);
    // Never longer than this client writes (a record of something else, or a clock stepped back).
    const coolDownMs = trustedMsLeft(reply.coolMs ?? 0, LONGEST_SHARED_COOL_DOWN_MS);
    const record = {
      fence: reply.fence ?? 0,
      ...(tokens ? { tokens } : {}),
      ...(coolDownMs > 0 ? { coolDownMs } : {}),
    };
    lastRead.set(this.#name, { record, at: performance.now() });
    return record;
  }

  withLock<T>(
    fn: (fence: number) => Promise<T>,
    options?: { readonly signal?: AbortSignal; readonly deadlineAt?: number },
  ): Promise<T> {
    const { lockMs, lockWaitMs, lockPollMs } = this.#s;
    const steps = {
      lock: async () => (await this.#step({ act: "lock", lockMs })).fence ?? 0,
      renew: (fence: number) => this.#step({ act: "renew", fence, lockMs }),
      unlock: (fence: number) => this.#step({ act: "unlock", fence }),
    };
    return withFencedLock(steps, { lockMs, lockWaitMs, pollMs: lockPollMs }, fn, options);
  }

  async write(
    update: { readonly tokens?: Readonly<SessionTokens>; readonly coolDownMs?: number },
    fence: number,
  ): Promise<boolean> {
    const coolMs =
      update.coolDownMs === undefined
        ? null
        : Math.ceil(Math.min(Math.max(0, update.coolDownMs), LONGEST_SHARED_COOL_DOWN_MS));
    const tokens = update.tokens ? (JSON.parse(JSON.stringify(update.tokens)) as Record<string, string>) : null;
    const written = (await this.#step({ act: "write", fence, tokens, coolMs })).ok === true;
    // What this isolate stored is what the object would answer: the signer has it too while the object is away.
    if (written && update.tokens)
      lastRead.set(this.#name, { record: { fence, tokens: { ...update.tokens } }, at: performance.now() });
    return written;
  }
}
