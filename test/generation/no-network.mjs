// Preloaded with `node --import` (NODE_OPTIONS, so child processes load it too): any TCP or TLS
// connection, DNS lookup or fetch from the process fails and is reported on stderr, so a run that
// finishes without "NETWORK ATTEMPT" needed no network. Unix sockets and pipes stay open: tsx talks
// to its child over one.
import dns from "node:dns";
import net from "node:net";

const report = (what) => {
  process.stderr.write(`NETWORK ATTEMPT: ${what}\n`);
  return new Error(`network disabled for this run (${what})`);
};
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  if (typeof first === "string" && !/^\d+$/.test(first)) return connect.apply(this, args);
  if (first && typeof first === "object" && typeof first.path === "string") return connect.apply(this, args);
  throw report(`connect ${JSON.stringify(first?.host ?? first)}:${first?.port ?? args[1] ?? ""}`);
};
dns.lookup = (host) => {
  throw report(`dns.lookup ${host}`);
};
dns.promises.lookup = async (host) => {
  throw report(`dns.promises.lookup ${host}`);
};
globalThis.fetch = async (input) => {
  throw report(`fetch ${String(input)}`);
};
