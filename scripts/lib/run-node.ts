import { execFile } from "node:child_process";

/**
 * Runs a Node.js script without blocking this process's event loop, so that vendor:update can run
 * its checks side by side; resolves with the exit status and the output, never rejects.
 */
export function runNode(
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ status: number; output: string }> {
  return new Promise((done) => {
    execFile(process.execPath, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const status = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      done({ status, output: `${stdout}${stderr}` });
    });
  });
}
