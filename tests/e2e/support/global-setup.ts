/**
 * Runs once before the end-to-end suite: checks that the engine is there, packs this package with `npm pack`
 * (from the `dist/` that `npm test` has just built) and installs the tarball with `@pulumi/pulumi` into
 * `.tools/e2e/node_modules`, the way a user installs a published package. Test programs live in folders below
 * `.tools/e2e`, so they and the dynamic-provider process resolve that copy. `@pulumi/policy` goes next to them,
 * as users install it to run the package's policy pack (`node_modules/pulumi-vendor-container/policy`), which
 * resolves it from there. The provider plugin's Python SDK is generated from the build's package schema
 * (`scripts/sdks.sh python`) and installed with pip into `PYTHON_SDK_DIR`, where Python programs import it; its
 * Node.js SDK (`scripts/sdks.sh nodejs`, compiled) is packed and installed beside the package, as
 * `@pulumi-vendor-container/sdk`, for the JavaScript programs on the plugin. Its Go SDK (`scripts/sdks.sh go`) stays
 * in dist/sdks/go, where the suite's Go program's go.mod points (support/golang.ts; the templates take the
 * release's), and Go's caches are warmed with the packages they build with. The release (`npm run release`, dist/release) is made in the background for the
 * suites that test it (support/release.ts).
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { BIN, E2E_ROOT, PULUMI_SDK_VERSION, PYTHON, PYTHON_SDK_DIR, ROOT, assertEngine } from "./engine";
import { warmGoBuild } from "./golang";
import { startRelease } from "./release";

/** Version of `@pulumi/policy` the policy pack runs with (the package's own dev dependency). */
const POLICY_SDK_VERSION: string = JSON.parse(
  fs.readFileSync(path.join(ROOT, "node_modules/@pulumi/policy/package.json"), "utf8"),
).version.replace(/^v/, "");

const run = (cmd: string, args: string[], cwd: string): string =>
  execFileSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

const sha256 = (...files: string[]): string => {
  const hash = createHash("sha256");
  for (const file of files) hash.update(fs.readFileSync(file));
  return hash.digest("hex");
};

/**
 * Installs the Python SDK scripts/sdks.sh generated from dist/plugin/schema.json into `PYTHON_SDK_DIR`, unless
 * what is there came from the same schema and generator. pip builds it from its folder as a user's `pip install` does,
 * offline: the engine's virtualenv has its dependencies and its build backend.
 */
function installPythonSdk(): void {
  const stampFile = path.join(PYTHON_SDK_DIR, ".installed");
  const wanted = sha256(
    path.join(ROOT, "dist/plugin/schema.json"),
    path.join(BIN, "pulumi-sdkgen-vendor-container"),
  );
  if (fs.existsSync(stampFile) && fs.readFileSync(stampFile, "utf8") === wanted) return;
  fs.rmSync(PYTHON_SDK_DIR, { recursive: true, force: true });
  run(
    PYTHON,
    [
      ...["-m", "pip", "install", "--quiet", "--disable-pip-version-check"],
      ...["--no-deps", "--no-build-isolation", "--no-index", "--target", PYTHON_SDK_DIR],
      path.join(ROOT, "dist/sdks/python"),
    ],
    ROOT,
  );
  fs.writeFileSync(stampFile, wanted);
}

export default function globalSetup(): void {
  assertEngine();
  if (!fs.existsSync(path.join(ROOT, "dist/sdk/index.js"))) run("npm", ["run", "--silent", "build"], ROOT);

  /** `npm pack` of `folder` into `.tools/e2e/<into>` (emptied first): the tarball's path. */
  const pack = (folder: string, into: string) => {
    const packDir = path.join(E2E_ROOT, into);
    fs.rmSync(packDir, { recursive: true, force: true });
    fs.mkdirSync(packDir, { recursive: true });
    const packed = JSON.parse(run("npm", ["pack", "--json", "--pack-destination", packDir], folder))[0];
    return path.join(packDir, packed.filename as string);
  };
  // The package's tarball alone in `pack/`, where the installs' tests find the one release tarball.
  const tarball = pack(ROOT, "pack");
  // Generated (and the Node.js one compiled) again, about 3 s: `npm run build` (which `npm pack` runs) deletes
  // dist/sdks.
  run("bash", [path.join(ROOT, "scripts/sdks.sh"), "nodejs", "python", "go"], ROOT);
  installPythonSdk();
  // Under a second when Go's caches hold the Pulumi Go SDK compiled; about 150 s the first time on 2 cores.
  const goSeconds = warmGoBuild();
  if (goSeconds > 10)
    process.stderr.write(`e2e setup: Go's build cache warmed in ${goSeconds.toFixed(0)} s\n`);
  const sdkTarball = pack(path.join(ROOT, "dist/sdks/nodejs/bin"), "pack-sdk");
  // In the background from here: it reads only what is built by now.
  startRelease();

  const stampFile = path.join(E2E_ROOT, ".installed");
  const wanted = `${PULUMI_SDK_VERSION} ${POLICY_SDK_VERSION} ${sha256(tarball, sdkTarball)}`;
  if (fs.existsSync(stampFile) && fs.readFileSync(stampFile, "utf8") === wanted) return;
  fs.writeFileSync(
    path.join(E2E_ROOT, "package.json"),
    JSON.stringify(
      {
        name: "e2e-programs",
        private: true,
        dependencies: {
          "@pulumi/policy": POLICY_SDK_VERSION,
          "@pulumi/pulumi": PULUMI_SDK_VERSION,
          "pulumi-vendor-container": `file:${path.relative(E2E_ROOT, tarball)}`,
          "@pulumi-vendor-container/sdk": `file:${path.relative(E2E_ROOT, sdkTarball)}`,
        },
      },
      null,
      2,
    ),
  );
  // The tarball keeps its name across builds: without the lock, npm installs what it holds now.
  fs.rmSync(path.join(E2E_ROOT, "package-lock.json"), { force: true });
  fs.rmSync(path.join(E2E_ROOT, "node_modules/pulumi-vendor-container"), { recursive: true, force: true });
  fs.rmSync(path.join(E2E_ROOT, "node_modules/@pulumi-vendor-container"), { recursive: true, force: true });
  // From npm's cache where it can: no test runs until this install ends, and asking the registry about every
  // package again costs it seconds of waiting.
  run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], E2E_ROOT);
  fs.writeFileSync(stampFile, wanted);
}
