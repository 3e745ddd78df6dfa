/**
 * Learns the tokens of a sign-in or refresh response (Section 5.1, 5.4) the moment it arrives,
 * before any other policy sees it: the attempt's span, its log line and its metrics are made from
 * the response's headers (`x-request-id`, which a server may fill with anything, a token included)
 * as it comes back through them, and the session reads the body only after. Innermost of the
 * policies; the terminal has read and parsed the body already (a multi-megabyte token is not
 * decoded again), and when it has not, the clone costs no second read.
 */
import { TOKEN_FIELDS } from "../assumptions.ts";
import type { Redactor, SecretSlot } from "../internal/redact.ts";
import type { Policy, Reply } from "./policy.ts";

const SLOTS: ReadonlyArray<readonly [SecretSlot, string]> = [
  ["access", TOKEN_FIELDS.access],
  ["refresh", TOKEN_FIELDS.refresh],
  ["id", TOKEN_FIELDS.id],
];

export function authSecretsPolicy(redactor: Redactor): Policy {
  // Only the /auth family carries tokens: every other call passes straight through, with no layer of its own.
  return (attempt, ctx, next) => (ctx.secretBody ? learn(redactor, next(attempt, ctx)) : next(attempt, ctx));
}

async function learn(redactor: Redactor, pending: Promise<Reply>): Promise<Reply> {
  const reply = await pending;
  const { response } = reply;
  if (!response.ok || response.body === null) return reply;
  let body: unknown = reply.parsed?.data;
  if (!reply.parsed) {
    try {
      body = JSON.parse(await response.clone().text());
    } catch {
      return reply; // not JSON: no token the session would take from it either
    }
  }
  if (typeof body !== "object" || body === null) return reply;
  for (const [slot, field] of SLOTS) {
    const value = (body as Record<string, unknown>)[field];
    if (typeof value === "string" && value) redactor.set(slot, value);
  }
  return reply;
}
