#!/usr/bin/env node
/**
 * `pulumi-resource-vendor-container`: the executable the engine starts for the `vendor-container` provider
 * plugin (a program in any Pulumi language that uses `vendor-container:index:*` resources). The engine passes
 * its own address as the first argument and reads the port this process serves on from its first line of
 * output (plugin/server.ts).
 */
import fs from "node:fs";
import path from "node:path";
import { isPlainObject } from "../provider/common/typed";
import { serve } from "./server";

// dist/plugin/main.js: the package's root is two folders up, the schema beside this file (written by the build).
const root = path.resolve(__dirname, "..", "..");
const manifest: unknown = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
const version = isPlainObject(manifest) && typeof manifest.version === "string" ? manifest.version : "0.0.0";

/**
 * Ends this process once the process that started it is gone. The engine starts a plugin in a process group of
 * its own and stops it when it is done; a CLI killed outright (`kill -9` of its process group, a CI job
 * cancelled) never does, and the plugin would go on polling the service for a run nobody waits for. When the
 * parent is gone, the process is handed to another one (`process.ppid` changes): what the service accepted is
 * the next run's to find, as after any interrupted run. Checked every half second; the timer alone keeps
 * nothing alive.
 */
function exitWithParent(): void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid !== parent) process.exit(1);
  }, 500);
  timer.unref();
}

exitWithParent();
serve({
  version,
  engineAddress: process.argv[2],
  schema: () => fs.readFileSync(path.join(__dirname, "schema.json"), "utf8"),
}).catch((error: unknown) => {
  process.stderr.write(`pulumi-resource-vendor-container: ${String(error)}\n`);
  process.exit(1);
});
