// @ts-check
/**
 * Row 1: the serialized provider (`__provider`) per kind, ours and the baselines, and the state bytes of one
 * resource of each kind.
 *
 * Ours is measured the way programs get the package: a copy of `package.json` and `dist/` under a fake
 * program's node_modules (as in tests/unit/serialization.test.ts), serialized in a child process started there
 * with `--preserve-symlinks`. The state bytes are computed, not read from `pulumi stack export` (no engine):
 * the checked inputs and the outputs of a resource created against the emulator, each with `__provider`, as
 * the engine stores them; the kubeconfig (a secret, ciphertext in real state) is left out.
 */
import { execFileSync } from "node:child_process";
import { Buffer } from "node:buffer";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import process from "node:process";
import { provider } from "../../dist/provider/index.js";
import {
  BENCH,
  KINDS,
  ROOT,
  attachmentArgs,
  backupArgs,
  checkAndCreate,
  kaasArgs,
  quietly,
  registryArgs,
  startProviders,
} from "./common.mjs";

const SECRET = "bench-serialization-secret-5f1d";

/** Copies the package into a fake program's node_modules; dependencies are linked. Returns the program dir. */
function fakeInstall() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pvc-bench-"));
  const installed = path.join(dir, "node_modules", "pulumi-vendor-container");
  fs.mkdirSync(installed, { recursive: true });
  fs.copyFileSync(path.join(ROOT, "package.json"), path.join(installed, "package.json"));
  fs.cpSync(path.join(ROOT, "dist"), path.join(installed, "dist"), { recursive: true });
  for (const dep of fs.readdirSync(path.join(ROOT, "node_modules"))) {
    if (dep.startsWith(".")) continue;
    fs.symlinkSync(path.join(ROOT, "node_modules", dep), path.join(dir, "node_modules", dep));
  }
  return dir;
}

/**
 * @typedef {{ bytes: number; text: string; containsSecret: boolean; ms: number } | { error: string; ms: number }} Serialized
 * @typedef {{ ours: Record<string, Serialized>; obvious: Record<string, Serialized>; clientOnly: Record<string, Serialized>; compiledValidator: Record<string, Serialized> }} SerializedAll
 */

/** @returns {SerializedAll} */
function serializeAll() {
  const dir = fakeInstall();
  try {
    const stdout = execFileSync(
      process.execPath,
      ["--preserve-symlinks", path.join(BENCH, "children", "serialize.cjs")],
      {
        cwd: dir,
        // The baseline reads its settings at module load, as a program building its client up front does.
        env: { ...process.env, VENDOR_BASE_URL: "http://127.0.0.1:9", VENDOR_TOKEN: SECRET },
        encoding: "utf8",
        maxBuffer: 256 * 1024 * 1024,
      },
    );
    return JSON.parse(stdout);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** One resource of each kind created against the emulator: checked inputs and outputs. */
async function createOneOfEach() {
  const harness = await startProviders();
  try {
    const { result } = await quietly(async () => {
      const kaas = await checkAndCreate(provider("Kaas"), kaasArgs("prod"));
      // The service reports no node ids: the emulator's own list stands in for `kubectl get nodes`.
      const nodeId = harness.running.emulator.nodes(kaas.id)[0].nodeIds[0];
      return {
        Kaas: kaas,
        KaasBackup: await checkAndCreate(provider("KaasBackup"), backupArgs(kaas.id, "nightly")),
        Registry: await checkAndCreate(provider("Registry"), registryArgs("images", 1)),
        VolumeAttachment: await checkAndCreate(
          provider("VolumeAttachment"),
          attachmentArgs(kaas.id, nodeId, 1),
        ),
      };
    });
    return result;
  } finally {
    await harness.close();
  }
}

/**
 * Bytes of one resource in state: `{inputs, outputs}`, each carrying `__provider`, kubeconfig excluded.
 * @param {{ inputs: Record<string, unknown>; outs: Record<string, unknown> }} resource
 * @param {string} providerText
 */
function stateBytes(resource, providerText) {
  const { kubeconfig: _kubeconfig, ...outputs } = resource.outs;
  return Buffer.byteLength(
    JSON.stringify({
      inputs: { ...resource.inputs, __provider: providerText },
      outputs: { ...outputs, __provider: providerText },
    }),
  );
}

export async function measureSerialization() {
  const serialized = serializeAll();
  const resources = await createOneOfEach();
  const kinds = KINDS.map((kind) => {
    const ours = serialized.ours[kind];
    const obvious = serialized.obvious[kind];
    const compiled = serialized.compiledValidator[kind];
    const resource = resources[kind];
    const textOf = (/** @type {Serialized} */ s) => ("text" in s ? s.text : undefined);
    const oursText = textOf(ours);
    const compiledText = textOf(compiled);
    const obviousText = textOf(obvious);
    const describe = (/** @type {Serialized} */ s) =>
      "error" in s
        ? { error: s.error, ms: s.ms }
        : { bytes: s.bytes, containsSecret: s.containsSecret, ms: s.ms };
    return {
      kind,
      ours: {
        ...describe(ours),
        requiresSubpath: oursText?.includes(`require("pulumi-vendor-container/shells/${kind}")`) ?? false,
      },
      baselineObvious: describe(obvious),
      baselineClientOnly: describe(serialized.clientOnly[kind]),
      baselineCompiledValidator: describe(compiled),
      state: {
        payloadBytes: stateBytes(resource, ""),
        ours: oursText === undefined ? null : stateBytes(resource, oursText),
        baselineObvious: obviousText === undefined ? null : stateBytes(resource, obviousText),
        baselineCompiledValidator: compiledText === undefined ? null : stateBytes(resource, compiledText),
      },
      oursText,
    };
  });
  return { kinds };
}
