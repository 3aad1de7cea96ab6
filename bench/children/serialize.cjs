// @ts-check
/* global require, process, Buffer, console -- Node's CommonJS globals (the lint configuration declares none) */
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS on purpose: Pulumi's closure serializer
   resolves captured modules through `require.cache`, and the fake install is resolved from the cwd. */
/**
 * Child process of row 1: serializes each kind's provider exactly as `dynamic.Resource` does
 * (`runtime.serializeFunction(() => provider, { allowSecrets: true })`) and prints JSON on stdout.
 *
 * Run with `--preserve-symlinks` and cwd = a fake program whose node_modules holds a copy of the package (as
 * users install it), so the shells and `@pulumi/pulumi` resolve from there, like in the serialization test.
 * The baselines (`baseline-provider.cjs`) are local modules, serialized by value whatever the cwd.
 */
const path = require("node:path");
const { createRequire } = require("node:module");

const KINDS = ["Kaas", "KaasBackup", "Registry", "VolumeAttachment"];
const secret = process.env.VENDOR_TOKEN ?? "";
// Resolve from the fake program, not from this file.
const programRequire = createRequire(path.join(process.cwd(), "program.js"));
const pulumi = programRequire("@pulumi/pulumi");

/**
 * @param {unknown} provider
 * @returns {Promise<{ bytes: number; text: string; containsSecret: boolean; ms: number } | { error: string; ms: number }>}
 */
async function serialize(provider) {
  const started = Date.now();
  try {
    const sf = await pulumi.runtime.serializeFunction(() => provider, { allowSecrets: true });
    return {
      bytes: Buffer.byteLength(sf.text),
      text: sf.text,
      containsSecret: secret !== "" && sf.text.includes(secret),
      ms: Date.now() - started,
    };
  } catch (error) {
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return { error: message.split("\n").slice(0, 12).join("\n"), ms: Date.now() - started };
  }
}

(async () => {
  /** @type {Record<string, Record<string, unknown>>} */
  const out = { ours: {}, obvious: {}, clientOnly: {}, compiledValidator: {} };
  for (const kind of KINDS) {
    out.ours[kind] = await serialize(programRequire(`pulumi-vendor-container/shells/${kind}`));
  }
  const baselines = require("./baseline-provider.cjs");
  for (const kind of KINDS) {
    out.obvious[kind] = await serialize(baselines.obvious[kind]);
    out.clientOnly[kind] = await serialize(baselines.clientOnly[kind]);
    out.compiledValidator[kind] = await serialize(baselines.compiledValidator[kind]);
  }
  process.stdout.write(JSON.stringify(out));
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
