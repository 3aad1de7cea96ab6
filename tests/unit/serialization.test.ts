/**
 * The serialized provider, measured the way Pulumi serializes it (`runtime.serializeFunction`, as
 * `dynamic.Resource` does), for the package installed in a program's node_modules as users install it, and
 * for the fallback where the package is loaded from outside node_modules. Needs `npm run build` first
 * (`npm test` builds).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const root = path.resolve(__dirname, "../..");
const KINDS = ["Kaas", "KaasBackup", "Registry", "VolumeAttachment"];
const SECRET = "serialization-test-token-5f1d";

interface Serialized {
  kind: string;
  size: number;
  text: string;
  methods: string[];
  handlerKind: string;
}

/** Runs the serializer in a child process from `cwd`, with the credentials in the environment and config. */
function serialize(cwd: string, shellPath: (kind: string) => string): Serialized[] {
  const script = `
    const pulumi = require("@pulumi/pulumi");
    require(${JSON.stringify(path.join(root, "dist/provider"))}).configure({ get: (k) => k === "vendor:token" ? process.env.VENDOR_TOKEN : undefined });
    (async () => {
      const out = [];
      for (const [kind, file] of ${JSON.stringify(KINDS.map((k) => [k, shellPath(k)]))}) {
        const shell = require(file);
        const sf = await pulumi.runtime.serializeFunction(() => shell, { allowSecrets: true });
        const handler = new Function("exports", "require", sf.text + "; return exports;")({}, require).handler();
        out.push({ kind, size: Buffer.byteLength(sf.text), text: sf.text, methods: Object.keys(handler).sort(), handlerKind: handler.kind });
      }
      process.stdout.write(JSON.stringify(out));
    })().catch((e) => { console.error(e); process.exit(1); });`;
  // Evaluated with `-e` so that modules resolve from `cwd` and nothing is written there.
  const stdout = execFileSync(process.execPath, ["--preserve-symlinks", "-e", script], {
    cwd,
    env: { ...process.env, VENDOR_TOKEN: SECRET, VENDOR_CLIENT_SECRET: SECRET },
    encoding: "utf8",
  });
  return JSON.parse(stdout) as Serialized[];
}

describe("installed in node_modules (how programs get the package)", () => {
  let results: Serialized[];

  beforeAll(() => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pvc-serialize-"));
    const installed = path.join(dir, "node_modules", "pulumi-vendor-container");
    fs.mkdirSync(installed, { recursive: true });
    fs.copyFileSync(path.join(root, "package.json"), path.join(installed, "package.json"));
    fs.cpSync(path.join(root, "dist"), path.join(installed, "dist"), { recursive: true });
    // The SDK is linked, not copied; --preserve-symlinks keeps module paths under this program's node_modules.
    fs.symlinkSync(path.join(root, "node_modules", "@pulumi"), path.join(dir, "node_modules", "@pulumi"));
    for (const dep of fs.readdirSync(path.join(root, "node_modules"))) {
      if (dep === "@pulumi" || dep.startsWith(".")) continue;
      fs.symlinkSync(path.join(root, "node_modules", dep), path.join(dir, "node_modules", dep));
    }
    results = serialize(dir, (kind) => `pulumi-vendor-container/shells/${kind}`);
  });

  it.each(KINDS)("serializes the %s provider as a require of its stable subpath, under 2 KB", (kind) => {
    const result = results.find((r) => r.kind === kind)!;
    expect(result.text).toContain(`require("pulumi-vendor-container/shells/${kind}")`);
    expect(result.size).toBeLessThan(2048);
    expect(result.handlerKind).toBe(kind);
    expect(result.methods).toEqual([
      "check",
      "configure",
      "create",
      "delete",
      "diff",
      "kind",
      "read",
      "update",
    ]);
  });

  it("captures no credential", () => {
    for (const r of results) expect(r.text).not.toContain(SECRET);
  });
});

describe("loaded from outside node_modules (a linked package)", () => {
  let results: Serialized[];

  beforeAll(() => {
    results = serialize(root, (kind) => path.join(root, "dist/sdk/shells", `${kind}.js`));
  });

  it("serializes a thin shell by value that references nothing but require and its kind", () => {
    for (const r of results) {
      expect(r.text).not.toContain(SECRET);
      expect(r.text).not.toMatch(/axios|ajv|typebox|Config|VendorContainerClient/);
      expect(r.text).toContain('require("pulumi-vendor-container/provider")');
      expect(r.handlerKind).toBe(r.kind);
      expect(r.size).toBeLessThan(3072);
    }
  });
});
