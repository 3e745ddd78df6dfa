/**
 * An earlier failure, thrown again by a call that did not send anything because of it (a refused
 * sign-in remembered, a sign-in cool-down): the same class, the same details and request id, and
 * a message that says why nothing was sent.
 */
import type { AudienceError } from "./audience-error.ts";

export function repeated<E extends AudienceError>(error: E, why: string): E {
  const Class = error.constructor as new (message: string, details: E) => E;
  return new Class(`${why}. ${error.message}`, error);
}
