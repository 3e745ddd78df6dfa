import type { Answer } from "./answer.ts";
import type { Faults } from "./faults.ts";
import type { MockState } from "./mock-state.ts";

/** What a stateful route sees of one request, after Prism accepted it. */
export interface RouteContext {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  /** The parsed JSON body, or undefined. */
  readonly body: unknown;
  /** The bearer token sent, if any. */
  readonly token: string | undefined;
  /** Prism's answer from the description (already 2xx). */
  readonly prism: Answer;
  readonly state: MockState;
  readonly faults: Faults;
  /** The partner the mock serves. */
  readonly partnerId: string;
  /** The server's clock (this process's, plus the scenario's skew), in ms. */
  readonly serverNow: number;
}

/** A route: the stateful answer, or undefined to keep Prism's. */
export type Route = (context: RouteContext) => Answer | undefined;
