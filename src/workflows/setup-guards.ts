/**
 * Setup-state guards (Section 3). The client remembers, per eid, what it has observed of a setup
 * process (setup-state.ts), and refuses before sending what that state does not allow. Unknown
 * state lets the call through: the guard never blocks on a guess.
 */
import { isPublishedForm } from "../assumptions.ts";
import type { CallHooks, HookedCall } from "../client-types.ts";
import { SetupStateError } from "../errors/setup-state-error.ts";
import type { SetupStates } from "./setup-state.ts";

const SETUP = "/setup_processes/{eid}";
/** The operations whose calls change or depend on a setup's state; every other call passes untouched. */
const GUARDED = new Set([SETUP, `${SETUP}/boost`, "/campaigns_setup"]);

/** The hooks that enforce and learn the states on every call through the client. */
export function setupGuards(states: SetupStates): CallHooks {
  return {
    before: (call) => guard(states, call),
    after: (call, result) => observe(states, call, result.response, result.data),
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

/** Learns a setup's state from a call's answer. */
function observe(states: SetupStates, { op, params, body }: HookedCall, response: Response, data: unknown): void {
  if (!GUARDED.has(op.path)) return;
  const eid = eidOf(op.path === "/campaigns_setup" ? body : params?.path);
  if (eid === undefined) return;
  const key = `${op.method} ${op.path}`;
  if (response.ok) {
    if (key === `GET ${SETUP}` || key === `POST ${SETUP}` || key === `PUT ${SETUP}`)
      states.set(eid, isPublishedForm(data) ? "published" : "draft");
    else if (key === `POST ${SETUP}/boost` || key === "POST /campaigns_setup") states.set(eid, "published");
    else if (key === `DELETE ${SETUP}`) states.set(eid, "none");
  } else if (key === `GET ${SETUP}` && response.status === 404) {
    states.set(eid, "none");
  }
}

function eidOf(source: unknown): string | undefined {
  const eid = typeof source === "object" && source !== null ? (source as Record<string, unknown>).eid : undefined;
  return typeof eid === "string" ? eid : undefined;
}
