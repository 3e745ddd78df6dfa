/** Section 3's autosave rule, checked on the wire: the draft ends as the newest edit. */
import { describeRequest, type RecordedRequest } from "./recorded-request.ts";
import { outcome } from "./retry-chains.ts";

const short = (body: unknown): string => {
  const text = JSON.stringify(body) ?? "(no body)";
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
};

/**
 * The next edit of one client only after the one in flight was answered: edits that overlap on the
 * wire land in whatever order the network gives, so the newest winning was luck.
 */
function expectOneAtATime(edits: readonly RecordedRequest[], eid: string, rule: string): void {
  const byStart = [...edits].sort((a, b) => a.startedAt - b.startedAt);
  byStart.forEach((edit, i) => {
    const earlier = byStart
      .slice(0, i)
      .find((e) => e.tag === edit.tag && (e.endedAt === undefined || e.endedAt > edit.startedAt));
    if (!earlier) return;
    throw new Error(
      `Edits of the draft of ${eid} overlapped on the wire: ${edit.requestId} ${describeRequest(edit)} ${short(edit.body)} ` +
        `was sent before ${earlier.requestId} ${short(earlier.body)} was answered. ${rule}`,
    );
  });
}

/**
 * Section 3: the wizard autosaves (debounced 1 s) and cancels any PUT in flight before the next,
 * "otherwise edits can land out of order". Throws unless the last edit stored for `eid` (the last
 * PUT or POST of /setup_processes/{eid} the mock answered with 2xx) is the newest edit sent (the
 * body sent first the latest), and unless each client (each `x-mock-tag`, or none) sent its next
 * edit only after the one in flight was answered: edits that overlap on the wire may land in any
 * order, so a run that passed by luck fails under every seed.
 */
export function expectNewestDraftWins(requests: readonly RecordedRequest[], eid: string): void {
  const path = `/setup_processes/${eid}`;
  const edits = requests.filter(
    (r) => (r.method === "PUT" || r.method === "POST") && decodeURIComponent(r.path) === path,
  );
  if (edits.length === 0) throw new Error(`No edit of the draft of ${eid} was sent (PUT or POST ${path}).`);
  const firstSent = new Map<string, RecordedRequest>();
  for (const edit of edits) if (!firstSent.has(short(edit.body))) firstSent.set(short(edit.body), edit);
  const newest = [...firstSent.values()].sort((a, b) => a.startedAt - b.startedAt).at(-1) as RecordedRequest;
  const stored = edits
    .filter((r) => r.status !== undefined && r.status >= 200 && r.status < 300 && r.endedAt !== undefined)
    .sort((a, b) => (a.endedAt ?? 0) - (b.endedAt ?? 0))
    .at(-1);
  const rule =
    "Section 3: autosave debounces 1 s and cancels any PUT in flight before the next; otherwise edits land out of order.";
  if (stored && short(stored.body) === short(newest.body)) {
    expectOneAtATime(edits, eid, rule);
    return;
  }
  throw new Error(
    stored
      ? `The draft of ${eid} ends as an older edit: ${stored.requestId} ${describeRequest(stored)} ${short(stored.body)} ` +
          `was stored last, but the newest edit was ${newest.requestId} ${short(newest.body)}. ${rule}`
      : `No edit of the draft of ${eid} was stored; the newest, ${newest.requestId} ${short(newest.body)}, ${outcome(newest)}. ${rule}`,
  );
}
