// @ts-check
/**
 * Child process of row 6 (peak memory). `node memory.mjs providers` starts an in-process emulator (fast
 * durations), configures the providers through a shell's `configure` as the engine does, and creates 100
 * resources through the shells (25 per kind: check + create, kinds in dependency order, each phase
 * concurrent like the engine), then diffs all of them as the next preview would. `node memory.mjs idle` only
 * starts the emulator and waits. Either way it samples `process.memoryUsage()` every 5 ms and prints one
 * JSON line with the peaks.
 */
import console from "node:console";
import process from "node:process";
import { setInterval, clearInterval } from "node:timers";
import { setTimeout as delay } from "node:timers/promises";
import { FAST_DURATIONS, startEmulator } from "../../dist/emulator/index.js";
import {
  TOKEN,
  asProvider,
  attachmentArgs,
  backupArgs,
  checkAndCreate,
  kaasArgs,
  quietly,
  registryArgs,
  stackConfig,
} from "../lib/common.mjs";

const PER_KIND = 25;
const mode = process.argv[2];

let peakRss = 0;
let peakHeapUsed = 0;
const sample = () => {
  const usage = process.memoryUsage();
  peakRss = Math.max(peakRss, usage.rss);
  peakHeapUsed = Math.max(peakHeapUsed, usage.heapUsed);
};
sample();
const timer = setInterval(sample, 5);
const started = Date.now();

const running = await startEmulator({ tokens: [TOKEN], durations: FAST_DURATIONS });
let resources = 0;
let requests = 0;
if (mode === "providers") {
  // What the serialized `__provider` loads in the provider process.
  const shells = {
    Kaas: asProvider((await import("../../dist/sdk/shells/Kaas.js")).default),
    KaasBackup: asProvider((await import("../../dist/sdk/shells/KaasBackup.js")).default),
    Registry: asProvider((await import("../../dist/sdk/shells/Registry.js")).default),
    VolumeAttachment: asProvider((await import("../../dist/sdk/shells/VolumeAttachment.js")).default),
  };
  const kaasShell = (await import("../../dist/sdk/shells/Kaas.js")).default;
  await kaasShell.configure?.(
    /** @type {any} */ ({ config: stackConfig(running.url, { "vendor:pollIntervalMs": "20" }) }),
  );
  const range = Array.from({ length: PER_KIND }, (_, i) => i);
  const { result } = await quietly(async () => {
    const [clusters, registries] = await Promise.all([
      Promise.all(range.map((i) => checkAndCreate(shells.Kaas, kaasArgs(`c${i}`)))),
      Promise.all(range.map((i) => checkAndCreate(shells.Registry, registryArgs(`r${i}`, i)))),
    ]);
    const backups = await Promise.all(
      clusters.map((c, i) => checkAndCreate(shells.KaasBackup, backupArgs(c.id, `b${i}`))),
    );
    const attachments = await Promise.all(
      clusters.map((c, i) =>
        checkAndCreate(
          shells.VolumeAttachment,
          // The service reports no node ids: the emulator's own list stands in for `kubectl get nodes`.
          attachmentArgs(c.id, running.emulator.nodes(c.id)[0].nodeIds[0], i),
        ),
      ),
    );
    const all = [
      ...clusters.map((r) => ({ shell: shells.Kaas, ...r })),
      ...registries.map((r) => ({ shell: shells.Registry, ...r })),
      ...backups.map((r) => ({ shell: shells.KaasBackup, ...r })),
      ...attachments.map((r) => ({ shell: shells.VolumeAttachment, ...r })),
    ];
    const diffs = await Promise.all(all.map((r) => r.shell.diff(r.id, r.outs, r.inputs)));
    const changed = diffs.filter((d) => d?.changes !== false).length;
    if (changed > 0) throw new Error(`${changed} resources show changes right after their creation`);
    return all.length;
  });
  resources = result;
} else if (mode === "idle") {
  await delay(1000);
} else {
  console.error("usage: memory.mjs providers|idle");
  process.exit(2);
}
sample();
clearInterval(timer);
requests = running.emulator.requests().length;
await running.close();
process.stdout.write(
  JSON.stringify({ mode, peakRss, peakHeapUsed, resources, requests, ms: Date.now() - started }) + "\n",
);
