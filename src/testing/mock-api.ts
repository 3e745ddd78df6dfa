/**
 * `startMockApi`: Prism on a private port for the description's answers, and the stateful front
 * (mock-server.ts) on the public one. Stops on `close()`, on an error while starting, and with the
 * process that started it (prism-child.ts).
 */
import { headerValueIssue } from "../guards/header-value.ts";
import { hasControlCharacter } from "../guards/path-params.ts";
import { SPEC } from "../limits.ts";
import { requiredFieldsOf } from "./drift.ts";
import { DEFAULT_EVENTS } from "./event-data.ts";
import { MockServer } from "./mock-server.ts";
import { descriptionPath, startPrismBackend } from "./prism.ts";
import type { RecordedRequest } from "./recorded-request.ts";
import type { ScenarioName, ScenarioOptions } from "./scenario-types.ts";
import { type ScenarioContext, scenarioFaults } from "./scenarios.ts";

/** A running mock of the API. */
export interface MockApi {
  /** Pass as `baseUrl`: `http://127.0.0.1:<port>/api/v3` (the base address includes the version segment, Section 1, 9). */
  readonly baseUrl: string;
  /** The media host, `http://127.0.0.1:<port>/api/media`: what the client derives from `baseUrl` by default. */
  readonly mediaUrl: string;
  /** A username and password that sign in (any non-empty pair does; Section 5.1). */
  readonly credentials: Readonly<{
    /** The username to sign in with. */
    username: string;
    /** Its password (the mock accepts any non-empty one). */
    password: string;
  }>;
  /** The partner the mock serves: its IdTokens' groups claim names it (Section 5.3). */
  readonly partnerId: string;
  /** The scenario in force. */
  readonly scenario: ScenarioName;
  /** Switches to another scenario from the next request on, with a fresh seeded sequence; the state stays. */
  useScenario(name: ScenarioName, options?: ScenarioOptions): void;
  /** Every request received since the start or the last `reset()`, in order of arrival (copies). */
  requests(): RecordedRequest[];
  /** Clears the state (setups, campaigns, tokens) and the log, and restarts the scenario's sequence. */
  reset(): void;
  /** Stops the mock; resolves once it has exited. Calling it again does nothing. */
  close(): Promise<void>;
}

/** Options of {@link startMockApi}. */
export interface MockApiOptions {
  /** Another description file to serve. @default the package's generated/openapi.json */
  description?: string;
  /** How long to wait for Prism to listen. @default 30000 */
  startTimeoutMs?: number;
  /** The scenario to start with. @default "healthy" */
  scenario?: ScenarioName;
  /** The scenario's seed (wins over `scenarioOptions.seed`). @default 1 */
  seed?: number;
  /** The scenario's other options. */
  scenarioOptions?: ScenarioOptions;
  /** The partner the mock serves. @default "partner-id-demo-tickets" (the description's example) */
  partnerId?: string;
  /**
   * Whether setups, campaigns and tokens keep state (Section 3, 5). `false` answers every call from
   * the description's examples, as Prism alone does: for contract tests of the description itself.
   * @default true
   */
  stateful?: boolean;
  /**
   * How many events GET /events/ pages through (`evt-1001` on; the description's three examples
   * first). Any other event id reads as a plausible event too. @default 120 (page 2 exists at the
   * client's default page of 100)
   */
  events?: number;
}

const refuse = (option: string, problem: string): never => {
  throw new TypeError(`startMockApi option "${option}" ${problem}`);
};

/**
 * The options, each of a type it can have, checked before Prism starts (a child process and
 * seconds). Null is no options, as for every helper of the package. `events`, the scenario and its
 * options are checked by their own code below.
 */
function checkedOptions(given: MockApiOptions | null): MockApiOptions {
  if (given === null) return {};
  if (typeof given !== "object" || Array.isArray(given)) throw new TypeError("startMockApi options must be an object");
  const { description, startTimeoutMs, partnerId, stateful, scenarioOptions } = given;
  if (description !== undefined && (typeof description !== "string" || !description.trim()))
    refuse("description", "must be the path of a description file");
  if (startTimeoutMs !== undefined && !(Number.isSafeInteger(startTimeoutMs) && startTimeoutMs > 0))
    refuse("startTimeoutMs", `must be a whole number of ms from 1 (got ${String(startTimeoutMs)})`);
  // It becomes a claim of the tokens the mock mints and the header the client sends: the client's
  // own rule for a partner id (Section 5.5), so a mock never serves a partner no client can name.
  if (
    partnerId !== undefined &&
    (typeof partnerId !== "string" ||
      !partnerId ||
      /\s/.test(partnerId) ||
      hasControlCharacter(partnerId) ||
      headerValueIssue(partnerId))
  )
    refuse("partnerId", "must be a non-empty partner id of header text, without whitespace or control characters");
  if (stateful !== undefined && typeof stateful !== "boolean") refuse("stateful", "must be true or false");
  if (scenarioOptions !== undefined && (typeof scenarioOptions !== "object" || scenarioOptions === null))
    refuse("scenarioOptions", "must be an object");
  return given;
}

const seedOf = (options: MockApiOptions) => (options.seed !== undefined ? { seed: options.seed } : {});

const CREDENTIALS = Object.freeze({ username: "demo", password: "demo-password" });

/**
 * Starts the mock on a free 127.0.0.1 port: Prism serving the package's merged description with its
 * examples, behind a front that keeps the state of setups, campaigns and sessions, plays the
 * scenario and logs every request. Any bearer token is accepted (the mock's own expire); a call
 * without one gets the description's 401. Stopped by `close()`, and with the process however it ends.
 *
 * @example
 * const api = await startMockApi({ scenario: "rate-limit-storm", seed: 7 });
 * const client = createAudienceClient({ baseUrl: api.baseUrl, credentials: api.credentials });
 * // … your code runs against it …
 * expectSpacedRetries(api.requests());
 * await api.close();
 */
export async function startMockApi(options: MockApiOptions = {}): Promise<MockApi> {
  return start(checkedOptions(options));
}

/** The mock, with `options` checked. */
async function start(options: MockApiOptions): Promise<MockApi> {
  const events = options.events ?? DEFAULT_EVENTS;
  if (!Number.isSafeInteger(events) || events < 0)
    throw new RangeError(`startMockApi option "events" must be a whole number from 0 (got ${String(options.events)})`);
  // Checked before Prism starts: a wrong scenario or option costs no child process.
  scenarioFaults(
    options.scenario ?? "healthy",
    { ...options.scenarioOptions, ...seedOf(options) },
    {
      partnerId: "",
      required: () => [],
    },
  );
  const description = options.description ?? descriptionPath();
  const prism = await startPrismBackend({
    description,
    ...(options.startTimeoutMs !== undefined ? { startTimeoutMs: options.startTimeoutMs } : {}),
  });
  const context: ScenarioContext = {
    partnerId: options.partnerId ?? "partner-id-demo-tickets",
    required: requiredFieldsOf(description),
  };
  let scenario: ScenarioName = options.scenario ?? "healthy";
  let scenarioOptions: ScenarioOptions = {
    ...options.scenarioOptions,
    ...seedOf(options),
  };
  let mock: MockServer;
  let port: number;
  try {
    mock = new MockServer(
      { prismPort: prism.port, partnerId: context.partnerId, stateful: options.stateful ?? true, events },
      scenarioFaults(scenario, scenarioOptions, context),
    );
    port = await mock.listen();
  } catch (error) {
    await prism.stop();
    throw error;
  }
  let closed: Promise<void> | undefined;
  const origin = `http://127.0.0.1:${port}`;
  return {
    baseUrl: `${origin}${SPEC.apiVersionPath}`,
    mediaUrl: `${origin}${SPEC.mediaPath}`,
    credentials: CREDENTIALS,
    partnerId: context.partnerId,
    get scenario() {
      return scenario;
    },
    useScenario(name, next = {}) {
      mock.faults = scenarioFaults(name, next, context);
      scenario = name;
      scenarioOptions = next;
    },
    requests: () => mock.log.list(),
    reset() {
      mock.state.clear();
      mock.log.clear();
      mock.faults = scenarioFaults(scenario, scenarioOptions, context);
    },
    close: () => {
      closed ??= Promise.all([mock.close(), prism.stop()]).then(() => undefined);
      return closed;
    },
  };
}
