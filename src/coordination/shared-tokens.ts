/**
 * The tokens of a shared session record as a store gave them back: only the string fields this
 * client writes, never anything else a store might hold (a record of something else, or damaged).
 */
import type { SessionTokens } from "../session/tokens.ts";

/** The record's tokens, or undefined when it holds no access token. */
export function sharedTokens(value: unknown): SessionTokens | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v.accessToken !== "string" || !v.accessToken) return undefined;
  return {
    accessToken: v.accessToken,
    ...(typeof v.refreshToken === "string" ? { refreshToken: v.refreshToken } : {}),
    ...(typeof v.idToken === "string" ? { idToken: v.idToken } : {}),
  };
}
