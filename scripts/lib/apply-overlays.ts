/**
 * Applies OpenAPI Overlay documents (openapi-format's implementation of the Overlay spec) one
 * action at a time, so that an action whose target matches nothing fails generation with its
 * file and index — no overlay tool reports that on its own.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { openapiOverlay } from "openapi-format";
import { parse } from "yaml";

type Doc = Record<string, unknown>;
interface OverlayAction {
  target: string;
  description?: string;
  update?: unknown;
  remove?: boolean;
  copy?: string;
}
interface OverlayDocument {
  overlay: string;
  actions: OverlayAction[];
}

export async function overlayFiles(dir: string): Promise<string[]> {
  const names = (await readdir(dir)).filter((n) => /\.overlay\.ya?ml$/.test(n)).sort();
  return names.map((n) => join(dir, n));
}

export async function applyOverlays(document: Doc, files: string[]): Promise<Doc> {
  let doc = document;
  for (const file of files) {
    const overlay = parse(await readFile(file, "utf8")) as OverlayDocument;
    if (!/^1\.1\.\d+$/.test(String(overlay.overlay))) {
      // openapi-format silently skips array appends for overlay 1.0.0.
      throw new Error(`${file}: overlay version must be 1.1.x, got ${String(overlay.overlay)}`);
    }
    for (const [index, action] of overlay.actions.entries()) {
      // A JSON round trip breaks the object sharing that YAML anchors create, so one action
      // never edits two places by accident.
      const single = { ...overlay, actions: [JSON.parse(JSON.stringify(action))] };
      const { data, resultData } = await openapiOverlay(doc, { overlaySet: single });
      if ((resultData as { totalUnusedActions: number }).totalUnusedActions > 0) {
        throw new Error(`${file}: action #${index + 1} (target ${action.target}) matched nothing`);
      }
      doc = data as Doc;
    }
  }
  return doc;
}
