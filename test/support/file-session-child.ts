/**
 * A child process for test/coordination/file-session.test.ts: one process of a group sharing a
 * session through `fileSessionShare`. Its role and settings come as one JSON argument; it talks to
 * the test over IPC (`process.send`).
 *
 * - `race`: says "ready", waits for "go", then takes the lock `rounds` times; inside, appends
 *   `enter <pid> <fence>` and `exit <pid> <fence> <written>` to `log` around a short pause and a write.
 * - `hold`: takes the lock, says `{ holding: fence }`, then on "write" writes with its fence and
 *   says `{ wrote }`, on "release" leaves the lock.
 * - `writer`: takes the lock and writes `count` records of varying size, as fast as it can.
 */
import { appendFileSync } from "node:fs";
import { fileSessionShare } from "../../src/node/index.ts";
import { recordToken } from "./record-token.ts";

interface ChildConfig {
  readonly role: "race" | "hold" | "writer";
  readonly path: string;
  readonly leaseMs?: number;
  readonly log?: string;
  readonly rounds?: number;
  readonly count?: number;
}

const config = JSON.parse(process.argv[2] ?? "{}") as ChildConfig;
const share = fileSessionShare({ path: config.path, ...(config.leaseMs ? { leaseMs: config.leaseMs } : {}) });
const send = (message: unknown) => process.send?.(message);
const nextMessage = (wanted: string) =>
  new Promise<void>((resolve) => {
    const on = (message: unknown) => {
      if (message !== wanted) return;
      process.off("message", on);
      resolve();
    };
    process.on("message", on);
  });

async function race(): Promise<void> {
  const log = config.log as string;
  send("ready");
  await nextMessage("go");
  for (let round = 0; round < (config.rounds ?? 1); round++) {
    await share.withLock(async (fence) => {
      appendFileSync(log, `enter ${process.pid} ${fence}\n`);
      await new Promise((r) => setTimeout(r, Math.random() * 3));
      const written = await share.write({ tokens: { accessToken: `token-${fence}` } }, fence);
      appendFileSync(log, `exit ${process.pid} ${fence} ${written}\n`);
    });
  }
}

async function hold(): Promise<void> {
  await share.withLock(async (fence) => {
    const writeAsked = nextMessage("write");
    const releaseAsked = nextMessage("release");
    send({ holding: fence });
    await writeAsked;
    send({ wrote: await share.write({ tokens: { accessToken: `stale-${fence}` } }, fence) });
    await releaseAsked;
  });
}

async function writer(): Promise<void> {
  await share.withLock(async (fence) => {
    for (let i = 1; i <= (config.count ?? 1); i++) {
      await share.write({ tokens: { accessToken: recordToken(i), refreshToken: recordToken(i) } }, fence);
    }
  });
}

const roles = { race, hold, writer };
roles[config.role]().then(
  () => {
    send("done");
    process.disconnect?.();
  },
  (error: unknown) => {
    send({ failed: String(error) });
    process.exitCode = 1;
    process.disconnect?.();
  },
);
