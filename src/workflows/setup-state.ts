/**
 * What the client has observed of each setup process (Section 3), per eid: read by a setup
 * handle's `state`, kept by the guards every call passes (setup-guards.ts).
 */
import type { SetupState } from "../errors/setup-state-error.ts";

export class SetupStates {
  readonly #states = new Map<string, SetupState>();

  get(eid: string): SetupState {
    return this.#states.get(eid) ?? "unknown";
  }

  set(eid: string, state: SetupState): void {
    this.#states.set(eid, state);
  }
}
