#!/usr/bin/env node
/**
 * `pulumi-resource-vendor-container`: the executable the engine starts for the `vendor-container` provider
 * plugin (a program in any Pulumi language that uses `vendor-container:index:*` resources). The engine passes
 * its own address as the first argument and reads the port this process serves on from its first line of
 * output (plugin/server.ts).
 */
import { pluginSchema, pluginVersion } from "./identity";
import { serve } from "./server";

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
  version: pluginVersion(),
  engineAddress: process.argv[2],
  schema: pluginSchema,
}).catch((error: unknown) => {
  process.stderr.write(`pulumi-resource-vendor-container: ${String(error)}\n`);
  process.exit(1);
});
