/**
 * Where a sign-in option (a password, a refresh token) is accepted by the build itself. The server
 * build signs in and refreshes, so nothing is refused here (the browser-like runtime rule is in
 * auth.ts); the browser build's sibling (server-only.browser.ts) has no /auth exchange and refuses.
 */
export function refusedByThisBuild(_option: string): void {}
