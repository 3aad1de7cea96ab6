// The SDK packages of a release (a step of `npm run release`, scripts/release.mjs): the SDKs generated from the
// release's package schema (scripts/sdks.sh, both in .tools/release-sdks, so that a release made while tests
// run leaves the build's dist/plugin/schema.json and dist/sdks alone), built into what each package manager
// installs, into dist/release:
//   pulumi_vendor_container-<version>-py3-none-any.whl, pulumi_vendor_container-<version>.tar.gz   pip
//   pulumi-vendor-container-sdk-<version>.tgz                                                       npm
//   go/<module>/@v/{v<version>.zip,.mod,.info,list}                        a GOPROXY file layout for `go get`
//   schema.json                                                            the package schema
// Each SDK names the release's plugin download URL (scripts/release/config.mjs; its pulumi-plugin.json, or the
// Node.js package.json's `pulumi` section), so the engine fetches the plugin archive the SDK asks for.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import process from "node:process";

const run = (cmd, args, options) =>
  execFileSync(cmd, args, { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], ...options });

/** Every file below `dir`, as paths relative to `base` with `/` separators. */
function filesBelow(dir, base) {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).flatMap((entry) => {
    if (!entry.isFile()) return [];
    return [path.relative(base, path.join(entry.parentPath, entry.name)).split(path.sep).join("/")];
  });
}

/**
 * Builds the SDK packages of the release `version` into `out` (which exists) from the checkout `root` (whose
 * dist/ the build wrote): the package schema again, into .tools/release-sdks (its `pluginDownloadURL` is the
 * release's, which `VENDOR_PLUGIN_DOWNLOAD_URL` may set), the three SDKs from it, then the Python wheel and
 * sdist (with the setuptools `scripts/engine.sh` pins into .tools/python), the npm tarball of the compiled
 * Node.js SDK, the Go module as a GOPROXY layout (with golang.org/x/mod/zip, scripts/release/gomodzip) and the
 * schema.
 *
 * @param {{ root: string, out: string, version: string }} context
 * @returns {Promise<string[]>} the files it wrote, relative to `out` (`/`-separated), sorted
 */
export async function releaseSdks({ root, out, version }) {
  const python = path.join(root, ".tools/python/bin/python");
  // Below the checkout, so that the Node.js SDK's compilation resolves TypeScript and @pulumi/pulumi from it.
  const work = path.join(root, ".tools/release-sdks");
  fs.rmSync(work, { recursive: true, force: true });
  const schemaFile = path.join(work, "schema.json");
  run(process.execPath, [path.join(root, "scripts/package-schema.mjs"), schemaFile], { cwd: root });
  const schema = JSON.parse(fs.readFileSync(schemaFile, "utf8"));
  if (schema.version !== version)
    throw new Error(`release: the schema says version ${schema.version}, the release is ${version}`);
  const sdks = path.join(work, "sdks");
  run("bash", [path.join(root, "scripts/sdks.sh")], {
    cwd: root,
    env: { ...process.env, SDKS_OUT: sdks, SDKS_SCHEMA: schemaFile },
  });
  const written = [];

  // Python: the PEP 517 backend the SDK's pyproject.toml names, called as pip's build frontend calls it, offline.
  const pythonSdk = path.join(sdks, "python");
  // One process per build, as pip's frontend runs them (a second build in the same process finds the first one's
  // commands as packages); setuptools logs to stdout, so the name goes on the last line and the log stays out of
  // sight unless the build fails.
  for (const hook of ["build_sdist", "build_wheel"]) {
    const build = [
      "import contextlib, sys",
      "from setuptools import build_meta",
      "with contextlib.redirect_stdout(sys.stderr):",
      `    name = build_meta.${hook}(sys.argv[1])`,
      "print(name)",
    ].join("\n");
    const built = run(python, ["-c", build, out], { cwd: pythonSdk, stdio: ["ignore", "pipe", "pipe"] });
    written.push(built.trim());
  }

  // Node.js: the compiled package (scripts/sdks.sh copies its package.json into bin/).
  const packed = JSON.parse(
    run("npm", ["pack", "--json", "--silent", "--pack-destination", out], {
      cwd: path.join(sdks, "nodejs/bin"),
    }),
  );
  written.push(packed[0].filename);

  // Go: a module zip under Go's own rules, with its .mod, .info and list, as a module proxy serves them.
  const goOut = path.join(out, "go");
  const tool = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "gomodzip-")), "gomodzip");
  const goEnv = { ...process.env, GOTOOLCHAIN: process.env.GOTOOLCHAIN ?? "local", GOFLAGS: "-mod=mod" };
  run("go", ["build", "-o", tool, "."], { cwd: path.join(root, "scripts/release/gomodzip"), env: goEnv });
  run(tool, ["-dir", path.join(sdks, "go"), "-version", `v${version}`, "-out", goOut], { cwd: root });
  fs.rmSync(path.dirname(tool), { recursive: true, force: true });
  written.push(...filesBelow(goOut, out));

  fs.copyFileSync(schemaFile, path.join(out, "schema.json"));
  written.push("schema.json");
  return written.sort();
}
