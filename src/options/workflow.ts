/** What the workflow helpers and the request guards fill in or cap: `adPlatform`, `maxPageLimit`, `benchmarkFields`. */

import { DEFAULT_BENCHMARK_FIELDS } from "../assumptions.ts";
import { idIssues, MAX_ID_LENGTH } from "../guards/path-params.ts";
import { CLIENT_DEFAULTS } from "../limits.ts";
import type { AudienceClientOptions, ClientConfig } from "../option-types.ts";
import { fail, positiveInt, token } from "./checks.ts";

export function workflowOptions(
  options: AudienceClientOptions,
): Pick<ClientConfig, "adPlatform" | "maxPageLimit" | "benchmarkFields"> {
  const adPlatform = options.adPlatform === undefined ? undefined : adPlatformSegment(options.adPlatform);
  const benchmarkFields = options.benchmarkFields ?? DEFAULT_BENCHMARK_FIELDS;
  if (!Array.isArray(benchmarkFields) || !benchmarkFields.every((f) => typeof f === "string" && f))
    fail("benchmarkFields", "must be an array of non-empty strings");
  return {
    adPlatform,
    maxPageLimit: positiveInt(
      "maxPageLimit",
      options.maxPageLimit,
      CLIENT_DEFAULTS.maxPageLimit,
      CLIENT_DEFAULTS.maxPageLimitCeiling,
    ),
    benchmarkFields: Object.freeze([...benchmarkFields]),
  };
}

/** The `{adplatform}` path segment: header-safe text, and the rule of every identifier segment. */
function adPlatformSegment(value: unknown): string {
  if (typeof value === "string" && value.length > MAX_ID_LENGTH)
    fail("adPlatform", `must be at most ${MAX_ID_LENGTH} characters`);
  const text = token("adPlatform", value, true) as string;
  const [issue] = idIssues(text, "adPlatform");
  if (issue) fail("adPlatform", issue.message);
  return text;
}
