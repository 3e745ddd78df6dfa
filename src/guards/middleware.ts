/**
 * What a middleware is, by openapi-fetch's rule (its `use`): an object with `onRequest`,
 * `onResponse` or `onError`. Checked where one enters: `client.use` (up front, so a client whose
 * engine has not loaded yet refuses one as a loaded client does, and loses none given after it)
 * and a call's `middleware` (init-fields.ts). An empty slot is skipped, as openapi-fetch skips it.
 */

export const isMiddleware = (m: unknown): boolean =>
  typeof m === "object" && m !== null && ("onRequest" in m || "onResponse" in m || "onError" in m);

export const NOT_MIDDLEWARE = "must be an object with onRequest, onResponse or onError";
