/**
 * The session provider's scenarios, as a dashboard runs them: each creates a client whose `session`
 * is an async function asking the application's backend (`/backend/token` of token-site.ts) for
 * a token, makes calls, and returns what it saw as plain data. The same module runs in the page
 * (main.ts) and in a dedicated worker (worker.ts); both are bundled from the package's name, so
 * they run the browser build. Each scenario's `tag` is its partner id and its backend tag: the
 * server's record of that scenario.
 */
import { createAudienceClient, SessionError, ValidationError } from "@audience-intelligence/client";

export interface ErrorSeen {
  readonly name: string;
  readonly message: string;
  readonly sessionError: boolean;
  /** The error's `cause` is the very error the provider threw. */
  readonly causeIsProviders: boolean;
}

interface Read {
  readonly status: number;
  readonly serial?: string;
  readonly error?: ErrorSeen;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const origin = () => (globalThis as unknown as { location: { origin: string } }).location.origin;

/** "Window" in the page, "DedicatedWorkerGlobalScope" in a dedicated worker. */
export const contextName = (): string => globalThis.constructor.name;

/** A provider as a page writes one: a POST to its backend. Counts its asks and when each token arrived. */
function backendProvider(tag: string, query = "") {
  const asks: number[] = [];
  const handedAt = new Map<string, number>();
  const thrown: unknown[] = [];
  const provider = async () => {
    asks.push(performance.now());
    const response = await fetch(`${origin()}/backend/token?tag=${tag}${query}`, { method: "POST" });
    if (!response.ok) {
      const error = new Error(`the token endpoint answered ${response.status}`);
      thrown.push(error);
      throw error;
    }
    const { accessToken, serial } = (await response.json()) as { accessToken: string; serial: string };
    handedAt.set(serial, performance.now());
    return { accessToken };
  };
  const seen = (error: unknown): ErrorSeen => ({
    name: (error as Error).name,
    message: (error as Error).message,
    sessionError: error instanceof SessionError,
    causeIsProviders: thrown.includes((error as Error).cause),
  });
  return { provider, asks, handedAt, seen };
}

type Provided = ReturnType<typeof backendProvider>;

function clientOf(tag: string, p: Provided) {
  const client = createAudienceClient({ baseUrl: `${origin()}/api/v3`, partnerId: tag, session: p.provider });
  return async (eid: string): Promise<Read> => {
    try {
      const { response, data } = await client.GET("/events/{eid}", { params: { path: { eid } } });
      return { status: response.status, serial: (data as { serial?: string } | undefined)?.serial ?? "" };
    } catch (error) {
      return { status: 0, error: p.seen(error) };
    }
  };
}

const times = <T>(n: number, each: (i: number) => Promise<T>) =>
  Promise.all(Array.from({ length: n }, (_, i) => each(i)));

/** `n` calls at once on a new client: its first calls. */
export async function firstCalls(tag: string, n: number) {
  const p = backendProvider(tag);
  const read = clientOf(tag, p);
  const results = await times(n, (i) => read(`first-${i}`));
  return { context: contextName(), asked: p.asks.length, results };
}

/**
 * Bursts of 3 calls every 40 ms for `forMs`, with tokens living `lifeMs`. A call waited for the
 * provider when the token it sent arrived after the call began (its first burst aside: nothing
 * was held yet).
 */
export async function shortLived(tag: string, lifeMs: number, forMs: number) {
  const p = backendProvider(tag, `&life=${lifeMs}`);
  const read = clientOf(tag, p);
  const failures: Read[] = [];
  let calls = 0;
  let waited = 0;
  const began = performance.now();
  for (let burst = 0; performance.now() - began < forMs; burst++) {
    const t0 = performance.now();
    for (const r of await times(3, (i) => read(`short-${burst}-${i}`))) {
      calls += 1;
      if (r.status !== 200) failures.push(r);
      else if (burst > 0 && (p.handedAt.get(r.serial ?? "") ?? 0) > t0) waited += 1;
    }
    await sleep(40);
  }
  return { context: contextName(), asked: p.asks.length, calls, waited, failures };
}

/** One call, then the backend revokes its token (`all`: and every token it issues from then on), then `n` calls at once. */
export async function revoked(tag: string, n: number, all: boolean) {
  const p = backendProvider(tag);
  const read = clientOf(tag, p);
  const before = await read("revoke-0");
  await fetch(`${origin()}/backend/revoke?tag=${tag}${all ? "&all=1" : ""}`, { method: "POST" });
  const results = await times(n, (i) => read(`revoke-${i + 1}`));
  return { context: contextName(), asked: p.asks.length, before, results };
}

/**
 * A backend that fails every token request: `n` calls at once, one more at once, none for 1.2 s,
 * then one call every 50 ms for 2.2 s. When the provider was asked (ms, in order).
 */
export async function rejecting(tag: string, n: number) {
  const p = backendProvider(tag, "&fail=1");
  const read = clientOf(tag, p);
  const burst = await times(n, (i) => read(`reject-${i}`));
  const askedAfterBurst = p.asks.length;
  const soon = await read("reject-soon");
  const askedSoon = p.asks.length;
  await sleep(1_200);
  const askedIdle = p.asks.length;
  const later: Read[] = [];
  const began = performance.now();
  while (performance.now() - began < 2_200) {
    later.push(await read(`reject-later-${later.length}`));
    await sleep(50);
  }
  const gaps = p.asks.slice(1).map((at, i) => at - (p.asks[i] ?? 0));
  return {
    context: contextName(),
    burst,
    soon,
    askedAfterBurst,
    askedSoon,
    askedIdle,
    later,
    asked: p.asks.length,
    gaps,
  };
}

/**
 * Writes whose bodies break the description's schemas: what each was refused with, as
 * `field: message` lines (the browser build's request schemas, generated/validators.browser.ts),
 * or "sent" when nothing refused it.
 */
export async function refused(tag: string, bodies: readonly unknown[]) {
  const p = backendProvider(tag);
  const client = createAudienceClient({ baseUrl: `${origin()}/api/v3`, partnerId: tag, session: p.provider });
  const seen: unknown[] = [];
  for (const body of bodies) {
    try {
      await client.POST("/setup_processes/{eid}", { params: { path: { eid: "evt-refused" } }, body: body as never });
      seen.push("sent");
    } catch (error) {
      seen.push(
        error instanceof ValidationError ? error.issues.map((i) => `${i.field}: ${i.message}`) : (error as Error).name,
      );
    }
  }
  return { context: contextName(), seen };
}

/**
 * Reads whose init the client or the browser's own fetch cannot send (an unknown `priority`, which
 * Chromium's fetch throws on; enums only the browser checks; a body on a GET): what each was refused
 * with (a ValidationError's fields, else the error's name, or "sent"), then the status of a good read.
 */
export async function badInits(tag: string, inits: readonly Record<string, unknown>[]) {
  const p = backendProvider(tag);
  const client = createAudienceClient({ baseUrl: `${origin()}/api/v3`, partnerId: tag, session: p.provider });
  const read = { params: { path: { eid: "evt-init" } } };
  const seen: unknown[] = [];
  for (const extra of inits) {
    try {
      await client.GET("/events/{eid}", { ...read, ...extra } as never);
      seen.push("sent");
    } catch (error) {
      seen.push(error instanceof ValidationError ? error.issues.map((i) => i.field) : (error as Error).name);
    }
  }
  const after = (await client.GET("/events/{eid}", read)).response.status;
  return { context: contextName(), seen, after };
}
