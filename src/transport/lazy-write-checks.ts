/**
 * The write checks (write-checks.ts) behind a dynamic import: a check runs only when a
 * non-idempotent write failed ambiguously (Section 3 rule 3), so what every app loads for its first
 * calls leaves them out. Loaded once, on the first check, and kept. A check whose module cannot
 * load proves nothing: the write ends as "unknown" (not repeated), as when the check's GET fails.
 */
import type { CallContext } from "./policy.ts";
import type { WriteCheck } from "./retry-policy.ts";

type Checks = (ctx: CallContext) => WriteCheck | undefined;

export function lazyWriteChecks(send: (request: Request) => Promise<Response>): Checks {
  let checks: Checks | undefined;
  let loading: Promise<Checks> | undefined;
  const load = (): Promise<Checks> => {
    loading ??= import("./write-checks.ts").then(
      (m) => {
        checks = m.writeChecks(send);
        return checks;
      },
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  const check: WriteCheck = async (ctx) => {
    let loaded: Checks;
    try {
      loaded = checks ?? (await load());
    } catch {
      ctx.writeCheckNote = "the check (GET of the draft) could not be loaded";
      return "unknown";
    }
    const found = loaded(ctx);
    return found ? found(ctx) : "unknown";
  };
  // Only an operation of the description can have a check (write-checks.ts keys them by operation).
  return (ctx) => (ctx.op ? check : undefined);
}
