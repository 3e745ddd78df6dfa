import type { TestProject } from "vitest/node";
import { startMockApi } from "../../src/testing/index.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** Base URL of the Prism mock of generated/openapi.json (startMockApi, as consumers use it). */
    prismUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Stateless: the contract tests call every operation of the description in any order.
  const api = await startMockApi({ stateful: false });
  project.provide("prismUrl", api.baseUrl);
  return () => api.close();
}
