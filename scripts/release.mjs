#!/usr/bin/env node
// `npm run release`: a release of version package.json's `version` into dist/release (emptied first), with its
// SHA256SUMS (as `sha256sum` writes them: `<hex>  <file>`, sorted by name). The build (`npm run build`) runs first
// when dist/ has none. `VENDOR_PLUGIN_DOWNLOAD_URL` sets the plugin download URL the SDKs name, for a release made
// for tests (scripts/release/config.mjs).
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { releaseSdks } from "./release/sdks.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { version } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
const out = path.join(root, "dist/release");

if (!fs.existsSync(path.join(root, "dist/plugin/main.js")))
  execFileSync("npm", ["run", "--silent", "build"], { cwd: root, stdio: "inherit" });
fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });

const files = await releaseSdks({ root, out, version });

const sums = [...files].sort().map(
  (file) =>
    `${createHash("sha256")
      .update(fs.readFileSync(path.join(out, file)))
      .digest("hex")}  ${file}\n`,
);
fs.writeFileSync(path.join(out, "SHA256SUMS"), sums.join(""));
process.stderr.write(`release ${version}: ${files.length} files and SHA256SUMS in dist/release\n`);
