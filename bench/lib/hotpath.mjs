// @ts-check
/**
 * Row 6, first half: `check` and `diff` of a cluster with 10 node pools, called through the Kaas shell as
 * the engine's provider process calls it (the shell lazily requires `pulumi-vendor-container/provider`).
 * Each call is timed on its own (`process.hrtime.bigint`) after a warm-up; the median is reported.
 *
 * Reference point ("baseline"): the work the obvious provider of row 1 does in the same two calls, run
 * in-process: `check` validates the wire body with the package's compiled ajv validator, `diff` compares
 * the wire bodies as JSON.
 */
import process from "node:process";
import kaasShellModule from "../../dist/sdk/shells/Kaas.js";
import { provider } from "../../dist/provider/index.js";
import { insertBody } from "../../dist/provider/kaas/mapping.js";
import { KaasInsert, validateSchema } from "../../dist/schemas/index.js";
import {
  asProvider,
  checkAndCreate,
  kaasArgs,
  median,
  percentile,
  quietly,
  round,
  startProviders,
} from "./common.mjs";

const kaasShell = asProvider(kaasShellModule);
const WARMUP = 2_000;
const ITERATIONS = 20_000;

/**
 * @param {() => Promise<unknown>} call
 * @returns {Promise<{ medianUs: number; p99Us: number; iterations: number }>}
 */
async function time(call) {
  for (let i = 0; i < WARMUP; i++) await call();
  const samples = new Array(ITERATIONS);
  for (let i = 0; i < ITERATIONS; i++) {
    const started = process.hrtime.bigint();
    await call();
    samples[i] = Number(process.hrtime.bigint() - started) / 1000;
  }
  return {
    medianUs: round(median(samples), 1),
    p99Us: round(percentile(samples, 99), 1),
    iterations: ITERATIONS,
  };
}

export async function measureHotPath() {
  const harness = await startProviders();
  try {
    const raw = kaasArgs("big", 10);
    const { result: created } = await quietly(() => checkAndCreate(provider("Kaas"), raw));
    const { id, inputs, outs } = created;
    // A preview of an unchanged stack: check against the previous inputs, diff against the state.
    const rawChanged = JSON.parse(JSON.stringify(raw));
    rawChanged.nodePools[3].nodes = 3;
    const changed = (await kaasShell.check(inputs, rawChanged)).inputs;

    const checkResult = await kaasShell.check(inputs, raw);
    if (checkResult.failures.length > 0)
      throw new Error(`check failed: ${JSON.stringify(checkResult.failures)}`);
    const unchanged = await kaasShell.diff(id, outs, checkResult.inputs);
    const withChange = await kaasShell.diff(id, outs, changed);
    if (unchanged.changes !== false || withChange.changes !== true) {
      throw new Error(`unexpected diff results: ${JSON.stringify({ unchanged, withChange })}`);
    }

    const ours = {
      check: await time(() => kaasShell.check(inputs, raw)),
      diff: await time(() => kaasShell.diff(id, outs, checkResult.inputs)),
      diffWithChange: await time(() => kaasShell.diff(id, outs, changed)),
    };
    // What check accepted, and the state a create made of it: the checked shape the mapping takes.
    const checked = /** @type {import("../../dist/provider/kaas/types.js").CheckedKaasInputs} */ (
      checkResult.inputs
    );
    const state = /** @type {import("../../dist/provider/kaas/types.js").CheckedKaasInputs} */ (outs);
    const baseline = {
      check: await time(async () => validateSchema(KaasInsert, insertBody(checked))),
      diff: await time(async () => JSON.stringify(insertBody(state)) !== JSON.stringify(insertBody(checked))),
    };
    return { pools: raw.nodePools.length, ours, baseline };
  } finally {
    await harness.close();
  }
}
