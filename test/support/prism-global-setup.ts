import type { TestProject } from "vitest/node";
import { startPrism } from "../../scripts/lib/prism.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** Base URL of the Prism mock of generated/openapi.json. */
    prismUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const prism = await startPrism();
  project.provide("prismUrl", prism.url);
  return () => prism.stop();
}
