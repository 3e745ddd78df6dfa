/** (d) Bundle: the min+gzip size of the browser entry and its anchors, from scripts/bundle-size.ts. */
import { BUDGET_KB, kb, measureBundles } from "../scripts/bundle-size.ts";
import { ratio, type Section, table } from "./support.ts";

export async function bundle(): Promise<Section> {
  const { entry, anchors, composition } = await measureBundles();
  const rows = [entry, ...anchors, ...composition].map((b) => [
    b.name,
    kb(b.gzip),
    kb(b.minified),
    ratio(entry.gzip, b.gzip),
  ]);
  const body = [
    "esbuild, platform browser, format esm, minify, tree-shaking, dependencies bundled; gzip level 9; 1 KB = 1024 bytes. The entry is src/index.ts with every export kept (everything but the Node-only helpers of src/node/). Anchors are minimal realistic uses, tree-shaken. Same measurement as `npm run size`, which fails CI over budget.",
    "",
    table(["bundle", "min+gzip", "min", "entry is"], rows),
  ].join("\n");
  return {
    title: "(d) Bundle",
    body,
    targets: [
      {
        name: "bundle: browser entry min+gzip",
        target: `≤ ${BUDGET_KB} KB`,
        measured: kb(entry.gzip),
        met: entry.gzip <= BUDGET_KB * 1024,
      },
    ],
  };
}
