/**
 * `prepack` / `postpack`: the package.json inside the tarball has no install-time scripts.
 *
 * In the repository, `postinstall` builds dist/ (a workspace member or a git checkout has no dist/
 * until then, and it is the one lifecycle script npm, pnpm and Yarn 4 all run for a workspace
 * member: Yarn never runs `prepare`). The packed package already contains dist/, and an install
 * script in it would make npm warn every consumer and pnpm refuse to run it (ERR_PNPM_IGNORED_BUILDS).
 * So `strip` (prepack, after the build) removes those scripts from package.json, keeping the
 * original beside it, and `restore` (postpack) puts the original back byte for byte. A pack that
 * fails in between leaves package.json.unpacked: `node scripts/pack-manifest.mjs restore`.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";

const INSTALL_SCRIPTS = ["preinstall", "install", "postinstall", "prepare"];
const manifest = "package.json";
const original = "package.json.unpacked";

const mode = process.argv[2];
if (mode === "strip") {
  const text = readFileSync(manifest, "utf8");
  if (!existsSync(original)) writeFileSync(original, text);
  const pkg = JSON.parse(text);
  for (const name of INSTALL_SCRIPTS) delete pkg.scripts?.[name];
  writeFileSync(manifest, `${JSON.stringify(pkg, null, 2)}\n`);
} else if (mode === "restore") {
  if (existsSync(original)) renameSync(original, manifest);
} else {
  console.error("usage: node scripts/pack-manifest.mjs strip|restore");
  process.exit(2);
}
