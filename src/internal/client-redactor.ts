/**
 * The client's redactor: a replaced token or password stays masked while an attempt sent with it
 * can still answer (the attempt timeout and a margin), and a token until its own `exp` judged in
 * the server's time (it is a valid bearer until then), however many refreshes come meanwhile.
 */
import { CLIENT_DEFAULTS } from "../limits.ts";
import { monotonicNow } from "./clock.ts";
import { jwtExpiryMs } from "./jwt.ts";
import { Redactor } from "./redact.ts";
import type { ServerClock } from "./server-clock.ts";

export function clientRedactor(attemptTimeoutMs: number, clock: ServerClock): Redactor {
  return new Redactor({
    retainMs: attemptTimeoutMs + CLIENT_DEFAULTS.retiredSecretMarginMs,
    validUntil: (secret) => {
      const exp = jwtExpiryMs(secret);
      return exp === undefined ? undefined : monotonicNow() + (exp - clock.now());
    },
    maxRetiredChars: CLIENT_DEFAULTS.maxRetiredSecretChars,
  });
}
