/**
 * Setup-state guards (Section 3). The client remembers, per eid, what it has observed of a setup
 * process (setup-state.ts), and refuses before sending what that state does not allow. Unknown
 * state lets the call through: the guard never blocks on a guess.
 */
import { errorCodeOf, isPublishedForm } from "../assumptions.ts";
import type { CallHooks, CallNote, HookedCall } from "../client-types.ts";
import { type SetupState, SetupStateError } from "../errors/setup-state-error.ts";
import type { SetupStates } from "./setup-state.ts";

const SETUP = "/setup_processes/{eid}";
/** The operations whose calls change or depend on a setup's state; every other call passes untouched. */
const GUARDED = new Set([SETUP, `${SETUP}/boost`, "/campaigns_setup"]);

/** The hooks that enforce and learn the states on every call through the client. */
export function setupGuards(states: SetupStates): CallHooks {
  return {
    before: (call) => guard(states, call),
    after: (call, result) => observe(states, call, result),
  };
}

/** Refuses, before anything is sent, a call the setup's observed state does not allow. */
function guard(states: SetupStates, { op, params, body }: HookedCall): void {
  if (!GUARDED.has(op.path)) return;
  const eid = eidOf(op.path === "/campaigns_setup" ? body : params?.path);
  if (eid === undefined) return;
  const state = states.get(eid);
  const key = `${op.method} ${op.path}`;
  const refuse = (message: string): never => {
    throw new SetupStateError(message, {
      eid,
      state,
      method: op.method,
      path: op.path,
      expected: "a call the setup's state allows; nothing was sent",
    });
  };
  if (key === `PUT ${SETUP}` && state === "none") {
    refuse(
      `Setup ${eid} has no draft to update: create it first with POST /setup_processes/{eid} (setupProcess(eid).create) — Section 3`,
    );
  }
  if (key === `PUT ${SETUP}` && state === "published") {
    refuse(
      `Setup ${eid} is published: the draft endpoint no longer applies. Edit a published cluster with POST /campaigns_setup (setupProcess(eid).editPublishedCluster) — Section 3 rules 1–2`,
    );
  }
  if (key === "POST /campaigns_setup" && (state === "draft" || state === "none")) {
    refuse(
      `Setup ${eid} is ${state === "draft" ? "an unpublished draft: edit it with PUT /setup_processes/{eid}" : "absent"}; POST /campaigns_setup edits published setups only — Section 3`,
    );
  }
  if ((key === `POST ${SETUP}/boost` || key === `DELETE ${SETUP}`) && state === "none") {
    refuse(
      `Setup ${eid} has no draft to ${op.method === "DELETE" ? "cancel" : "publish"}: create it first with POST /setup_processes/{eid}`,
    );
  }
  if (key === `POST ${SETUP}/boost` && state === "published") {
    refuse(
      `Setup ${eid} is already published: publishing applies to a draft; edit a published cluster with POST /campaigns_setup — Section 3`,
    );
  }
  if (key === `DELETE ${SETUP}` && state === "published") {
    refuse(
      `Setup ${eid} is published: cancel (DELETE /setup_processes/{eid}) removes a draft only, and the draft endpoint no longer applies — Section 3`,
    );
  }
}

// Section 7: "PUT on draft endpoint after publish: rejected (code not given)" — these are the
// statuses a refusal of that kind plausibly takes (see docs/SPECIFICATION-GAPS.md); a publish or a
// cancel of a published setup is refused alike. The status alone proves nothing (a 400 is also a
// field error): see publishedEvidence.
const REFUSED_AFTER_PUBLISH = new Set([400, 405, 409, 412, 422]);
/** The calls a published setup refuses (Section 3 rules 1–2). */
const DRAFT_ONLY = new Set([`PUT ${SETUP}`, `POST ${SETUP}/boost`, `DELETE ${SETUP}`]);

/**
 * Whether a refusal is the "after publish" one: only when the client knows the setup is
 * published, or the answer says so — a published form of the setup in the body, or an error code
 * that names publication (the code is not documented; see docs/SPECIFICATION-GAPS.md).
 */
function publishedEvidence(body: unknown, state: SetupState): boolean {
  return state === "published" || isPublishedForm(body) || /publish/i.test(errorCodeOf(body) ?? "");
}

type Answer = { data?: unknown; error?: unknown; response: Response };

/**
 * Learns a setup's state from a call's answer; notes a refusal because the setup is published, so
 * that the call's error says so (errors/from-answer.ts `errorFromAnswer`), whichever way the
 * caller reads it.
 */
function observe(states: SetupStates, { op, params, body }: HookedCall, answer: Answer): CallNote | undefined {
  if (!GUARDED.has(op.path)) return undefined;
  const eid = eidOf(op.path === "/campaigns_setup" ? body : params?.path);
  if (eid === undefined) return undefined;
  const key = `${op.method} ${op.path}`;
  const { response, data } = answer;
  if (
    DRAFT_ONLY.has(key) &&
    REFUSED_AFTER_PUBLISH.has(response.status) &&
    publishedEvidence(answer.error, states.get(eid))
  ) {
    states.set(eid, "published");
    return { setupRefused: { eid } };
  }
  if (response.ok) {
    if (key === `GET ${SETUP}` || key === `POST ${SETUP}` || key === `PUT ${SETUP}`)
      states.set(eid, isPublishedForm(data) ? "published" : "draft");
    else if (key === `POST ${SETUP}/boost` || key === "POST /campaigns_setup") states.set(eid, "published");
    else if (key === `DELETE ${SETUP}`) states.set(eid, "none");
  } else if (key === `GET ${SETUP}` && response.status === 404) {
    states.set(eid, "none");
  }
  return undefined;
}

function eidOf(source: unknown): string | undefined {
  const eid = typeof source === "object" && source !== null ? (source as Record<string, unknown>).eid : undefined;
  return typeof eid === "string" ? eid : undefined;
}
