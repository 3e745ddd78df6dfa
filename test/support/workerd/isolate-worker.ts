/**
 * One isolate of the Durable Object tests and bench (8 worker services run this script, each its
 * own isolate): a real `createAudienceClient` with `durableObjectCoordinator` on the worker's
 * namespace binding (or, with COORDINATOR_URL, on a namespace reached through another workerd's
 * host worker; or none: today's client). It counts its requests to the objects (round trips) and
 * can make its binding throw for a while.
 *
 * GET /run?base=…&partner=…&first=K&calls=N runs N calls at once (&sequential=1: one after the
 * other) and answers
 * { failed, errors, roundTrips, warnings }; GET /fault?ms=M makes the binding throw for M ms.
 */
import { durableObjectCoordinator } from "../../../src/cloudflare/index.ts";
import type { DurableObjectNamespaceLike } from "../../../src/cloudflare/types.ts";
import { type AudienceClient, createAudienceClient } from "../../../src/index.ts";

interface Env {
  readonly AUDIENCE_COORDINATOR?: DurableObjectNamespaceLike;
  readonly COORDINATOR_URL?: string;
  /** The coordinator's answerMs (a loaded test machine answers slower than the edge). */
  readonly ANSWER_MS?: string;
}

let roundTrips = 0;
let warnings = 0;
let faultUntil = 0;

/** The binding, counted, throwing while a fault is on. */
function counted(ns: DurableObjectNamespaceLike): DurableObjectNamespaceLike {
  return {
    idFromName: (name) => ns.idFromName(name),
    get(id: never) {
      if (Date.now() < faultUntil) throw new Error("the binding throws (test fault)");
      const stub = ns.get(id);
      return {
        fetch: (input, init) => {
          roundTrips += 1;
          return stub.fetch(input, init);
        },
      };
    },
  };
}

/** A namespace whose objects are reached through the host worker of another workerd. */
function remote(url: string): DurableObjectNamespaceLike {
  return {
    idFromName: (name) => ({ name }),
    get: (id: never) => ({
      fetch: (_input, init) => fetch(`${url}/?name=${encodeURIComponent((id as { name: string }).name)}`, init),
    }),
  };
}

/**
 * A client per request, as a worker makes it with the request's `env` (the isolate's state is the
 * coordinator's: its id, and what the objects hold).
 */
function clientFor(env: Env, base: string, partner: string): AudienceClient {
  const ns = env.COORDINATOR_URL ? remote(env.COORDINATOR_URL) : env.AUDIENCE_COORDINATOR;
  const coordinator = ns
    ? durableObjectCoordinator(counted(ns), {
        ...(env.ANSWER_MS ? { timing: { answerMs: Number(env.ANSWER_MS) } } : {}),
        logger: {
          warn: () => {
            warnings += 1;
          },
        },
      })
    : undefined;
  return createAudienceClient({
    baseUrl: base,
    credentials: { username: partner, password: "isolate-password" },
    partnerId: partner,
    ...(coordinator ? { coordinator } : {}),
  });
}

async function run(env: Env, query: URLSearchParams): Promise<Response> {
  const c = clientFor(env, query.get("base") ?? "", query.get("partner") ?? "");
  const first = Number(query.get("first") ?? 0);
  const calls = Number(query.get("calls") ?? 1);
  const before = roundTrips;
  const errors: string[] = [];
  let failed = 0;
  const call = async (i: number) => {
    try {
      const { response } = await c.GET("/events/{eid}", { params: { path: { eid: `evt-${first + i + 1}` } } });
      if (!response.ok) throw new Error(`status ${response.status}`);
    } catch (error) {
      failed += 1;
      if (errors.length < 3) errors.push(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
    }
  };
  if (query.get("sequential") === "1") for (let i = 0; i < calls; i++) await call(i);
  else await Promise.all(Array.from({ length: calls }, (_, i) => call(i)));
  return Response.json({ failed, errors, roundTrips: roundTrips - before, warnings });
}

export default {
  fetch(request: Request, env: Env): Promise<Response> | Response {
    const url = new URL(request.url);
    if (url.pathname === "/fault") {
      faultUntil = Date.now() + Number(url.searchParams.get("ms") ?? 0);
      return new Response("ok");
    }
    if (url.pathname === "/run") return run(env, url.searchParams);
    return new Response("not found", { status: 404 });
  },
};
