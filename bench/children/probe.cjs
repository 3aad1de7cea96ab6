// @ts-check
/* global require, process -- Node's CommonJS globals (the lint configuration declares none) */
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS on purpose: loaded with `node --require`. */
/**
 * Loaded with `NODE_OPTIONS=--require <this file>` into every Node process the Pulumi CLI starts during a
 * benchmark run (the program, the dynamic-provider process and the provider plugins' processes, ours and the
 * baselines' alike). It does nothing unless `BENCH_PROBE_DIR` is set; then, in a provider's process (role
 * `provider` for the dynamic one, `plugin` for a plugin), it times every gRPC method the engine calls (count,
 * first call's start and end) and, in every process, reads the kernel's peak RSS (`VmHWM`) and CPU time,
 * writing one JSON file per process into that folder when the process ends.
 *
 * The CLI stops a provider with SIGINT to its process group (`cmdutil.TerminateProcessGroup`): the file is
 * written then, and the signal raised again so the process ends exactly as it would without the probe.
 */
"use strict";
const fs = require("node:fs");
const Module = require("node:module");
const path = require("node:path");
const { performance } = require("node:perf_hooks");

const dir = process.env.BENCH_PROBE_DIR;
const script = process.argv[1] ?? "";
/**
 * A provider plugin's executable: this package's (`pulumi-resource-vendor-container`, the link npm made, or the
 * file it links to) or the plugin path's baseline (bench/programs/minimal-plugin/plugin).
 */
const PLUGIN = /(pulumi-resource-vendor-container|dist\/plugin\/main\.js|pulumi-resource-minimal)$/;
const role = script.includes("dynamic-provider")
  ? "provider"
  : PLUGIN.test(script)
    ? "plugin"
    : script.includes("cmd/run")
      ? "program"
      : null;

if (dir && role) {
  /** @type {Record<string, { count: number; firstStartMs: number; firstEndMs: number | null; totalMs: number }>} */
  const methods = {};
  /** @type {number | null} */
  let servingMs = null;
  /** @type {Record<string, number>} first load of each of this package's entry points, ms */
  const packageLoadMs = {};

  /** Peak resident set size of this process so far, in bytes, as the kernel counts it. */
  const peakRss = () => {
    try {
      const match = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync("/proc/self/status", "utf8"));
      return match ? Number(match[1]) * 1024 : process.memoryUsage().rss;
    } catch {
      return process.memoryUsage().rss;
    }
  };

  let written = false;
  const write = () => {
    if (written) return;
    written = true;
    const report = {
      role,
      pid: process.pid,
      startedAt: performance.timeOrigin,
      servingMs,
      packageLoadMs,
      methods,
      peakRss: peakRss(),
      cpuMs: (process.cpuUsage().user + process.cpuUsage().system) / 1000,
      endedMs: performance.now(),
    };
    try {
      fs.writeFileSync(path.join(dir, `${role}-${process.pid}.json`), JSON.stringify(report));
    } catch {
      // The folder is gone: the run that wanted this report is over.
    }
  };
  process.on("exit", write);
  for (const signal of /** @type {const} */ (["SIGINT", "SIGTERM"])) {
    const onSignal = () => {
      write();
      process.removeListener(signal, onSignal);
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    };
    process.on(signal, onSignal);
  }

  /**
   * @param {object} service a grpc-js service definition
   * @param {Record<string, Function>} implementation
   */
  const timed = (service, implementation) => {
    /** @type {Record<string, Function>} */
    const wrapped = Object.create(implementation);
    for (const [name, attrs] of Object.entries(service)) {
      for (const key of new Set([name, /** @type {{ originalName?: string }} */ (attrs).originalName])) {
        if (!key || typeof implementation[key] !== "function") continue;
        const original = implementation[key];
        wrapped[key] = (/** @type {unknown} */ call, /** @type {Function} */ callback) => {
          const start = performance.now();
          const entry = (methods[name] ??= { count: 0, firstStartMs: start, firstEndMs: null, totalMs: 0 });
          entry.count += 1;
          return original.call(implementation, call, (/** @type {unknown[]} */ ...args) => {
            const end = performance.now();
            entry.totalMs += end - start;
            entry.firstEndMs ??= end;
            return callback(...args);
          });
        };
      }
    }
    return wrapped;
  };

  // Hook the module loader: wrap the gRPC server's `addService` (in a provider's process), and time the first load
  // of each of this package's entry points (the SDK in the program; a shell, then `/provider`, in the dynamic
  // provider; the plugin loads its modules by relative path, so none are timed there).
  /** @type {any} */
  const loader = Module;
  const load = loader._load;
  let depth = 0;
  loader._load = function (/** @type {string} */ request, /** @type {unknown[]} */ ...rest) {
    const ours = depth === 0 && request.startsWith("pulumi-vendor-container") && !(request in packageLoadMs);
    const start = ours ? performance.now() : 0;
    if (ours) depth += 1;
    try {
      const exported = load.call(this, request, ...rest);
      if (role !== "program" && request === "@grpc/grpc-js" && !exported.Server.prototype.__benchTimed) {
        const addService = exported.Server.prototype.addService;
        exported.Server.prototype.addService = function (
          /** @type {object} */ service,
          /** @type {Record<string, Function>} */ implementation,
        ) {
          servingMs = performance.now();
          return addService.call(this, service, timed(service, implementation));
        };
        exported.Server.prototype.__benchTimed = true;
      }
      return exported;
    } finally {
      if (ours) {
        depth -= 1;
        packageLoadMs[request] = performance.now() - start;
      }
    }
  };
}
