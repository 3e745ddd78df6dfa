/** zod/mini issues as ValidationIssues: the field path and a short reason, never the value. */
import type { ValidationIssue } from "../errors/validation-error.ts";

interface ZodIssueLike {
  code: string;
  path: PropertyKey[];
  expected?: string;
  format?: string;
  minimum?: number | bigint;
  inclusive?: boolean;
  values?: unknown[];
  origin?: string;
  errors?: ZodIssueLike[][];
  message?: string;
}

function reason(issue: ZodIssueLike): string {
  switch (issue.code) {
    case "invalid_type":
      return issue.expected === "number"
        ? "must be a finite number"
        : `must be ${issue.expected === "object" ? "an" : "a"} ${issue.expected ?? "value of the right type"}`;
    case "too_small":
      if (issue.origin === "array") return `must have at least ${String(issue.minimum)} item(s)`;
      if (issue.origin === "string") return "must not be empty";
      return `must be ${issue.inclusive ? "≥" : ">"} ${String(issue.minimum)}`;
    case "invalid_value":
      return `must be one of ${(issue.values ?? []).map((v) => JSON.stringify(v)).join(", ")}`;
    case "invalid_format":
      return `must match the ${issue.format ?? "expected"} format`;
    case "invalid_union":
      return "has an unsupported type";
    case "custom": // the generated refinements (calendar date, integer) carry their message
      return issue.message ?? "is invalid";
    default:
      return "is invalid";
  }
}

export function toValidationIssues(issues: readonly ZodIssueLike[], prefix: string): ValidationIssue[] {
  return issues.map((issue) => ({
    field: [prefix, ...issue.path.map(String)].filter(Boolean).join("."),
    message: reason(issue),
  }));
}
