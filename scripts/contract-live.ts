/**
 * `npm run contract:live -- --upstream <base url>`: runs the read-only calls against a real
 * environment and reports each drift — where the service and the description disagree — as a
 * table of operation, request id and violation. Exits 1 when there is any. Drift is what the
 * client's `onDrift` reports (src/drift/check-drift.ts): one definition, here with every response
 * checked (`driftSampleRate: 1`).
 *
 * Environment: AI_USERNAME, AI_PASSWORD (required); AI_PARTNER_ID, AI_EID (an event to read;
 * default: the first listed), AI_AD_PLATFORM (for the /integrations reads; skipped without it).
 */
import { parseArgs } from "node:util";
import { operations } from "../generated/operations.ts";
import { createAudienceClient, type DriftReport } from "../src/index.ts";
import { sampleCalls } from "./lib/sample-calls.ts";

interface Row {
  operation: string;
  status: string;
  requestId: string;
  violation: string;
}

const { values } = parseArgs({ options: { upstream: { type: "string" } } });

function table(rows: Row[]): string {
  const cols = ["operation", "status", "requestId", "violation"] as const;
  const widths = cols.map((c) => Math.max(c.length, ...rows.map((r) => r[c].length)));
  const line = (v: string[]) =>
    v
      .map((x, i) => x.padEnd(widths[i] as number))
      .join("  ")
      .trimEnd();
  return [
    line([...cols]),
    line(widths.map((w) => "-".repeat(w))),
    ...rows.map((r) => line(cols.map((c) => r[c]))),
  ].join("\n");
}

async function main(): Promise<number> {
  const upstream = values.upstream;
  const { AI_USERNAME, AI_PASSWORD, AI_PARTNER_ID, AI_EID, AI_AD_PLATFORM } = process.env;
  if (!upstream || !AI_USERNAME || !AI_PASSWORD) {
    console.error("usage: AI_USERNAME=… AI_PASSWORD=… npm run contract:live -- --upstream <base url>");
    return 2;
  }
  const rows: Row[] = [];
  const reports: DriftReport[] = [];
  {
    const client = createAudienceClient({
      baseUrl: upstream,
      credentials: { username: AI_USERNAME, password: AI_PASSWORD },
      ...(AI_PARTNER_ID ? { partnerId: AI_PARTNER_ID } : {}),
      ...(AI_AD_PLATFORM ? { adPlatform: AI_AD_PLATFORM } : {}),
      retry: { maxAttempts: 2 },
      onDrift: (report) => reports.push(report),
      driftSampleRate: 1,
    });
    let eid = AI_EID;
    if (!eid) {
      const { data } = await client.GET("/events/", { params: { query: { page: 1, limit: 1 } } });
      eid = (data as { items?: Array<{ id?: unknown }> } | undefined)?.items?.[0]?.id as string | undefined;
    }
    const samples = sampleCalls({ eid: eid ?? "unknown-event", xlsx: () => new Uint8Array() });
    const skipped: string[] = [];
    for (const op of operations.filter((o) => o.method === "GET")) {
      const key = `${op.method} ${op.path}`;
      if (op.pathParams.includes("adplatform") && !AI_AD_PLATFORM) {
        skipped.push(`${key} (set AI_AD_PLATFORM)`);
        continue;
      }
      try {
        await client.request("get", op.path as never, (samples[key] ?? {}) as never);
      } catch (error) {
        rows.push({
          operation: key,
          status: "-",
          requestId: (error as { requestId?: string }).requestId ?? "-",
          violation: `client error: ${(error as Error).message}`,
        });
      }
    }
    // The checks run in the background after each call: give the last ones a moment.
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (const r of reports)
      for (const problem of r.problems)
        rows.push({
          operation: r.operation,
          status: String(r.status),
          requestId: r.requestId ?? "-",
          violation: problem,
        });
    const checked = operations.filter((o) => o.method === "GET").length - skipped.length;
    console.log(`contract:live — ${checked} read operations checked against ${upstream}`);
    if (skipped.length) console.log(`skipped: ${skipped.join(", ")}`);
    if (rows.length === 0) {
      console.log("no violations: the service agrees with the description");
      return 0;
    }
    console.log(`\n${rows.length} violation(s):\n\n${table(rows)}`);
    return 1;
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`contract:live failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  },
);
