/**
 * `npm run release`: what a release publishes, written into dist/release/. Builds dist/ when it does not match
 * its sources and the engine's tools when they are missing (scripts/engine.sh), empties dist/release/, then
 * calls each part with `{ root, out, version }`:
 * scripts/release/plugin.mjs's `releasePlugin` (the provider plugin's archives) and scripts/release/sdks.mjs's
 * `releaseSdks` (the SDK packages and the schema); each returns the names of the files it wrote into `out`. Then
 * writes SHA256SUMS over them (sha256sum's format, sorted by name) and prints each file with its size.
 * `VENDOR_PLUGIN_DOWNLOAD_URL` sets the plugin download URL the schema and the SDKs name, for a release made for
 * tests (scripts/release/config.mjs holds the real one).
 */
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { releasePlugin } from "./release/plugin.mjs";
import { releaseSdks } from "./release/sdks.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const out = path.join(root, "dist", "release");
const { version } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));

// Builds dist/ when it does not match its sources, as `npm test` does (scripts/prepare.mjs), and the tools the
// SDKs are made with (the SDK generator, the pinned Python build backend) when they are missing, as the demo
// does (scripts/engine.sh: under a second when they are there), so that `npm ci && npm run release` is all a
// clean clone needs.
execFileSync(process.execPath, [path.join(root, "scripts", "prepare.mjs")], { cwd: root, stdio: "inherit" });
execFileSync("bash", [path.join(root, "scripts", "engine.sh")], {
  cwd: root,
  stdio: ["ignore", "ignore", "inherit"],
});
fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });

const context = { root, out, version };
const written = [...(await releasePlugin(context)), ...(await releaseSdks(context))];

const names = [...new Set(written)].sort();
const sums = names.map((name) => {
  const hash = crypto
    .createHash("sha256")
    .update(fs.readFileSync(path.join(out, name)))
    .digest("hex");
  return `${hash}  ${name}\n`;
});
fs.writeFileSync(path.join(out, "SHA256SUMS"), sums.join(""));
for (const name of [...names, "SHA256SUMS"])
  process.stdout.write(
    `${String(fs.statSync(path.join(out, name)).size).padStart(11)}  dist/release/${name}\n`,
  );
