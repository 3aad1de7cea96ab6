/**
 * What the plugin says of itself: its version (`GetPluginInfo`) and its package schema (`GetSchema`), read from
 * the installed package, dist/plugin/main.js's folder holding the schema (written by the build) and the
 * package's root, two folders up, its package.json.
 *
 * The release's single-file plugin (scripts/release/plugin.mjs) has no package folder beside it: its bundler
 * replaces this module with one that returns both as they were when it was built.
 */
import fs from "node:fs";
import path from "node:path";
import { isPlainObject } from "../provider/common/typed";

/** The package's version, from its package.json ("0.0.0" when it names none). */
export function pluginVersion(): string {
  const root = path.resolve(__dirname, "..", "..");
  const manifest: unknown = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
  return isPlainObject(manifest) && typeof manifest.version === "string" ? manifest.version : "0.0.0";
}

/** The package schema, as JSON text. */
export function pluginSchema(): string {
  return fs.readFileSync(path.join(__dirname, "schema.json"), "utf8");
}
