/** One answer of the mock, buffered: status, headers, body. */
export interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** A JSON answer. */
export function json(status: number, body: unknown): Answer {
  return { status, headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
}
