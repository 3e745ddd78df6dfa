/**
 * The browser build (the package's `browser` and `worker` export conditions) has no /auth exchange:
 * a page cannot sign in or refresh (Section 5.4: a password and a refresh token are server-side
 * only). A sign-in option is refused when the client is created, naming the option, also with
 * `dangerouslyAllowBrowser: true` (which cannot add the exchange this build leaves out).
 */
import { fail } from "./checks.ts";

export function refusedByThisBuild(option: string): void {
  fail(
    option,
    "is server-side only (Section 5.4): the browser build cannot sign in or refresh, even with dangerouslyAllowBrowser: true; give `session` an async function that asks your backend for a token",
  );
}
