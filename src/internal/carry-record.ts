/**
 * Puts a call's record on its result, so that `unwrap` throws the same error the client's helpers
 * do. The error is built here, on the engine's side (errors/from-answer.ts `errorFromAnswer`,
 * with the client's redactor), so that `unwrap`, loaded up front, needs neither the redactor nor
 * the setup refusal (call-record.ts holds only the key).
 */
import { errorFromAnswer } from "../errors/from-answer.ts";
import { CARRIED, type CallRecord, type CallResult, type Carried } from "./call-record.ts";
import type { Redactor } from "./redact.ts";

/**
 * Puts the call's record on its result, as a property that is not enumerable (a result logged or
 * compared shows `data`, `error` and `response` only).
 */
export function withRecord(result: CallResult, record: () => CallRecord, redactor: Redactor): void {
  const carried: Carried = { error: (response, body) => errorFromAnswer(response, body, redactor, record()) };
  Object.defineProperty(result, CARRIED, { value: carried });
}
