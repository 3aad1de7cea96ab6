/**
 * Package upgrade safety: a stack written by version 0.1.0 (tests/fixtures/state-v0.1.0.json, generated once
 * by tests/fixtures/generate-state-v0.1.0.ts and never by this test) keeps working with the current code.
 * For each kind: `check` of the unchanged program reproduces the stored inputs (creation token included, or
 * an interrupted create could no longer find its object), `diff` of the stored outputs shows no change,
 * refresh against a service holding the same objects (the emulator loaded from the fixture's state document)
 * returns the stored outputs, and destroy from the stored outputs deletes everything.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Inputs } from "../../provider/common/check";
import type { KindName } from "../../provider";
import { startHarness, type Harness } from "./support/harness";
import { harnessWire } from "./support/wire";

interface FixtureResource {
  name: string;
  kind: KindName;
  id: string;
  /** The program's arguments. */
  args: Inputs;
  /** Inputs as the engine stored them (checked, with `__provider`). */
  inputs: Inputs;
  /** Outputs as the engine stored them (with `__provider`). */
  outputs: Inputs;
}

interface StateFixture {
  package: string;
  emulator: { seed: number; projectId: string; state: { format: string } };
  resources: FixtureResource[];
}

const FIXTURE_PATH = path.join(__dirname, "..", "fixtures", "state-v0.1.0.json");
const fixture = JSON.parse(fs.readFileSync(FIXTURE_PATH, "utf8")) as StateFixture;
const KAAS = "kaas-0001";
const VOLUME = `/projects/${fixture.emulator.projectId}/providers/Vendor.Storage/blockStorages/data-1`;

const withoutProvider = (values: Inputs): Inputs =>
  Object.fromEntries(Object.entries(values).filter(([k]) => k !== "__provider"));
/**
 * The stored outputs as the current version reports them: node ids are no longer read (no published response
 * carries them), so they leave `currentNodePools`; that is the one change of a stored output.
 */
function withoutNodeIds(outputs: Inputs): Inputs {
  if (!Array.isArray(outputs.currentNodePools)) return outputs;
  return {
    ...outputs,
    currentNodePools: (outputs.currentNodePools as Inputs[]).map(({ nodeIds: _nodeIds, ...pool }) => pool),
  };
}
/** The values of `keys` in `values`: the stored outputs must keep their values; new outputs may appear. */
const pick = (values: Inputs, keys: string[]): Inputs =>
  Object.fromEntries(keys.filter((k) => k in values).map((k) => [k, values[k]]));

let h: Harness;
let dir: string;
beforeEach(async () => {
  // A copy of the fixture's service state: the emulator rewrites its state file on every mutation.
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "reliability-upgrade-"));
  const stateFile = path.join(dir, "emulator.json");
  fs.writeFileSync(stateFile, JSON.stringify(fixture.emulator.state));
  h = await startHarness({
    // Zones by code, as when the fixture was written: the name-only reading has a test of its own below.
    seed: fixture.emulator.seed,
    stateFile,
    wire: { ...harnessWire(), dataCenter: "code" },
    // The stack config of the stack that wrote the fixture: its default project seeds the creation tokens.
    config: { "vendor:projectId": fixture.emulator.projectId },
  });
});
afterEach(async () => {
  await h.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

it("is the small, deterministic fixture of version 0.1.0 with one resource of each kind", () => {
  expect(fixture.package).toBe("pulumi-vendor-container@0.1.0");
  expect(fixture.emulator.state.format).toBe("pulumi-vendor-container-emulator/1");
  expect(fixture.resources.map((r) => [r.name, r.kind, r.id])).toEqual([
    ["cluster", "Kaas", KAAS],
    ["nightly", "KaasBackup", "backup-0001"],
    ["images", "Registry", "registry-0001"],
    ["data", "VolumeAttachment", `${KAAS}:${VOLUME}`],
  ]);
  for (const r of fixture.resources) {
    expect(r.inputs.__provider).toContain(`require("pulumi-vendor-container/shells/${r.kind}")`);
    expect(r.outputs.__provider).toBe(r.inputs.__provider);
  }
});

describe.each(fixture.resources.map((r) => [r.kind, r] as const))("%s", (_kind, stored) => {
  /** `check` as the engine runs it after the upgrade: old inputs from state, the unchanged program. */
  async function checkedNow(): Promise<Inputs> {
    const { inputs, failures } = await h
      .kind(stored.kind)
      .check(stored.inputs, { ...stored.args, __provider: stored.inputs.__provider });
    expect(failures).toEqual([]);
    return inputs;
  }

  it("checks the unchanged program to exactly the stored inputs, creation token included", async () => {
    expect(await checkedNow()).toEqual(stored.inputs);
  });

  it("checks the stored inputs themselves to the same inputs", async () => {
    const { inputs, failures } = await h.kind(stored.kind).check(stored.inputs, stored.inputs);
    expect(failures).toEqual([]);
    expect(inputs).toEqual(stored.inputs);
  });

  it("shows no change between the stored outputs and the checked program", async () => {
    const diff = await h.kind(stored.kind).diff(stored.id, stored.outputs, await checkedNow());
    expect(diff).toEqual({
      changes: false,
      replaces: [],
      deleteBeforeReplace: stored.kind === "VolumeAttachment",
    });
  });

  it("refreshes to the stored outputs and inputs, without a mutating call, and then shows no change", async () => {
    const read = await h.kind(stored.kind).read(stored.id, stored.outputs);
    expect(read.id).toBe(stored.id);
    const storedOutputs = withoutNodeIds(withoutProvider(stored.outputs));
    expect(pick(read.props, Object.keys(storedOutputs))).toEqual(storedOutputs);
    // Nothing drifted: no inputs are handed back, so the engine keeps the stored ones (and their secret marks).
    expect(read.inputs).toBeUndefined();
    expect(h.emulator.requests().filter((r) => r.mutating)).toEqual([]);
    const diff = await h
      .kind(stored.kind)
      .diff(stored.id, { ...read.props, __provider: stored.outputs.__provider }, await checkedNow());
    expect(diff.changes).toBe(false);
  });
});

it("refreshes the stored cluster with no input change when the service shows only zone names and no node ids", async () => {
  const cluster = fixture.resources[0];
  // The published shapes: `dataCenter: {name}` with a display label (`Bergamo 1` for ITBG-1), no `nodeIds`.
  h.emulator.updateConfig({ wire: { dataCenter: "name", nodeIds: "hidden" } });
  const read = await h.kind("Kaas").read(KAAS, cluster.outputs);
  expect(read.inputs).toBeUndefined();
  expect(
    (read.props.currentNodePools as { name: string; dataCenter: string }[]).map((p) => [
      p.name,
      p.dataCenter,
    ]),
  ).toEqual([
    ["system", "Bergamo 1"],
    ["workers", "Bergamo 2"],
  ]);
  const program = await h
    .kind("Kaas")
    .check(cluster.inputs, { ...cluster.args, __provider: cluster.inputs.__provider });
  const diff = await h
    .kind("Kaas")
    .diff(KAAS, { ...read.props, __provider: cluster.outputs.__provider }, program.inputs);
  expect(diff).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
  expect(h.emulator.requests().filter((r) => r.mutating)).toEqual([]);
});

it("keeps the stored kubeconfig on refresh, since its content did not change", async () => {
  const cluster = fixture.resources[0];
  expect(cluster.outputs.kubeconfig).toContain(h.emulator.kubeconfigToken(KAAS));
  const read = await h.kind("Kaas").read(KAAS, cluster.outputs);
  expect(read.props.kubeconfig).toBe(cluster.outputs.kubeconfig);
});

it("destroys the whole stack from the stored outputs, in reverse order, and the service is empty", async () => {
  for (const stored of [...fixture.resources].reverse()) {
    await h.kind(stored.kind).delete(stored.id, stored.outputs);
  }
  const prefix = `/projects/${fixture.emulator.projectId}/providers/Vendor.Container`;
  expect(
    h.emulator
      .requests()
      .filter((r) => r.mutating)
      .map((r) => `${r.method} ${r.path.replace(prefix, "")}`),
  ).toEqual([
    `POST /kaas/${KAAS}/nodePools/system/nodes/${KAAS}-system-1/detach`,
    "DELETE /registries/registry-0001",
    `DELETE /kaas/${KAAS}/backups/backup-0001`,
    `DELETE /kaas/${KAAS}`,
  ]);
  const state = h.emulator.state();
  const live = [...state.kaas, ...state.backups, ...state.registries].filter(
    (r) => r.status?.state !== "Deleted",
  );
  expect(live).toEqual([]);
  expect(state.counters).toEqual({ kaas: 1, backup: 1, registry: 1 });
});
