/**
 * The mock's front: a node:http server on 127.0.0.1 that owns the state, the scenario and the
 * request log, and asks Prism for everything else. Per request: log it, hold it back
 * (slow-upstream), let the scenario answer instead (429, 5xx, 403), refuse an expired token, ask
 * Prism (which validates it against the description), answer from the state where the life cycle
 * needs it, let the scenario alter the answer (drift) or drop it (reset-after-write), and send it
 * with `x-request-id` and the server's `Date` (Section 1, 7).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Answer } from "./answer.ts";
import { seedEvents } from "./event-data.ts";
import { listEvents, readEvent, readForecast } from "./event-routes.ts";
import type { Faults } from "./faults.ts";
import { readIncoming } from "./incoming-request.ts";
import { MockState } from "./mock-state.ts";
import { askPrism } from "./prism-proxy.ts";
import { preciseNow } from "./recorded-request.ts";
import { RequestLog } from "./request-log.ts";
import type { Route, RouteContext } from "./route-context.ts";
import { expiredToken, refresh, signIn } from "./session-routes.ts";
import { createCampaign, editPublished, listCampaigns, setupProcess } from "./setup-routes.ts";

const ROUTES: readonly Route[] = [
  signIn,
  refresh,
  setupProcess,
  editPublished,
  createCampaign,
  listCampaigns,
  listEvents,
  readEvent,
  readForecast,
];

export interface MockServerOptions {
  readonly prismPort: number;
  readonly partnerId: string;
  /** Whether the state answers (false: every answer from the description, as Prism gives it). */
  readonly stateful: boolean;
  /** How many events the mock has. */
  readonly events: number;
}

export class MockServer {
  readonly state = new MockState();
  readonly log = new RequestLog();
  faults: Faults;
  readonly #options: MockServerOptions;
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly server: Server;

  constructor(options: MockServerOptions, faults: Faults) {
    this.#options = options;
    this.faults = faults;
    this.state.partners = [options.partnerId];
    this.state.events = seedEvents(options.events);
    this.server = createServer((req, res) => void this.#handle(req, res));
  }

  /** Listens on a free 127.0.0.1 port and returns it. */
  async listen(): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(0, "127.0.0.1", () => resolve());
    });
    this.server.unref(); // like Prism: a test run that forgets close() does not hang on the mock
    return (this.server.address() as { port: number }).port;
  }

  async close(): Promise<void> {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    this.server.closeAllConnections();
    await new Promise((done) => this.server.close(() => done(undefined)));
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#timers.delete(timer);
        resolve();
      }, ms);
      this.#timers.add(timer);
    });
  }

  /** Never rejects: whatever a test sends, the mock answers or closes, and goes on. */
  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const faults = this.faults; // the scenario in force when the request arrived
    try {
      await this.#serve(req, res, faults);
    } catch (error) {
      const body = `mock: ${error instanceof Error ? error.message : String(error)}`;
      send(res, { status: 502, headers: { "content-type": "text/plain" }, body }, "mock-error", Date.now());
    }
  }

  async #serve(req: IncomingMessage, res: ServerResponse, faults: Faults): Promise<void> {
    const incoming = await readIncoming(req, this.state);
    const requestId = this.log.nextId();
    const close = this.log.open({ ...incoming.record, requestId });
    const serverNow = () => Date.now() + faults.skewMs;
    if (incoming.refused) {
      send(res, incoming.refused, requestId, serverNow());
      return close(incoming.refused.status, preciseNow());
    }
    const { request, url, raw, body, token } = incoming;
    try {
      if (faults.delayMs > 0) await this.#sleep(faults.delayMs);
      const context = { method: request.method, path: request.path, query: url.searchParams, body, token, faults };
      let answer = faults.instead(request) ?? (await this.#answer(context, req, raw, url));
      answer = faults.alter(request, answer);
      if (answer.status < 300 && faults.dropAnswer(request)) {
        req.socket.destroy(); // Section 3 rule 3: committed, but the client never hears of it
        return close(0, preciseNow());
      }
      // Stateless, the description's own x-request-id is kept (its contract tests read it).
      const id = (!this.#options.stateful && answer.headers["x-request-id"]) || requestId;
      send(res, answer, id, serverNow());
      close(answer.status, preciseNow(), id);
    } catch (error) {
      send(
        res,
        { status: 502, headers: { "content-type": "text/plain" }, body: `mock: ${String(error)}` },
        requestId,
        serverNow(),
      );
      close(502, preciseNow());
    }
  }

  async #answer(
    partial: Omit<RouteContext, "prism" | "state" | "partnerId" | "serverNow">,
    req: IncomingMessage,
    raw: Buffer,
    url: URL,
  ): Promise<Answer> {
    const serverNow = Date.now() + partial.faults.skewMs;
    if (this.#options.stateful) {
      const expired = expiredToken(partial.token, this.state.accessTokens, serverNow);
      if (expired) return expired;
    }
    const prism = await askPrism(
      this.#options.prismPort,
      partial.method,
      `${partial.path}${url.search}`,
      req.headers,
      raw,
    );
    if (prism.status >= 300 || !this.#options.stateful) return prism;
    const context: RouteContext = {
      ...partial,
      prism,
      state: this.state,
      partnerId: this.#options.partnerId,
      serverNow,
    };
    for (const route of ROUTES) {
      const answer = route(context);
      if (answer) return answer;
    }
    return prism;
  }
}

function send(res: ServerResponse, answer: Answer, requestId: string, serverNow: number): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(answer.status, {
    ...answer.headers,
    "x-request-id": requestId,
    date: new Date(serverNow).toUTCString(),
    "content-length": String(Buffer.byteLength(answer.body)),
  });
  res.end(answer.body);
}
