/**
 * The version a regeneration calls for, from the classified description changes, the public API
 * report and the consumer fixtures (semver 2.0.0, items 6–8: major for an incompatible change,
 * minor for a compatible addition, patch for a fix that changes no contract).
 */
import type { Change } from "./classify-changes.ts";

export type Bump = "major" | "minor" | "patch" | "none";

export interface BumpInputs {
  readonly changes: readonly Pick<Change, "severity">[];
  /** Hand-written declarations removed or changed / added in the public API report. */
  readonly publicApi?: { readonly removedOrChanged: number; readonly added: number };
  /** A consumer fixture that no longer compiles is a break, whatever the classifier said. */
  readonly consumersBroken?: boolean;
}

export function semverBump({ changes, publicApi, consumersBroken }: BumpInputs): Bump {
  if (consumersBroken || (publicApi?.removedOrChanged ?? 0) > 0 || changes.some((c) => c.severity === "breaking"))
    return "major";
  if ((publicApi?.added ?? 0) > 0 || changes.some((c) => c.severity === "additive")) return "minor";
  if (changes.length > 0) return "patch";
  return "none";
}
