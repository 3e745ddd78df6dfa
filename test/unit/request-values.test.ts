/**
 * What becomes URL or header text is checked where it enters: each case is a
 * ValidationError naming the field, nothing is sent, and the client stays usable.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createAudienceClient, ValidationError } from "../../src/index.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";

let api: FakeApi;
afterEach(() => api?.close());

const credentials = { username: "ops@acme.test", password: "pw-values-secret" };
const cyclic: unknown[] = [];
cyclic.push(cyclic);

const cases: Array<[string, (c: ReturnType<typeof createAudienceClient>) => Promise<unknown>, string]> = [
  [
    "a lone surrogate in a path id",
    (c) => c.GET("/events/{eid}", { params: { path: { eid: "ev\uD800t" } } }),
    "params.path.eid",
  ],
  ["a lone surrogate in a raw path", (c) => c.GET("/events/\uDC00x" as never, {} as never), "path"],
  [
    "a lone surrogate in a free-form query value",
    (c) => c.POST("/campaigns/", { params: { query: { params: { name: "launch\uD83D" } } } as never }),
    "query.params.name",
  ],
  [
    "a Date in a free-form query object",
    (c) => c.POST("/campaigns/", { params: { query: { params: { start: new Date() } } } as never }),
    "query.params.start",
  ],
  [
    "a Date on a path outside the description (dropped in silence before)",
    (c) => c.GET("/reports/daily" as never, { params: { query: { since: new Date() } } } as never),
    "query.since",
  ],
  [
    "a Map on a path outside the description",
    (c) => c.GET("/reports/daily" as never, { params: { query: { filter: new Map([["a", 1]]) } } } as never),
    "query.filter",
  ],
  [
    "a Map as a query value",
    (c) => c.GET("/events/", { params: { query: { page: new Map() as never } } }),
    "query.page",
  ],
  [
    "a nested object",
    (c) => c.POST("/campaigns/", { params: { query: { params: { a: { b: 1 } } } } as never }),
    "query.params.a",
  ],
  ["a cyclic array", (c) => c.GET("/events/", { params: { query: { page: cyclic as never } } }), "query.page.0"],
  ["NaN", (c) => c.GET("/events/", { params: { query: { page: Number.NaN } } }), "query.page"],
  [
    "a header value outside Latin-1",
    (c) => c.GET("/events/{eid}", { params: { path: { eid: "e1" } }, headers: { "x-trace": "caf\u00e9\u20ac" } }),
    "headers.x-trace",
  ],
  [
    "a header value with CR LF",
    (c) => c.GET("/events/{eid}", { params: { path: { eid: "e1" } }, headers: { "x-trace": "a\r\nb: c" } }),
    "headers.x-trace",
  ],
  // A name that is not an HTTP token (RFC 9110, Section 5.6.2): the runtime's Headers threw a raw TypeError.
  // The issue names the headers, not the name: a pasted "Authorization: Bearer …" line is a secret.
  ...(["bad name", "", "x:y", "x\u00e9", "x\r\ny"] as const).flatMap(
    (name): Array<[string, (c: ReturnType<typeof createAudienceClient>) => Promise<unknown>, string]> => [
      [
        `a header name ${JSON.stringify(name)} in headers`,
        (c) => c.GET("/events/{eid}", { params: { path: { eid: "e1" } }, headers: { [name]: "v" } }),
        "headers",
      ],
      [
        `a header name ${JSON.stringify(name)} in params.header`,
        (c) => c.GET("/events/{eid}", { params: { path: { eid: "e1" }, header: { [name]: "v" } } as never }),
        "header",
      ],
    ],
  ),
  // openapi-fetch reads headers with Object.entries: a Map's (or another library's Headers') were dropped in silence.
  [
    "headers as a Map",
    (c) => c.GET("/events/{eid}", { params: { path: { eid: "e1" } }, headers: new Map([["x-trace", "t1"]]) as never }),
    "headers",
  ],
  [
    "headers as URLSearchParams",
    (c) =>
      c.GET("/events/{eid}", { params: { path: { eid: "e1" } }, headers: new URLSearchParams("x-trace=t1") as never }),
    "headers",
  ],
  [
    "params.header as a Map",
    (c) => c.GET("/events/{eid}", { params: { path: { eid: "e1" }, header: new Map([["x-trace", "t1"]]) } as never }),
    "header",
  ],
  // Pairs are checked as the pairs they are (openapi-fetch read them with Object.entries, as headers "0", "1"…).
  ...(
    [
      ["a name that is not a token", [["bad name", "v"]]],
      ["no value", [["x-trace"]]],
      ["a third item", [["x-trace", "t1", "t2"]]],
      ["a value with CR LF", [["x-trace", "a\r\nb: c"]]],
      ["an undefined value", [["x-trace", undefined]]],
      ["an entry that is not a pair", ["x-trace: t1"]],
    ] as const
  ).map(([name, headers]): [string, (c: ReturnType<typeof createAudienceClient>) => Promise<unknown>, string] => [
    `a header pair with ${name}`,
    (c) => c.GET("/events/{eid}", { params: { path: { eid: "e1" } }, headers: headers as never }),
    "headers.0",
  ]),
  [
    "an array in params.header",
    (c) => c.GET("/events/{eid}", { params: { path: { eid: "e1" }, header: [["x-trace", "t1"]] } as never }),
    "header",
  ],
];

describe("values that become URL or header text", () => {
  it.each(cases)("%s is a ValidationError naming the field; nothing sent", async (_name, call, field) => {
    api = await startFakeApi();
    const client = createAudienceClient({ baseUrl: api.url, credentials });
    const error = await call(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((i) => i.field)).toContain(field);
    expect(api.requests).toHaveLength(0);
    expect((await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } })).response.status).toBe(200);
  });
});

describe("header pairs", () => {
  it("are sent as the Fetch standard reads them: each pair a header, a repeated name joined", async () => {
    api = await startFakeApi();
    const client = createAudienceClient({ baseUrl: api.url, credentials });
    const headers: [string, string][] = [
      ["x-trace", "t1"],
      ["X-Trace", "t2"],
      ["x-span", "s1"],
    ];
    const result = await client.GET("/events/{eid}", { params: { path: { eid: "e1" } }, headers });
    expect(result.response.status).toBe(200);
    const [sent] = api.calls();
    expect([sent?.headers["x-trace"], sent?.headers["x-span"], sent?.headers["0"]]).toEqual([
      "t1, t2",
      "s1",
      undefined,
    ]);
  });
});

/** What createAudienceClient throws for the `headers` option `headers`; undefined if nothing. */
function optionRefusal(headers: Record<string, string>): unknown {
  try {
    createAudienceClient({ baseUrl: "http://127.0.0.1:9/api/v3", credentials, headers });
  } catch (e) {
    return e;
  }
  return undefined;
}

describe("the headers option", () => {
  it.each(["bad name", "", "x:y", "x\u00e9"])(
    "a header name %j throws from createAudienceClient, naming the option (the runtime threw on every call)",
    (name) => {
      const error = optionRefusal({ [name]: "v" });
      // Options are refused as every option is (options/checks.ts): a TypeError naming the option.
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).toContain(`option "headers" has a name that is not a header name`);
    },
  );
});

describe("a name or key that is not a plain name is not repeated (it may hold a secret)", () => {
  const secret = "sk_live_0123456789abcdef";
  const line = `Authorization: Bearer ${secret}`;
  const texts = (error: unknown) =>
    [String(error), (error as Error).message, JSON.stringify((error as ValidationError).issues)].join("\n");
  it.each([
    ["a header line as a header's name", { headers: { [line]: "" } }, "headers"],
    ["…in params.header", { params: { path: { eid: "e1" }, header: { [line]: "" } } }, "header"],
    [
      "a query line as a query key (with a bad value)",
      { params: { path: { eid: "e1" }, query: { [`token=${secret}`]: new Date() } } },
      "query",
    ],
    [
      "…inside a parameter object",
      { params: { path: { eid: "e1" }, query: { p: { [`token=${secret}`]: new Date() } } } },
      "query.p",
    ],
    [
      "a parameter object under such a key, with a limit over the cap",
      { params: { path: { eid: "e1" }, query: { [`token=${secret}`]: { limit: 10_000 } } } },
      "query",
    ],
  ])("%s: refused, the key not repeated", async (_name, init, field) => {
    api = await startFakeApi();
    const client = createAudienceClient({ baseUrl: api.url, credentials });
    const error = await client.GET("/events/{eid}", init as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((i) => i.field)).toContain(field);
    expect(texts(error)).not.toContain(secret);
    expect(api.requests).toHaveLength(0);
  });

  it("the headers option as a Map: refused naming the option (its entries were dropped in silence)", () => {
    expect(() =>
      createAudienceClient({
        baseUrl: "http://127.0.0.1:9/api/v3",
        credentials,
        headers: new Map([["x-app", "dash"]]) as never,
      }),
    ).toThrow(/option "headers" must be a Headers object or a plain object/);
  });

  it("the headers option: refused naming the option, the name not repeated", () => {
    const error = optionRefusal({ [line]: "" });
    expect(error).toBeInstanceOf(TypeError);
    expect(String(error)).not.toContain(secret);
  });
});
