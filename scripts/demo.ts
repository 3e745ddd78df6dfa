/**
 * `npm run demo`: starts the mock of @audience-intelligence/client/testing (Prism on the merged
 * description, free port, nothing to configure), runs examples/quickstart.ts against it and stops
 * the mock — on success, on failure and on Ctrl-C. `--scenario <name>` makes the mock play one of
 * the API's bad days, and the demo prints what the client does about it as it happens: each retry
 * with its reason and wait, a call that needed more than one attempt, and the partner's pace
 * (`client.rateState()`) when it changes. `--base-url <url>` runs the same script against a real
 * environment, with AI_USERNAME, AI_PASSWORD and optionally AI_PARTNER_ID, AI_MEDIA_URL,
 * AI_AD_PLATFORM from the environment.
 */
import { parseArgs } from "node:util";
import { quickstart } from "../examples/quickstart.ts";
import type { AudienceClient, Logger } from "../src/index.ts";
import { terminalSafe } from "../src/internal/terminal-text.ts";
import { type MockApi, SCENARIOS, type ScenarioName, startMockApi } from "../src/testing/index.ts";
import { terminalPrinter } from "./demo-print.ts";

const USAGE = `Usage: npm run demo -- [options]

Runs examples/quickstart.ts (sign in, events, a benchmark, suggested clusters, a draft autosaved
and published, campaign results) against the embedded mock of the API, and shows what the client
does as it happens: retries and their waits, and the partner's pace.

Options:
  --scenario <name>   the mock plays one of the API's bad days (default: healthy); one of
                      ${SCENARIOS.join(", ")}
                      (docs/TESTING.md says what each does)
  --seed <n>          the scenario's seed, a whole number (default: 1): the same seed, the same run
  --base-url <url>    run against a real environment instead, with AI_USERNAME and AI_PASSWORD
                      (and optionally AI_PARTNER_ID, AI_MEDIA_URL, AI_AD_PLATFORM) from the environment
  -h, --help          print this and exit
`;

class UsageError extends Error {}

function options() {
  try {
    const { values } = parseArgs({
      options: {
        help: { type: "boolean", short: "h" },
        scenario: { type: "string" },
        seed: { type: "string" },
        "base-url": { type: "string" },
      },
    });
    const scenario = values.scenario ?? "healthy";
    if (!Object.hasOwn(Object.fromEntries(SCENARIOS.map((s) => [s, true])), scenario))
      throw new UsageError(`Unknown scenario "${scenario}": one of ${SCENARIOS.join(", ")}`);
    const seed = values.seed === undefined ? 1 : Number(values.seed);
    if (!/^\d+$/.test(values.seed ?? "1") || !Number.isSafeInteger(seed))
      throw new UsageError(`--seed must be a whole number (got ${values.seed})`);
    return { ...values, scenario: scenario as ScenarioName, seed };
  } catch (error) {
    throw error instanceof UsageError ? error : new UsageError((error as Error).message);
  }
}

let mock: MockApi | undefined;
async function stop(code: number): Promise<never> {
  await mock?.close();
  process.exit(code);
}
process.on("SIGINT", () => void stop(130));
process.on("SIGTERM", () => void stop(143));

/** What the client does, printed as it happens; the pace line whenever the partner's rate state changes. */
function narrator(): { logger: Logger; watch(client: AudienceClient): void } {
  let client: AudienceClient | undefined;
  let pace = "";
  const line = (text: string) => console.log(`  ${terminalSafe(text)}`);
  const showPace = () => {
    if (!client) return;
    const s = client.rateState();
    const now = [
      `at most ${s.concurrencyLimit} calls at once`,
      s.pace === null ? "" : `${s.pace.toFixed(1)} calls/s`,
      s.coolDownUntil === null ? "" : `cooling down ${Math.max(0, s.coolDownUntil - Date.now())} ms`,
    ]
      .filter(Boolean)
      .join(", ");
    if (now !== pace) line(`⏱ pace: ${now}`);
    pace = now;
  };
  const logger: Logger = {
    info(message, d = {}) {
      if (message === "retrying")
        line(`↻ retry ${d.method} ${d.path} after ${d.reason}: attempt ${d.nextAttempt} in ${d.waitMs} ms`);
      else line(`· ${message}`);
      showPace();
    },
    warn(message, d = {}) {
      line(`! ${message}${d.method ? ` (${d.method} ${d.path}${d.error ? `: ${d.error}` : ""})` : ""}`);
      showPace();
    },
    debug(message, d = {}) {
      if (message === "request end" && Number(d.attempts) > 1)
        line(`✓ ${d.method} ${d.path}: HTTP ${d.status} after ${d.attempts} attempts, ${Math.round(Number(d.ms))} ms`);
    },
  };
  const watch = (c: AudienceClient) => {
    client = c;
  };
  return { logger, watch };
}

async function main(): Promise<void> {
  const args = options();
  if (args.help) {
    process.stdout.write(USAGE);
    return;
  }
  const env = process.env;
  const { logger, watch } = narrator();
  if (args["base-url"]) {
    if (!env.AI_USERNAME || !env.AI_PASSWORD)
      throw new UsageError("--base-url needs AI_USERNAME and AI_PASSWORD in the environment");
    console.log(`Running against ${args["base-url"]}`);
    await quickstart(
      {
        baseUrl: args["base-url"],
        credentials: { username: env.AI_USERNAME, password: env.AI_PASSWORD },
        logger,
        ...(env.AI_PARTNER_ID ? { partnerId: env.AI_PARTNER_ID } : {}),
        ...(env.AI_MEDIA_URL ? { mediaUrl: env.AI_MEDIA_URL } : {}),
        ...(env.AI_AD_PLATFORM ? { adPlatform: env.AI_AD_PLATFORM } : {}),
      },
      terminalPrinter,
      watch,
    );
    return;
  }
  // The same mock consumers get from @audience-intelligence/client/testing.
  mock = await startMockApi({ scenario: args.scenario, seed: args.seed });
  console.log(`Mock of generated/openapi.json on ${mock.baseUrl}, scenario ${args.scenario} (seed ${args.seed})`);
  await quickstart(
    { baseUrl: mock.baseUrl, mediaUrl: mock.mediaUrl, credentials: mock.credentials, logger },
    terminalPrinter,
    watch,
  );
}

main().then(
  () => stop(0),
  (error: unknown) => {
    // The message may quote the server: control and bidi characters are escaped.
    const message = terminalSafe(error instanceof Error ? error.message : String(error));
    if (error instanceof UsageError) {
      console.error(`demo: ${message}\nSee: npm run demo -- --help`);
      return stop(2);
    }
    console.error(`\ndemo failed: ${message}`);
    return stop(1);
  },
);
