/**
 * A person says yes (MCP elicitation, form mode) before a draft is cancelled or published, and the
 * yes is bound to what they were shown: the event and the draft's goal, budget and dates as the
 * API holds them. Every other path — decline, cancel, an accepted form without the yes, an error,
 * no answer, a draft changed meanwhile — ends with nothing sent. Over stdio against the bin and the
 * mock, but for no answer, which runs the server in process with a short question timeout.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { type CallToolResult, ElicitRequestSchema, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createAudienceClient } from "../../src/index.ts";
import { createMcpServer } from "../../src/mcp/index.ts";
import { type MockApi, startMockApi } from "../../src/testing/index.ts";
import { type Connected, connect, type Person, textOf } from "./stdio-server.ts";

const DRAFT = {
  goal: "ROAS" as const,
  total_budget: 1500,
  start_date: "2027-05-01",
  end_date: "2027-05-31",
  tc_run_id: 42,
};
const YES: ElicitResult = { action: "accept", content: { yes: true } };

let api: MockApi;
let s: Connected;
let person: Person = () => YES;
let answeredAt = 0;
beforeAll(async () => {
  api = await startMockApi();
  s = await connect({
    baseUrl: api.baseUrl,
    flags: ["--allow-writes", "--allow-publish"],
    person: async (message) => {
      const answer = await person(message);
      answeredAt = Date.now();
      return answer;
    },
  });
}, 60_000);
afterAll(async () => {
  await s?.close();
  await api?.close();
});
beforeEach(() => {
  api.useScenario("healthy");
  person = () => YES;
  s.asked.length = 0;
});

// The requests since the draft was saved (api.reset() would clear the mock's drafts too).
let from = 0;
const since = () => api.requests().slice(from);
const boosts = () => since().filter((r) => r.path.endsWith("/boost"));
const deletes = () => since().filter((r) => r.method === "DELETE");
async function drafted(eid: string): Promise<void> {
  const saved = await s.call("save_draft", { eid, draft: DRAFT });
  expect(saved.isError, textOf(saved)).toBeFalsy();
  from = api.requests().length;
}

describe("publish_setup", () => {
  it("asks with the event and the draft's goal, budget and dates, then publishes once, after the yes, and says a 2xx proves no campaign", async () => {
    await drafted("evt-pub");
    const result = await s.call("publish_setup", { eid: "evt-pub" });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(s.asked).toHaveLength(1);
    expect(s.asked[0]).toMatch(/Publish the campaigns of event "[^"]+" \(evt-pub\)\? This starts paid campaigns/);
    expect(s.asked[0]).toMatch(/goal ROAS, total budget 1500, from 2027-05-01 to 2027-05-31/);
    expect(boosts()).toHaveLength(1);
    expect(boosts()[0]?.startedAt).toBeGreaterThanOrEqual(answeredAt - 5);
    expect(result.structuredContent).toMatchObject({ published: true, answer: "yes", taskId: expect.any(String) });
    expect(textOf(result)).toMatch(/A 2xx does not prove the campaigns exist on the ad platform \(Section 3\)/);
    const status = since().findIndex((r) => r.path === "/integrations/connect/adplatform-test/status");
    expect(status).toBeGreaterThan(since().indexOf(boosts()[0] as never));
  }, 60_000);

  const refusals: Array<[string, Person, RegExp]> = [
    ["declines", () => ({ action: "decline" }), /Not published \(declined\); nothing was sent/],
    ["cancels", () => ({ action: "cancel" }), /Not published \(cancelled\); nothing was sent/],
    ["accepts without the yes", () => ({ action: "accept", content: { yes: false } }), /Not published \(declined\)/],
    ["accepts an empty form", () => ({ action: "accept", content: {} }), /Not published \(no answer\)/],
    [
      "fails to ask",
      () => {
        throw new Error("no one at the keyboard");
      },
      /Not published \(no answer\)/,
    ],
  ];
  it.each(refusals)(
    "publishes nothing when the person %s",
    async (_what, answer, text) => {
      await drafted("evt-no");
      person = answer;
      const result = await s.call("publish_setup", { eid: "evt-no" });
      expect(s.asked).toHaveLength(1);
      expect(textOf(result)).toMatch(text);
      expect(result.structuredContent).toMatchObject({ published: false });
      expect(boosts()).toEqual([]);
      expect(since().every((r) => r.method === "GET")).toBe(true);
    },
    60_000,
  );

  it("does not publish a draft changed between the question and the answer", async () => {
    await drafted("evt-changed");
    const other = createAudienceClient({ baseUrl: api.baseUrl, credentials: api.credentials });
    person = async () => {
      // Someone (the agent itself, another tab) raises the budget while the person reads the question.
      await other.setupProcess("evt-changed").load();
      await other.setupProcess("evt-changed").update({ ...DRAFT, total_budget: 150_000 });
      return YES;
    };
    const result = await s.call("publish_setup", { eid: "evt-changed" });
    expect(textOf(result)).toMatch(
      /Not published: the draft changed after the person was asked \(now goal ROAS, total budget 150000/,
    );
    expect(result.structuredContent).toMatchObject({ published: false });
    expect(boosts()).toEqual([]);
  }, 60_000);

  it("asks nothing and sends nothing when there is no draft", async () => {
    from = api.requests().length;
    const result = await s.call("publish_setup", { eid: "evt-nodraft" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/is none: there is no draft to publish; nothing was sent/);
    expect(s.asked).toEqual([]);
    expect(boosts()).toEqual([]);
  }, 60_000);
});

describe("cancel_draft", () => {
  it("deletes the draft after the yes, and nothing after a decline", async () => {
    await drafted("evt-cancel");
    person = () => ({ action: "decline" });
    const declined = await s.call("cancel_draft", { eid: "evt-cancel" });
    expect(textOf(declined)).toMatch(/Not cancelled \(declined\); nothing was sent/);
    expect(deletes()).toEqual([]);
    expect(s.asked[0]).toMatch(
      /Cancel \(delete\) the campaign draft of event "[^"]+" \(evt-cancel\)\?.*total budget 1500/,
    );
    person = () => YES;
    const accepted = await s.call("cancel_draft", { eid: "evt-cancel" });
    expect(accepted.structuredContent).toMatchObject({ cancelled: true, answer: "yes" });
    expect(deletes()).toHaveLength(1);
  }, 60_000);
});

describe("no answer", () => {
  it("publishes nothing when the person does not answer within the question's time", async () => {
    await drafted("evt-silent");
    const server = createMcpServer({
      client: { baseUrl: api.baseUrl, credentials: api.credentials },
      allowPublish: true,
      confirmTimeoutMs: 500,
    });
    const client = new Client({ name: "silent", version: "1.0.0" }, { capabilities: { elicitation: { form: {} } } });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params.message);
      return new Promise<ElicitResult>(() => undefined); // nobody answers
    });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(a), client.connect(b)]);
    try {
      const result = (await client.callTool({
        name: "publish_setup",
        arguments: { eid: "evt-silent" },
      })) as CallToolResult;
      expect(asked).toHaveLength(1);
      expect(textOf(result)).toMatch(/Not published \(no answer\); nothing was sent/);
      expect(boosts()).toEqual([]);
    } finally {
      await client.close();
      await server.close();
    }
  }, 60_000);
});
