/**
 * A hostile API in front of the mock: it forwards every request, learns the tokens the sign-in
 * hands out (it sees the /auth answer) and the bearers sent, and on a few paths answers with every
 * secret it knows echoed in every encoding a server writes (test/support/secret-forms.ts): in a
 * 2xx body (GET /profile/), in an error body (GET /features/) and in an event's name (GET
 * /events/evt-echo, which publish_setup shows the person).
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { echoForms } from "../support/secret-forms.ts";

export interface EchoProxy {
  readonly baseUrl: string;
  /** Every secret seen: the password, the tokens of each sign-in and refresh. */
  readonly secrets: Set<string>;
  close(): Promise<void>;
}

const read = async (req: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

export async function startEchoProxy(upstream: string, password: string): Promise<EchoProxy> {
  const target = new URL(upstream);
  const secrets = new Set<string>([password]);
  const echo = () =>
    Object.fromEntries([...secrets].flatMap((s, i) => Object.entries(echoForms(s)).map(([k, v]) => [`${i}.${k}`, v])));
  const server: Server = createServer(async (req, res) => {
    const body = await read(req);
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    if (bearer) secrets.add(bearer);
    const path = (req.url ?? "").replace(target.pathname, "");
    const reply = (status: number, json: unknown) => {
      res.writeHead(status, { "content-type": "application/json", "x-request-id": `echo-${bearer ?? ""}` });
      res.end(JSON.stringify(json));
    };
    if (path.startsWith("/profile/")) return reply(200, { echo: echo(), header: req.headers.authorization });
    if (path.startsWith("/features/")) return reply(400, { code: `error.${bearer}`, echo: echo() });
    if (path === "/events/evt-echo") return reply(200, { id: "evt-echo", name: `show ${[...secrets].join(" ")}` });
    const answer = await fetch(new URL(req.url ?? "/", target.origin), {
      method: req.method ?? "GET",
      headers: Object.entries(req.headers).filter(
        (h): h is [string, string] => typeof h[1] === "string" && h[0] !== "host",
      ),
      ...(body.length ? { body: new Uint8Array(body) } : {}),
    });
    const text = await answer.text();
    if (path.startsWith("/auth")) {
      const tokens = JSON.parse(text) as Record<string, unknown>;
      for (const key of ["AccessToken", "IdToken", "RefreshToken"])
        if (typeof tokens[key] === "string") secrets.add(tokens[key] as string);
    }
    const headers = Object.fromEntries(
      [...answer.headers].filter(([k]) => !/^(content-length|content-encoding|transfer-encoding|connection)$/.test(k)),
    );
    res.writeHead(answer.status, headers);
    res.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${target.pathname}`,
    secrets,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
