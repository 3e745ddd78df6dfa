/**
 * `npm run demo`: starts Prism on the merged description (free port, nothing to configure), runs
 * examples/quickstart.ts against it and stops Prism — on success, on failure and on Ctrl-C.
 * `npm run demo -- --base-url <url>` runs the same script against a real environment, with
 * AI_USERNAME, AI_PASSWORD and optionally AI_PARTNER_ID, AI_MEDIA_URL, AI_AD_PLATFORM from the
 * environment.
 */
import { parseArgs } from "node:util";
import { quickstart } from "../examples/quickstart.ts";
import { terminalSafe } from "../src/internal/terminal-text.ts";
import { type MockApi, startMockApi } from "../src/testing/index.ts";

const { values } = parseArgs({ options: { "base-url": { type: "string" } } });
let mock: MockApi | undefined;

async function stop(code: number): Promise<never> {
  await mock?.close();
  process.exit(code);
}
process.on("SIGINT", () => void stop(130));
process.on("SIGTERM", () => void stop(143));

async function main(): Promise<void> {
  const env = process.env;
  if (values["base-url"]) {
    if (!env.AI_USERNAME || !env.AI_PASSWORD)
      throw new Error("--base-url needs AI_USERNAME and AI_PASSWORD in the environment");
    console.log(`Running against ${values["base-url"]}`);
    await quickstart({
      baseUrl: values["base-url"],
      credentials: { username: env.AI_USERNAME, password: env.AI_PASSWORD },
      ...(env.AI_PARTNER_ID ? { partnerId: env.AI_PARTNER_ID } : {}),
      ...(env.AI_MEDIA_URL ? { mediaUrl: env.AI_MEDIA_URL } : {}),
      ...(env.AI_AD_PLATFORM ? { adPlatform: env.AI_AD_PLATFORM } : {}),
    });
  } else {
    // The same mock consumers get from @audience-intelligence/client/testing.
    mock = await startMockApi();
    console.log(`Prism mock of generated/openapi.json on ${mock.baseUrl}`);
    await quickstart({
      baseUrl: mock.baseUrl,
      mediaUrl: mock.mediaUrl,
      credentials: { username: "demo", password: "demo-password" },
    });
  }
}

main().then(
  () => stop(0),
  (error: unknown) => {
    // The message may quote the server: control and bidi characters are escaped.
    console.error(`\ndemo failed: ${terminalSafe(error instanceof Error ? error.message : String(error))}`);
    return stop(1);
  },
);
