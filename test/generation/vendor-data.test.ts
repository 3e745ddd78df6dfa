/**
 * `npm run generate` treats the vendor file as data: a reference that leaves the file is refused
 * before redocly or openapi-typescript sees it (either would follow it), with its JSON pointer
 * named, nothing written and no request sent; `info.version` is accepted only as a plain version
 * token; and a normal generation needs no network at all.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { cp, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";

const root = resolve(import.meta.dirname, "..", "..");
// biome-ignore lint/suspicious/noExplicitAny: the tests edit arbitrary places of a parsed YAML document
type Doc = Record<string, any>;

let dir = "";
let server: Server;
let base = "";
const requests: string[] = [];
let vendorText = "";

/** `npm run generate` in the scratch copy; `env` is added to a clean environment. */
function generate(args: string[] = [], env: Record<string, string> = {}) {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(npm_|INIT_CWD$|VITEST)/i.test(k)));
  return new Promise<{ code: number; out: string }>((done) => {
    execFile(
      process.execPath,
      [join(root, "node_modules", "tsx", "dist", "cli.mjs"), "scripts/generate.ts", ...args],
      { cwd: dir, env: { ...clean, ...env }, timeout: 120_000, maxBuffer: 32 * 1024 * 1024 },
      (error, stdout, stderr) =>
        done({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, out: `${stdout}${stderr}` }),
    );
  });
}

async function generatedHashes(): Promise<Record<string, string>> {
  const folder = join(dir, "generated");
  const names = (await readdir(folder)).sort();
  const hash = async (n: string) =>
    createHash("sha256")
      .update(await readFile(join(folder, n)))
      .digest("hex");
  return Object.fromEntries(await Promise.all(names.map(async (n) => [n, await hash(n)])));
}

/** Runs generate with the vendor file as `edit` leaves it, restoring the file afterwards. */
async function withVendor(edit: (doc: Doc) => void, run: () => Promise<void>): Promise<void> {
  const doc = parse(vendorText) as Doc;
  edit(doc);
  await writeFile(join(dir, "openapi", "audience-intelligence.yaml"), stringify(doc));
  try {
    await run();
  } finally {
    await writeFile(join(dir, "openapi", "audience-intelligence.yaml"), vendorText);
  }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "ai-gen-data-"));
  for (const entry of ["openapi", "scripts", "generated", "redocly.yaml", "package.json"])
    await cp(join(root, entry), join(dir, entry), { recursive: true });
  await symlink(join(root, "node_modules"), join(dir, "node_modules"));
  vendorText = await readFile(join(dir, "openapi", "audience-intelligence.yaml"), "utf8");
  // Stands in for an internal address: answers every GET with a schema that would generate.
  server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(200, { "content-type": "application/yaml" }).end("type: string\n");
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});

afterAll(async () => {
  await new Promise((done) => server.close(done));
  await rm(dir, { recursive: true, force: true });
});

describe("a vendor file is data: references that leave the file", { timeout: 180_000 }, () => {
  it("a URL $ref in a schema is refused before lint, by pointer: exit 1, no GET, generated/ untouched", async () => {
    requests.length = 0;
    const before = await generatedHashes();
    await withVendor(
      (doc) => {
        doc.components.schemas.Event.properties.internal = { $ref: `${base}/latest/meta-data/iam` };
      },
      async () => {
        const { code, out } = await generate();
        expect(out).toContain("#/components/schemas/Event/properties/internal/$ref");
        expect(out).toMatch(/refused/);
        expect(code).toBe(1);
      },
    );
    expect(requests).toEqual([]);
    expect(await generatedHashes()).toEqual(before);
  });

  it("every form of a non-local reference, anywhere in the file, is named by its pointer", async () => {
    requests.length = 0;
    const before = await generatedHashes();
    const host = base.replace(/^http:/, "");
    const cases: Record<string, (doc: Doc) => void> = {
      "#/components/schemas/Url/$ref": (doc) => {
        doc.components.schemas.Url = { $ref: `${base}/url` };
      },
      "#/components/schemas/Upper/$ref": (doc) => {
        doc.components.schemas.Upper = { $ref: `${base.toUpperCase()}/upper` };
      },
      "#/components/schemas/Spaced/$ref": (doc) => {
        doc.components.schemas.Spaced = { $ref: ` ${base}/spaced` };
      },
      "#/components/schemas/ProtocolRelative/$ref": (doc) => {
        doc.components.schemas.ProtocolRelative = { $ref: `${host}/protocol-relative` };
      },
      "#/components/schemas/RelativeFile/$ref": (doc) => {
        doc.components.schemas.RelativeFile = { $ref: "./other.yaml" };
      },
      "#/components/schemas/OtherFilePointer/$ref": (doc) => {
        doc.components.schemas.OtherFilePointer = { $ref: "other.yaml#/components/schemas/X" };
      },
      "#/components/schemas/FileUrl/$ref": (doc) => {
        doc.components.schemas.FileUrl = { $ref: "file:///etc/passwd" };
      },
      "#/components/schemas/EncodedHash/$ref": (doc) => {
        doc.components.schemas.EncodedHash = { $ref: "%23/components/schemas/Event" };
      },
      "#/components/schemas/EncodedScheme/$ref": (doc) => {
        doc.components.schemas.EncodedScheme = { $ref: `%68ttp:${host}/encoded` };
      },
      "#/components/schemas/DotDot/$ref": (doc) => {
        doc.components.schemas.DotDot = { $ref: "#/components/schemas/Event/../../../x" };
      },
      "#/components/schemas/Dangling/$ref": (doc) => {
        doc.components.schemas.Dangling = { $ref: "#/components/schemas/NoSuchSchema" };
      },
      "#/components/schemas/NotAString/$ref": (doc) => {
        doc.components.schemas.NotAString = { $ref: { url: `${base}/object` } };
      },
      "#/paths/~1internal/$ref": (doc) => {
        doc.paths["/internal"] = { $ref: `${base}/path-item` };
      },
      "#/paths/~1events~1/get/x-vendor/deep/0/$ref": (doc) => {
        doc.paths["/events/"].get["x-vendor"] = { deep: [{ $ref: `${base}/extension` }] };
      },
      "#/components/schemas/Event/example/$ref": (doc) => {
        doc.components.schemas.Event.example = { $ref: `${base}/example` };
      },
      "#/components/schemas/Rebased/$id": (doc) => {
        doc.components.schemas.Rebased = { $id: `${base}/base/`, type: "object" };
      },
      "#/components/schemas/Dynamic/$dynamicRef": (doc) => {
        doc.components.schemas.Dynamic = { $dynamicRef: `${base}/dynamic` };
      },
      "#/components/examples/Remote/externalValue": (doc) => {
        doc.components.examples = { Remote: { externalValue: `${base}/example.json` } };
      },
      "#/components/schemas/Pet/discriminator/mapping/dog": (doc) => {
        doc.components.schemas.Pet = {
          type: "object",
          properties: { kind: { type: "string" } },
          discriminator: { propertyName: "kind", mapping: { dog: `${base}/Dog.yaml` } },
        };
      },
      "#/components/links/Remote/operationRef": (doc) => {
        doc.components.links = { Remote: { operationRef: `${base}/paths/~1x/get` } };
      },
    };
    await withVendor(
      (doc) => {
        for (const edit of Object.values(cases)) edit(doc);
      },
      async () => {
        const { code, out } = await generate();
        for (const pointer of Object.keys(cases)) expect(out, pointer).toContain(`${pointer}:`);
        expect(code).toBe(1);
      },
    );
    expect(requests).toEqual([]);
    expect(await generatedHashes()).toEqual(before);
  });

  it("a local reference into the file is accepted as before", async () => {
    await withVendor(
      (doc) => {
        doc.components.schemas.EventAlias = { $ref: "#/components/schemas/Event" };
      },
      async () => {
        const { code, out } = await generate(["--check"]);
        // Accepted: the check only finds that generated/ is stale, as for any other edit.
        expect(out).not.toMatch(/refused/);
        expect(out).toContain("differs from a fresh generation");
        expect(code).toBe(1);
      },
    );
  });
});

describe("a vendor file is data: info.version", { timeout: 180_000 }, () => {
  const hostile = [
    "3.1.0\n<!--",
    "## [Release](https://vendor.example) @org/team",
    "3.1.0\u202e",
    "1_www.vendor.example",
    "",
  ];
  for (const version of hostile)
    it(`refuses ${JSON.stringify(version).slice(0, 40)}: not a plain version token`, async () => {
      const before = await generatedHashes();
      await withVendor(
        (doc) => {
          doc.info.version = version;
        },
        async () => {
          const { code, out } = await generate();
          expect(out).toContain("#/info/version:");
          expect(out).toMatch(/not a plain version/);
          expect(code).toBe(1);
        },
      );
      expect(await generatedHashes()).toEqual(before);
    });

  it("refuses a version YAML reads as a number (`version: 3.1`)", async () => {
    await withVendor(
      (doc) => {
        doc.info.version = 3.1;
      },
      async () => {
        const { code, out } = await generate();
        expect(out).toContain("#/info/version:");
        expect(code).toBe(1);
      },
    );
  });

  it("accepts a plain token with a pre-release and build part", async () => {
    await withVendor(
      (doc) => {
        doc.info.version = "3.1.0-rc.1+build.5";
      },
      async () => {
        const { code, out } = await generate();
        expect(out).toContain("generate: wrote");
        expect(code).toBe(0);
        expect(await readFile(join(dir, "generated", "version.ts"), "utf8")).toContain(
          'API_VERSION = "3.1.0-rc.1+build.5"',
        );
      },
    );
    await cp(join(root, "generated"), join(dir, "generated"), { recursive: true, force: true });
  });
});

describe("generation needs no network", { timeout: 180_000 }, () => {
  it("generate:check passes with every TCP connection, DNS lookup and fetch disabled (in child processes too)", async () => {
    const preload = pathToFileURL(join(import.meta.dirname, "no-network.mjs")).href;
    const { code, out } = await generate(["--check"], { NODE_OPTIONS: `--import=${preload}` });
    expect(out).not.toContain("NETWORK ATTEMPT");
    expect(out).toContain("matches the description");
    expect(code).toBe(0);
  });
});
