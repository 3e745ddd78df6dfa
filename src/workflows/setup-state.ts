/**
 * Setup-state guards (Section 3). The client remembers, per eid, what it has observed of a setup
 * process, and refuses before sending what that state does not allow. Unknown state lets the call
 * through: the guard never blocks on a guess.
 */
import { isPublishedForm } from "../assumptions.ts";
import type { CallHooks, HookedCall } from "../client-types.ts";
import { type SetupState, SetupStateError } from "../errors/setup-state-error.ts";

const SETUP = "/setup_processes/{eid}";
/** The operations whose calls change or depend on a setup's state; every other call passes untouched. */
const GUARDED = new Set([SETUP, `${SETUP}/boost`, "/campaigns_setup"]);

export class SetupStates {
  readonly #states = new Map<string, SetupState>();

  get(eid: string): SetupState {
    return this.#states.get(eid) ?? "unknown";
  }

  set(eid: string, state: SetupState): void {
    this.#states.set(eid, state);
  }

  /** The hooks that enforce and learn the states on every call through the client. */
  hooks(): CallHooks {
    return {
      before: (call) => this.#refuse(call),
      after: (call, result) => this.#observe(call, result.response, result.data),
    };
  }

  #refuse({ op, params, body }: HookedCall): void {
    if (!GUARDED.has(op.path)) return;
    const eid = eidOf(op.path === "/campaigns_setup" ? body : params?.path);
    if (eid === undefined) return;
    const state = this.get(eid);
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

  #observe({ op, params, body }: HookedCall, response: Response, data: unknown): void {
    if (!GUARDED.has(op.path)) return;
    const eid = eidOf(op.path === "/campaigns_setup" ? body : params?.path);
    if (eid === undefined) return;
    const key = `${op.method} ${op.path}`;
    if (response.ok) {
      if (key === `GET ${SETUP}` || key === `POST ${SETUP}` || key === `PUT ${SETUP}`)
        this.set(eid, isPublishedForm(data) ? "published" : "draft");
      else if (key === `POST ${SETUP}/boost` || key === "POST /campaigns_setup") this.set(eid, "published");
      else if (key === `DELETE ${SETUP}`) this.set(eid, "none");
    } else if (key === `GET ${SETUP}` && response.status === 404) {
      this.set(eid, "none");
    }
  }
}

function eidOf(source: unknown): string | undefined {
  const eid = typeof source === "object" && source !== null ? (source as Record<string, unknown>).eid : undefined;
  return typeof eid === "string" ? eid : undefined;
}
