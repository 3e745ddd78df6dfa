/**
 * What the transport hands back for one logical call, by value: the engine's send step, the /auth
 * exchange and the write checks read it. Its own module, below both the transport and the
 * session, so that neither imports the other for it.
 */
import type { CallRecord } from "../internal/call-record.ts";

export interface Outcome {
  readonly response: Response;
  /** The 2xx body, when the transport parsed it as JSON (the call reads JSON): the response's own is consumed. */
  readonly parsed?: { readonly data: unknown } | undefined;
  /** What errors and support reports say of the call; built when first asked (most calls never are). */
  readonly record: () => CallRecord;
}
