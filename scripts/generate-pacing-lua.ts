/**
 * `npm run generate` (after scripts/generate.ts): writes src/redis/generated/pacing-rules-lua.ts,
 * the pacing rules translated to Lua for the Redis coordinator. `--check` (in `npm run
 * generate:check`) fails when the committed file differs from a fresh translation, so a rule
 * changed in TypeScript alone cannot land.
 */
import { readFile, writeFile } from "node:fs/promises";
import { emitPacingLua, PACING_LUA_FILE } from "./lib/emit-pacing-lua.ts";

async function main(): Promise<void> {
  const fresh = await emitPacingLua();
  if (!process.argv.includes("--check")) {
    await writeFile(PACING_LUA_FILE, fresh);
    console.log("generate: wrote src/redis/generated/pacing-rules-lua.ts");
    return;
  }
  const committed = await readFile(PACING_LUA_FILE, "utf8").catch(() => undefined);
  if (committed !== fresh) {
    throw new Error(
      "src/redis/generated/pacing-rules-lua.ts differs from a fresh translation of src/coordination/pacing-rules.ts.\nRun `npm run generate` and commit it.",
    );
  }
  console.log("generate:check: the Redis scripts' pacing Lua matches src/coordination/pacing-rules.ts");
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
