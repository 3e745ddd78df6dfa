/**
 * A `fetch` option for the client built on undici's own `request` and a keep-alive `Agent`, for the
 * overhead benchmark: what a faster Node transport behind the client gains over the global fetch.
 * Bench-only: it reads the whole answer into memory, which suits the client's terminal (it reads
 * the body whole anyway) but is not a general fetch.
 */
import { Agent, request } from "undici";

const NULL_BODY = new Set([101, 204, 205, 304]);

export interface UndiciFetch {
  (request: Request): Promise<Response>;
  close(): Promise<void>;
}

export function undiciFetch(options: Agent.Options = {}): UndiciFetch {
  const agent = new Agent({ keepAliveTimeout: 30_000, connections: 16, ...options });
  const fetchFn = async (input: Request): Promise<Response> => {
    const headers: Record<string, string> = {};
    input.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const body = input.body ? Buffer.from(await input.arrayBuffer()) : null;
    const answer = await request(input.url, {
      method: input.method as "GET",
      headers,
      body,
      signal: input.signal,
      dispatcher: agent,
    });
    const bytes = await answer.body.arrayBuffer();
    const out = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (Array.isArray(value)) for (const v of value) out.append(name, v);
      else if (value !== undefined) out.set(name, value);
    }
    return new Response(NULL_BODY.has(answer.statusCode) || input.method === "HEAD" ? null : bytes, {
      status: answer.statusCode,
      headers: out,
    });
  };
  return Object.assign(fetchFn, { close: () => agent.close() });
}
