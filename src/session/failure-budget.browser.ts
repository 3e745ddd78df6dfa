/**
 * The browser build's failure budget: a page never sends /auth* (Section 5.4), so there is no
 * cool-down to keep or share; only the remembered refusal, which every build keeps, stays.
 */
import type { AudienceError } from "../errors/audience-error.ts";
import { repeated } from "../errors/repeated.ts";
import type { BudgetDeps } from "./failure-budget.ts";

export type { BudgetDeps } from "./failure-budget.ts";

export class FailureBudget {
  #refusal: AudienceError | undefined;

  // biome-ignore lint/complexity/noUselessConstructor: the server module's signature (session.ts builds it with its deps)
  constructor(_deps: BudgetDeps) {}

  get refused(): boolean {
    return this.#refusal !== undefined;
  }

  get refusalError(): AudienceError | undefined {
    return this.#refusal;
  }

  refuse(error: AudienceError): AudienceError {
    this.#refusal = error;
    return error;
  }

  refusal(): AudienceError {
    return repeated(
      this.#refusal as AudienceError,
      "Not sent: the API refused this client's session earlier; pass a new one with client.useSession()",
    );
  }

  coolingDown(): AudienceError | undefined {
    return undefined;
  }

  coolDownLeftMs(): number {
    return Number.POSITIVE_INFINITY;
  }

  failed(_error: AudienceError, _always = false, _minMs = 0): void {}

  groupCoolDown(_ms: number): void {}

  succeeded(): void {}

  reset(): void {
    this.#refusal = undefined;
  }
}
