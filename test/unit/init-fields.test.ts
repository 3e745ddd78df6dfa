/**
 * A call's init fields of the wrong type or value: openapi-fetch's (`fetch`, `Request`, `parseAs`,
 * `middleware`), the Fetch standard's (`signal`, `priority`, a body on a GET, the enums a runtime
 * refuses: `cache`, `mode`, `credentials`, `referrerPolicy`) and the init itself. Each is refused
 * with a ValidationError naming the field, at once (a programmer's mistake is never retried as if
 * it were the network), with nothing sent (not even a sign-in, but for the runtime's own checks,
 * which run when the attempt is built), and the client stays usable.
 * What openapi-fetch and the Fetch standard accept keeps working. The helpers' options likewise,
 * and `client.use` refuses a bad middleware before the engine has loaded as it does after.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  countUnreadMessages,
  createAudienceClient,
  ingestExcel,
  listEventCampaigns,
  listEvents,
  paginate,
  poll,
  uploadMedia,
  ValidationError,
  waitForClientCampaignStatusTask,
  watchAdPlatformConnection,
} from "../../src/index.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";
import { makeZip, minimalXlsxEntries } from "../support/make-zip.ts";

let api: FakeApi | undefined;
/** Puts the runtime's fetch back (setup counts every fetch through it). */
let restore = (): void => {};
afterEach(async () => {
  restore();
  restore = () => {};
  await api?.close();
  api = undefined;
});

/** What `call` rejected with; undefined when it resolved. */
const failure = (call: Promise<unknown>): Promise<unknown> =>
  call.then(
    () => undefined,
    (e: unknown) => e,
  );

const partnerId = "partner-id-acme";
const credentials = { username: "user@example.com", password: "pw-init-fields" };
const eid = "e1";

/** A client whose log is kept (a retry would show as "retrying"), and whose every fetch is counted. */
async function setup() {
  api = await startFakeApi();
  const log: string[] = [];
  let fetches = 0;
  const logger = {
    info: (m: string) => log.push(m),
    warn: (m: string) => log.push(m),
    error: (m: string) => log.push(m),
  };
  const client = createAudienceClient({ baseUrl: api.url, credentials, partnerId, logger });
  const counted = globalThis.fetch;
  const spy = (...args: Parameters<typeof fetch>) => {
    fetches += 1;
    return counted(...args);
  };
  globalThis.fetch = spy as typeof fetch;
  restore = () => {
    globalThis.fetch = counted;
  };
  return { api, client, log, fetches: () => fetches };
}

/** An AbortSignal of another realm or a polyfill: an EventTarget with `aborted` and `reason`. */
/** Every answer of the fake API takes 2 s (a call can be aborted while it waits). */
function answerSlowly(): void {
  api?.route(async (_req, res) => {
    await new Promise((r) => setTimeout(r, 2_000));
    res.end("{}");
  });
}

/** A signal of another realm that aborts 100 ms from now with "left the page". */
function leavingPage() {
  const foreign = foreignController();
  setTimeout(() => foreign.abort(new Error("left the page")), 100);
  return foreign;
}

function foreignController() {
  const target = new EventTarget();
  const signal = {
    aborted: false,
    reason: undefined as unknown,
    onabort: null,
    addEventListener: target.addEventListener.bind(target),
    removeEventListener: target.removeEventListener.bind(target),
    dispatchEvent: target.dispatchEvent.bind(target),
    throwIfAborted() {
      if (signal.aborted) throw signal.reason;
    },
  };
  return {
    signal,
    abort(reason: unknown) {
      signal.aborted = true;
      signal.reason = reason;
      target.dispatchEvent(new Event("abort"));
    },
  };
}

const read = { params: { path: { eid } } };

describe("a call's init field of the wrong type or value", () => {
  /** The runtime's own checks (these enums) run at the attempt, once the session is ready. */
  const RUNTIME_CHECKED = "init";
  const cases: [string, unknown, string][] = [
    ["the init a number", 5, "init"],
    ["the init a string", "params", "init"],
    ["signal a plain object", { ...read, signal: {} }, "signal"],
    ["signal a string", { ...read, signal: "abort" }, "signal"],
    ["signal an object that only says aborted", { ...read, signal: { aborted: true } }, "signal"],
    ["fetch a string", { ...read, fetch: "fetch" }, "fetch"],
    ["fetch an object", { ...read, fetch: {} }, "fetch"],
    ["Request a number", { ...read, Request: 5 }, "Request"],
    ["Request an object", { ...read, Request: {} }, "Request"],
    ["parseAs an unknown way", { ...read, parseAs: "yaml" }, "parseAs"],
    ["middleware not an array", { ...read, middleware: { onRequest: () => undefined } }, "middleware"],
    ["a middleware that is a number", { ...read, middleware: [5] }, "middleware.0"],
    ["priority not high, low or auto", { ...read, priority: "urgent" }, "priority"],
    ["a body on a GET", { ...read, body: { a: 1 } }, "body"],
    ["cache not one of the Fetch standard's", { ...read, cache: "sometimes" }, "init"],
    ["credentials not one of the Fetch standard's", { ...read, credentials: "always" }, "init"],
    ["mode not one of the Fetch standard's", { ...read, mode: "anything" }, "init"],
    // The Fetch standard drops Authorization and X-Preferred-Partner-Id from a no-cors request and
    // hides its answer (an opaque response): in a page such a call can never work.
    ["mode no-cors", { ...read, mode: "no-cors" }, "mode"],
    ["referrerPolicy not one of the Fetch standard's", { ...read, referrerPolicy: "everyone" }, "init"],
  ];
  for (const [name, init, field] of cases) {
    it(`${name}: a ValidationError naming ${field}, at once, nothing sent, the client usable after`, async () => {
      const { client, log, fetches } = await setup();
      const error = await failure(client.GET("/events/{eid}", init as never));
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues.map((i) => i.field)).toContain(field);
      expect((error as ValidationError).message).toContain(`${field}:`);
      expect(log.filter((m) => m === "retrying")).toEqual([]);
      if (field !== RUNTIME_CHECKED) expect(api?.signIns()).toBe(0);
      expect(api?.calls()).toEqual([]);
      // The sign-in, and at most the one attempt the runtime refused to build; never a second.
      expect(fetches()).toBeLessThanOrEqual((api?.signIns() ?? 0) + 1);
      const ok = await client.GET("/events/{eid}", read);
      expect(ok.response.status).toBe(200);
      expect(client.rateState().inFlight).toBe(0);
    });
  }

  it("a write with parseAs an unknown way is refused before it is sent (the write never happens)", async () => {
    const { client } = await setup();
    const put = client.PUT("/events/{eid}/client_campaign_status", {
      params: { path: { eid }, query: { params: { status: "PAUSED" } } },
      parseAs: "yaml",
    } as never);
    await expect(put).rejects.toBeInstanceOf(ValidationError);
    expect(api?.calls()).toEqual([]);
  });

  it("a body on a HEAD is refused too, and a null one (openapi-fetch sends it as the text null)", async () => {
    const { client } = await setup();
    for (const [method, body] of [
      ["head", "x"],
      ["get", null],
    ] as const) {
      const error = await failure(
        client.request(method as never, "/events/{eid}" as never, { ...read, body } as never),
      );
      expect(error, method).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues.map((i) => i.field)).toEqual(["body"]);
    }
    expect(api?.calls()).toEqual([]);
  });

  it("a runtime's refusal through the caller's own fetch is refused the same way, with the runtime's error as cause", async () => {
    const { client } = await setup();
    const own = (request: Request) => fetch(request);
    const error = await failure(client.GET("/events/{eid}", { ...read, fetch: own, cache: "sometimes" } as never));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((i) => i.field)).toEqual(["init"]);
    expect((error as ValidationError).cause).toBeInstanceOf(Error);
    expect(api?.calls()).toEqual([]);
  });
});

describe("client.request's method", () => {
  it("not an HTTP method (not text, not a token, one the Fetch standard forbids): a rejected ValidationError naming it, nothing sent", async () => {
    const { client } = await setup();
    for (const method of [5, undefined, "", "m e", "GET\r\nX-Injected: 1", "TRACE", "connect", "track"]) {
      let error: unknown;
      try {
        error = await failure(client.request(method as never, "/events/" as never));
      } catch (thrown) {
        error = `threw at once, not a rejected promise: ${thrown}`;
      }
      expect(error, JSON.stringify(method)).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues.map((i) => i.field)).toEqual(["method"]);
    }
    expect(api?.signIns()).toBe(0);
    expect(api?.calls()).toEqual([]);
    expect((await client.request("get" as never, "/events/" as never)).response.status).toBe(200);
  });
});

describe("what openapi-fetch and the Fetch standard accept keeps working", () => {
  const accepted: [string, unknown][] = [
    ["no init", undefined],
    ["signal null", { ...read, signal: null }],
    ["signal undefined", { ...read, signal: undefined }],
    ["parseAs text", { ...read, parseAs: "text" }],
    ["parseAs stream", { ...read, parseAs: "stream" }],
    ["parseAs blob", { ...read, parseAs: "blob" }],
    ["parseAs arrayBuffer", { ...read, parseAs: "arrayBuffer" }],
    ["middleware empty", { ...read, middleware: [] }],
    ["middleware with an empty slot (openapi-fetch skips it)", { ...read, middleware: [undefined] }],
    ["priority low", { ...read, priority: "low" }],
    ["cache no-store", { ...read, cache: "no-store" }],
    ["credentials include", { ...read, credentials: "include" }],
    ["mode same-origin (the API behind the app's own origin)", { ...read, mode: "same-origin" }],
    ["mode cors", { ...read, mode: "cors" }],
    ["a Request class", { ...read, Request: class extends Request {} }],
  ];
  for (const [name, init] of accepted) {
    it(name, async () => {
      const { client } = await setup();
      const path = init === undefined ? "/events" : "/events/{eid}";
      const result = await client.GET(path as "/events/{eid}", init as never);
      expect(result.response.status).toBe(200);
    });
  }

  it("a signal of another realm (a polyfill's) is followed: its abort ends the call with its reason", async () => {
    const { client } = await setup();
    answerSlowly();
    const foreign = leavingPage();
    const call = client.GET("/events/{eid}", { ...read, signal: foreign.signal } as never);
    await expect(call).rejects.toThrow("left the page");
  });

  it("…with a middleware too (the Request built for it follows the signal): the call ends with the signal's reason", async () => {
    const { client } = await setup();
    answerSlowly();
    const middleware = { onRequest: () => undefined };
    for (const where of ["the call's", "the client's"]) {
      if (where === "the client's") client.use(middleware);
      const foreign = leavingPage();
      const call = client.GET("/events/{eid}", {
        ...read,
        signal: foreign.signal,
        ...(where === "the call's" ? { middleware: [middleware] } : {}),
      } as never);
      await expect(call, where).rejects.toThrow("left the page");
    }
  });

  it("an old polyfill's signal (no reason): aborted before or during the call, it ends with an AbortError, never undefined or a TypeError", async () => {
    const { client } = await setup();
    answerSlowly();
    const aborted = () => {
      const c = oldPolyfillController();
      c.abort();
      return c.signal;
    };
    const outcomes: Array<[string, unknown]> = [];
    // a new client (its engine still loading), then the same client once loaded
    outcomes.push(["before the engine", await failure(client.GET("/events/{eid}", { ...read, signal: aborted() }))]);
    outcomes.push(["after it", await failure(client.GET("/events/{eid}", { ...read, signal: aborted() }))]);
    const mw = { onRequest: () => undefined };
    const withMiddleware = client.GET("/events/{eid}", { ...read, signal: aborted(), middleware: [mw] });
    outcomes.push(["with a middleware", await failure(withMiddleware)]);
    outcomes.push(["a helper's bare signal", await failure(countUnreadMessages(client, aborted()))]);
    expect(api?.calls()).toEqual([]);
    const during = oldPolyfillController();
    setTimeout(() => during.abort(), 100);
    outcomes.push(["during the call", await failure(client.GET("/events/{eid}", { ...read, signal: during.signal }))]);
    for (const [when, error] of outcomes) expect((error as Error | undefined)?.name, when).toBe("AbortError");
  });
});

describe("a helper's last argument", () => {
  it("a bare signal of another realm is followed, as a bare AbortSignal is", async () => {
    const { client } = await setup();
    answerSlowly();
    const foreign = leavingPage();
    const call = countUnreadMessages(client, foreign.signal as never);
    await expect(call).rejects.toThrow("left the page");
  });

  it("options that are not an object, or a signal that is not one: a ValidationError naming it, nothing sent", async () => {
    const { client } = await setup();
    for (const [options, field] of [
      [5, "options"],
      ["fast", "options"],
      [{ signal: {} }, "signal"],
      [{ priority: "urgent" }, "priority"],
    ] as const) {
      const error = await failure(countUnreadMessages(client, options as never));
      expect(error, String(options)).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues.map((i) => i.field)).toContain(field);
    }
    expect(api?.calls()).toEqual([]);
  });
});

/**
 * The npm `abort-controller` polyfill's signal, as old code and some test environments still hand
 * over: `aborted` and the listener methods, but neither `reason` nor `throwIfAborted`.
 */
function oldPolyfillController() {
  const target = new EventTarget();
  const signal = {
    aborted: false,
    onabort: null,
    addEventListener: target.addEventListener.bind(target),
    removeEventListener: target.removeEventListener.bind(target),
    dispatchEvent: target.dispatchEvent.bind(target),
  };
  return {
    signal: signal as unknown as AbortSignal,
    abort() {
      signal.aborted = true;
      target.dispatchEvent(new Event("abort"));
    },
  };
}

describe("the signal of the helpers that poll or list", () => {
  const never = () => false;
  it("a signal that is not an AbortSignal: a ValidationError naming signal, nothing sent (it was a raw TypeError)", async () => {
    const { client } = await setup();
    const signal = {} as AbortSignal;
    for (const [name, run] of [
      ["listEvents", async () => listEvents(client, { signal }).next()],
      ["paginate", async () => paginate({ fetchPage: async () => ({ items: [] }), limit: 10, signal }).next()],
      ["poll", () => poll({ fetchStatus: async () => ({}), isDone: never, intervalMs: 10, signal })],
      ["watchAdPlatformConnection", () => watchAdPlatformConnection(client, { adPlatform: "meta", signal })],
      ["setupProcess(eid).publish", () => client.setupProcess(eid).publish({ signal })],
    ] as const) {
      const error = await failure(Promise.resolve().then(run));
      expect(error, name).toBeInstanceOf(ValidationError);
      expect(
        (error as ValidationError).issues.map((i) => i.field),
        name,
      ).toEqual(["signal"]);
    }
    expect(api?.calls()).toEqual([]);
  });

  it("an old polyfill's signal (no reason, no throwIfAborted) ends a list, a poll and a publish with an AbortError", async () => {
    const { client } = await setup();
    api?.route((_req, res) => {
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ items: Array.from({ length: 10 }, (_, i) => ({ id: `e${i}` })), status: "PENDING" }));
    });
    const list = oldPolyfillController();
    const seen: unknown[] = [];
    const listed = failure(
      (async () => {
        for await (const item of listEvents(client, { limit: 10, signal: list.signal })) {
          seen.push(item);
          if (seen.length === 3) list.abort();
        }
      })(),
    );
    const polled = oldPolyfillController();
    const polling = failure(
      poll({ fetchStatus: async () => ({}), isDone: never, intervalMs: 20, signal: polled.signal }),
    );
    setTimeout(() => polled.abort(), 50);
    const published = oldPolyfillController();
    published.abort();
    const publishing = failure(client.setupProcess(eid).publish({ signal: published.signal }));
    for (const [name, outcome] of [
      ["listEvents", await listed],
      ["poll", await polling],
      ["publish", await publishing],
    ] as const) {
      expect((outcome as Error)?.name, name).toBe("AbortError");
    }
    expect(seen).toHaveLength(3);
  });
});

describe("the options of the helpers that poll or list", () => {
  it("options that are not an object (an ad platform given as a string…): a ValidationError naming them, nothing sent", async () => {
    const { client } = await setup();
    for (const [name, run] of [
      ["watchAdPlatformConnection", () => watchAdPlatformConnection(client, "meta" as never)],
      ["waitForClientCampaignStatusTask", () => waitForClientCampaignStatusTask(client, eid, 5 as never)],
      ["listEvents", async () => listEvents(client, "recent" as never).next()],
      ["setupProcess(eid).publish", () => client.setupProcess(eid).publish("meta" as never)],
      ["setupProcess(eid).flush", () => client.setupProcess(eid).flush(5 as never)],
      ["ingestExcel", () => ingestExcel(client, eid, makeZip(minimalXlsxEntries()), "sales.xlsx" as never)],
      ["uploadMedia", () => uploadMedia(client, new Uint8Array([1]), "logo.png" as never)],
    ] as const) {
      const error = await failure(Promise.resolve().then(run));
      expect(error, name).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues.map((i) => i.field)).toEqual(["options"]);
    }
    expect(api?.calls()).toEqual([]);
    // null is no options, as for every helper (it was a raw TypeError here)
    await ingestExcel(client, eid, makeZip(minimalXlsxEntries()), null as never);
    expect(api?.calls()).toHaveLength(1);
  });

  // The one-call helpers take a bare AbortSignal as their options (call-options.ts); these take an
  // options object only, which an AbortSignal is too: its abort was ignored, the poll or the list ran on.
  it("a bare AbortSignal where an options object goes: a ValidationError naming options, never a signal ignored", async () => {
    const { client } = await setup();
    const signal = new AbortController().signal;
    for (const [name, run] of [
      ["watchAdPlatformConnection", () => watchAdPlatformConnection(client, signal as never)],
      ["waitForClientCampaignStatusTask", () => waitForClientCampaignStatusTask(client, eid, signal as never)],
      ["listEvents", async () => listEvents(client, signal as never).next()],
      ["listEventCampaigns", async () => listEventCampaigns(client, eid, signal as never).next()],
      ["setupProcess(eid).publish", () => client.setupProcess(eid).publish(signal as never)],
      ["setupProcess(eid).flush", () => client.setupProcess(eid).flush(signal as never)],
      ["ingestExcel", () => ingestExcel(client, eid, makeZip(minimalXlsxEntries()), signal as never)],
      ["uploadMedia", () => uploadMedia(client, new Uint8Array([1]), signal as never)],
    ] as const) {
      const error = await failure(Promise.resolve().then(run));
      expect(error, name).toBeInstanceOf(ValidationError);
      const [issue] = (error as ValidationError).issues;
      expect(issue?.field, name).toBe("options");
      expect(issue?.message, name).toMatch(/not an AbortSignal: give it as `signal`/);
    }
    expect(api?.calls()).toEqual([]);
  });
});

describe("client.use before the engine has loaded", () => {
  it("a bad middleware throws at once, as after; one given later is kept", async () => {
    api = await startFakeApi();
    for (const loaded of [false, true]) {
      const client = createAudienceClient({ baseUrl: api.url, credentials, partnerId });
      if (loaded) await client.GET("/events/{eid}", read);
      expect(() => client.use(5 as never)).toThrow(/middleware/i);
      expect(() => client.use({} as never)).toThrow(/middleware/i);
      client.use(undefined as never); // openapi-fetch skips an empty slot
      const seen: string[] = [];
      client.use({
        onRequest: ({ request }) => {
          seen.push(request.url);
          return undefined;
        },
      });
      expect((await client.GET("/events/{eid}", read)).response.status).toBe(200);
      expect(seen, loaded ? "loaded" : "before load").toHaveLength(1);
    }
  });
});
