/**
 * One Prism child process: spawned, watched until it listens, stopped. Prism must die with the
 * process that started it however that process ends — `close()`, an error while starting, a
 * normal exit, SIGTERM, SIGINT or SIGKILL. A killed process runs no handler, so the child watches
 * its parent itself: its stdin is a pipe whose only writer is the parent, and the kernel closes
 * that end when the parent dies, on Linux and macOS alike; the child sees end-of-file and exits.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { connect } from "node:net";

/**
 * Loaded into Prism's process before Prism itself (`--import`, a data URL, so the same code runs
 * from src/ and from the built dist/): exits when stdin ends, that is when the parent is gone.
 * `unref` keeps the watch from holding Prism's event loop open on its own.
 */
const WATCH_PARENT =
  'process.stdin.on("end",()=>process.exit(0)).on("error",()=>process.exit(0)).resume();process.stdin.unref?.();';

export interface PrismChild {
  /** Prism's process id. */
  readonly pid: number | undefined;
  /** Stops Prism (SIGTERM, then SIGKILL after 2 s); resolves once it has exited. Idempotent. */
  stop(): Promise<void>;
}

/** Spawns Prism with `args` and resolves once it accepts connections on `port`. */
export async function spawnPrism(
  bin: string,
  args: readonly string[],
  port: number,
  startTimeoutMs: number,
): Promise<PrismChild> {
  const child: ChildProcess = spawn(
    process.execPath,
    ["--import", `data:text/javascript,${encodeURIComponent(WATCH_PARENT)}`, bin, ...args],
    { stdio: ["pipe", "pipe", "pipe"] },
  );
  let output = "";
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  child.stdin?.on("error", () => {}); // Prism gone first: nothing to tell it
  // A normal exit that forgot stop(): kill at once (the pipe would do it too, a moment later).
  const kill = (): void => void child.kill("SIGKILL");
  process.once("exit", kill);
  // Neither Prism nor its pipes keep a test run alive that forgot stop().
  child.unref();
  for (const stream of [child.stdin, child.stdout, child.stderr]) unrefStream(stream);
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  const stop = async (): Promise<void> => {
    process.off("exit", kill);
    if (child.exitCode === null && child.signalCode === null) {
      child.ref(); // keep the process alive until Prism has exited
      child.kill("SIGTERM");
      setTimeout(() => child.kill("SIGKILL"), 2_000).unref();
    }
    await exited;
  };
  const deadline = performance.now() + startTimeoutMs;
  while (performance.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      process.off("exit", kill);
      throw new Error(`Prism exited before it listened:\n${output}`);
    }
    if (await listening(port)) return { pid: child.pid, stop };
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error(`Prism did not listen within ${startTimeoutMs} ms:\n${output}`);
}

function unrefStream(stream: unknown): void {
  (stream as { unref?: () => void } | null)?.unref?.();
}

/** Whether something accepts connections on the port (Prism listens once the description is loaded). */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
