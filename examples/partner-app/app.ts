/**
 * A small partner-style module, the kind of code partners write around the client: a nightly sync
 * that creates the campaigns a plan asks for, a campaign wizard that autosaves a setup's draft, and
 * a bulk report over many events. Each of the four bugs the test kit is meant to catch can be
 * planted by a flag (examples/partner-app/suite.ts shows the kit catching them).
 */
import {
  type AudienceClient,
  createAudienceClient,
  createCampaign,
  listEventCampaigns,
  type RetryOptions,
  type SetupPayload,
  unwrap,
} from "@audience-intelligence/client";

/** Bugs to plant, each one the kit names. */
export interface PlantedBugs {
  /** The sync repeats a failed POST /campaigns/ at once, without checking whether it took effect. */
  blindRetry?: boolean;
  /** The report reads every event at once (`Promise.all`), instead of a few at a time. */
  unboundedFanOut?: boolean;
  /** The wizard saves each edit as it comes, in parallel, and an older save can land last. */
  lastWriteLoses?: boolean;
  /** The module sends a partner id written into its code instead of the one the sign-in names. */
  hardCodedPartner?: boolean;
}

export interface PartnerAppOptions {
  baseUrl: string;
  credentials: { username: string; password: string };
  bugs?: PlantedBugs;
  /** Passed to the client (tests shorten the waits). */
  retry?: RetryOptions;
}

/**
 * How many events the report reads at once. A background job keeps to 2 of Section 8.4's 8 calls
 * (4 once 429s occur, and the client keeps that per partner for the whole process), leaving the
 * rest to the wizard's users.
 */
export const REPORT_CONCURRENCY = 2;

export function partnerApp(options: PartnerAppOptions) {
  const bugs = options.bugs ?? {};
  const client = createAudienceClient({
    baseUrl: options.baseUrl,
    credentials: options.credentials,
    ...(options.retry ? { retry: options.retry } : {}),
    ratePacing: false,
    ...(bugs.hardCodedPartner ? { partnerId: "partner-id-acme" } : {}),
  });
  return {
    client,
    nightlySync: (eid: string, names: readonly string[]) => nightlySync(client, eid, names, bugs),
    campaignWizard: (eid: string, edits: readonly SetupPayload[]) => campaignWizard(client, eid, edits, bugs),
    bulkReport: (eids: readonly string[]) => bulkReport(client, eids, bugs),
  };
}

/** Creates each campaign of the plan that the event does not have yet. */
async function nightlySync(client: AudienceClient, eid: string, names: readonly string[], bugs: PlantedBugs) {
  const existing = async () => {
    const names = new Set<string>();
    for await (const c of listEventCampaigns(client, eid)) names.add(String((c as { name?: unknown }).name));
    return names;
  };
  const have = await existing();
  for (const name of names) {
    if (have.has(name)) continue;
    try {
      await createCampaign(client, { eid, name });
    } catch (error) {
      // Section 3 rule 3: a failed create may have taken effect; look before creating again.
      if (!bugs.blindRetry && (await existing()).has(name)) continue;
      await createCampaign(client, { eid, name }).catch(() => {
        throw error;
      });
    }
  }
}

/** The wizard: starts a draft if there is none and autosaves the user's edits; the last edit must win. */
async function campaignWizard(client: AudienceClient, eid: string, edits: readonly SetupPayload[], bugs: PlantedBugs) {
  const setup = client.setupProcess(eid);
  if ((await setup.load()) === undefined) await setup.create(edits[0] ?? {});
  if (bugs.lastWriteLoses) {
    // Each edit saved as it comes, none cancelled: a slow or retried older save can land last.
    await Promise.allSettled(
      edits.map((body) => client.PUT("/setup_processes/{eid}", { params: { path: { eid } }, body })),
    );
    return;
  }
  for (const edit of edits) void setup.autosave(edit); // debounced, ordered: the last edit is stored
  await setup.flush();
}

/** Reads each event, a few at a time. */
async function bulkReport(client: AudienceClient, eids: readonly string[], bugs: PlantedBugs) {
  const read = async (eid: string) => unwrap(await client.GET("/events/{eid}", { params: { path: { eid } } }));
  if (bugs.unboundedFanOut) return Promise.all(eids.map(read));
  const rows: unknown[] = [];
  const queue = [...eids.entries()];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) rows[next[0]] = await read(next[1]);
  };
  await Promise.all(Array.from({ length: REPORT_CONCURRENCY }, worker));
  return rows;
}
