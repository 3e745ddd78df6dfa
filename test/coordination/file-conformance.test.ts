/**
 * The /node entry's file share passes the session part of the conformance suite, and with
 * `fileCoordinator` four processes of one host sign in once.
 */
import { fork } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { fileCoordinator, fileSessionShare } from "../../src/node/index.ts";
import { startFakeApi } from "../support/fake-api.ts";
import { json } from "../support/recording-server.ts";
import { sessionConformance } from "./conformance.ts";

const directory = mkdtempSync(join(tmpdir(), "audience-file-share-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

sessionConformance("a file (the /node entry)", (group) => fileSessionShare({ path: join(directory, `${group}.json`) }));

describe("fileCoordinator", () => {
  it("four processes of one host sign in once (each alone: 4)", async () => {
    const api = await startFakeApi({ signInDelayMs: 100 });
    api.route((_req, res) => {
      setTimeout(() => json(res, 200, { eid: "e" }), 10);
    });
    const child = fileURLToPath(new URL("../support/cluster-child.ts", import.meta.url));
    const shared = join(directory, "group");
    try {
      const reports = await Promise.all(
        Array.from({ length: 4 }, () => {
          const task = { mode: "calls", baseUrl: api.url, directory: shared, keyPrefix: "", calls: 5 };
          const process = fork(child, [JSON.stringify(task)], { execArgv: ["--import", "tsx"], stdio: "inherit" });
          return new Promise<{ failed: number }>((resolve, reject) => {
            process.once("message", (m) => resolve(m as { failed: number }));
            process.once("exit", (code) => reject(new Error(`child exited (${code}) before reporting`)));
          });
        }),
      );
      expect(reports.map((r) => r.failed)).toEqual([0, 0, 0, 0]);
      expect(api.calls()).toHaveLength(20);
      expect(api.signIns()).toBe(1);
    } finally {
      await api.close();
    }
  }, 30_000);

  it("refuses a missing directory by name", () => {
    expect(() => fileCoordinator({ directory: "" })).toThrow(/directory/);
  });
});
