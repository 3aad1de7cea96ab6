/**
 * Resource options through the real engine against the emulator (every option a user may pass is honoured or
 * refused clearly), on registries, the quickest kind:
 *
 * - `import` fails the program before any request, showing `adoptId`; `pulumi import` fails inside the
 *   Node.js dynamic-provider host, which is what docs/resources.md says.
 * - `customTimeouts` set the provider's deadlines; a value that is not a duration fails naming the option.
 * - `replaceOnChanges: ["tags"]` replaces a registry whose tags change (a new registry, the old deleted).
 * - `Registry.get` and `KaasBackup.get` read objects this stack did not create (seeded in the service) and
 *   export their outputs; a `get` of a missing id fails naming it.
 * - A stack copied with `pulumi stack export` and `pulumi stack import` refuses to destroy the objects of the
 *   original stack, deletes nothing, and does with `VENDOR_ALLOW_FOREIGN_DELETE=true`.
 */
import path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { SEED_LOCATION } from "../../emulator";
import { registry } from "./support/args";
import { foreignDeleteRefusal } from "./support/refusals";
import { PROJECT, openSuite, values, type Declared, type Suite } from "./support/suite";

/** The project of the suite's program. */
const PROJECT_NAME = "options";
/** How long a registry create takes while a deadline must pass first: until the emulator's clock moves. */
const LONG_MS = 10 * 60 * 1000;
const REGISTRY_TYPE = "pulumi-nodejs:dynamic/vendor-container:Registry";

/** A declaration of the options program: a resource with options, or a `get`. */
type OptionsDeclared = Omit<Declared, "args"> & {
  args?: Record<string, unknown>;
  opts?: Record<string, unknown>;
  get?: { id: string; lookup?: Record<string, unknown> };
};

let s: Suite;
let dir: string;
let a: Stack;

beforeAll(async () => {
  s = await openSuite("options");
  dir = s.program(PROJECT_NAME, path.join(__dirname, "programs/options"));
  a = await s.stack("a", dir);
});
afterAll(async () => {
  await s?.close();
});

const declare = (stack: Stack, resources: OptionsDeclared[]) =>
  stack.setConfig("e2e:resources", { value: JSON.stringify(resources) });

/** A registry named `name` with `opts`. */
const timedRegistry = (opts: Record<string, unknown>): OptionsDeclared => ({
  ...registry({ name: "timed" }),
  name: "timed",
  opts,
});
const swapRegistry = (tags: string[]): OptionsDeclared => ({
  ...registry({ name: "swap", tags }),
  name: "swap",
  opts: { replaceOnChanges: ["tags"] },
});

it("refuses the import option before any request, showing adoptId", async () => {
  await declare(a, [{ ...registry(), opts: { import: "registry-0001" } }]);
  s.clearRequests();
  await expect(a.preview()).rejects.toThrow(
    'Registry "images": the "import" resource option does not work for this package\'s resources (Pulumi ' +
      'cannot import into a dynamic resource). To take over the existing object, remove "import" and set the ' +
      'argument adoptId instead: new Registry("images", { ...args, adoptId: "registry-0001" })',
  );
  expect(s.requests()).toEqual([]);
});

it("refuses a customTimeouts value that is not a duration, naming the option", async () => {
  await declare(a, [timedRegistry({ customTimeouts: { create: "soon" } })]);
  s.clearRequests();
  await expect(a.preview()).rejects.toThrow(
    'Registry "timed": customTimeouts.create must be a duration like "30m", "1h", "90s" or "1h30m", got "soon"',
  );
  expect(s.requests()).toEqual([]);
});

it("gives the create the deadline of customTimeouts, and keeps the registry it made", async () => {
  s.emulator.emulator.updateConfig({ durations: { registryCreateMs: LONG_MS } });
  await declare(a, [timedRegistry({ customTimeouts: { create: "3s" } })]);
  await expect(a.up()).rejects.toThrow(
    /Registry "timed" \(registry-0001\) did not reach Active within [23]s \(last state InCreation\)/,
  );
  const { deployment } = await a.exportStack();
  const timed = (
    deployment.resources as { urn: string; id?: string; inputs?: Record<string, unknown> }[]
  ).find((r) => r.urn.endsWith("::timed"));
  expect([timed?.id, timed?.inputs?.timeouts]).toEqual(["registry-0001", { create: "3s" }]);

  // Once the registry is Active, the next up picks it up.
  s.emulator.emulator.updateConfig({ durations: { registryCreateMs: 800 } });
  s.emulator.emulator.advanceClock(LONG_MS);
  await a.up();
});

it("replaces a registry whose tags change under replaceOnChanges: a new registry, the old one deleted", async () => {
  const timed = timedRegistry({ customTimeouts: { create: "3s" } });
  await declare(a, [timed, swapRegistry(["blue"])]);
  const first = await a.up();
  expect(first.outputs["swap.registryId"].value).toBe("registry-0002");

  await declare(a, [timed, swapRegistry(["green"])]);
  s.clearRequests();
  const second = await a.up();
  expect(second.summary.resourceChanges).toEqual({ replace: 1, same: 2 });
  expect(s.mutations()).toEqual([
    "POST /registries",
    "PUT /registries/registry-0003",
    "DELETE /registries/registry-0002",
  ]);
  expect(values(second.outputs)["swap.tags"]).toEqual(["green"]);
  expect(values(second.outputs)["swap.registryId"]).toBe("registry-0003");
});

it("reads with get an object the stack did not create, and fails a get of a missing id naming it", async () => {
  const [seeded] = s.emulator.emulator.seed({
    projectId: PROJECT,
    kind: "registry",
    count: 1,
    namePrefix: "seeded",
  }).ids;
  const [kaasId] = s.emulator.emulator.seed({ projectId: PROJECT, kind: "kaas", count: 1 }).ids;
  const [backupId] = s.emulator.emulator.seed({
    projectId: PROJECT,
    kind: "backup",
    count: 1,
    namePrefix: "seeded-backup",
    kaasId,
  }).ids;
  const kept = [timedRegistry({ customTimeouts: { create: "3s" } }), swapRegistry(["green"])];
  await declare(a, [
    ...kept,
    { kind: "Registry", name: "seen", get: { id: seeded } },
    { kind: "KaasBackup", name: "seen-backup", get: { id: backupId, lookup: { kaasId } } },
  ]);
  s.clearRequests();
  const { outputs } = await a.up();
  expect(s.mutations()).toEqual([]);
  const outputsOf = (name: string) =>
    Object.fromEntries(
      Object.entries(values(outputs))
        .filter(([k]) => k.startsWith(`${name}.`))
        .map(([k, v]) => [k.slice(name.length + 1), v]),
    );
  expect(outputsOf("seen")).toMatchObject({
    registryId: seeded,
    name: "seeded-0001",
    location: SEED_LOCATION,
    state: "Active",
    projectId: PROJECT,
  });
  expect(outputsOf("seen-backup")).toMatchObject({
    backupId,
    kaasId,
    name: "seeded-backup-0001",
    location: SEED_LOCATION,
    state: "Active",
    projectId: PROJECT,
  });

  await declare(a, [...kept, { kind: "Registry", name: "missing", get: { id: "registry-9999" } }]);
  await expect(a.up()).rejects.toThrow(
    `Registry "missing": get: no registry registry-9999 in project ${PROJECT} (GET /registries/registry-9999 ` +
      "found nothing)",
  );
  await declare(a, kept);
});

it("pulumi import fails inside the dynamic-provider host, before this package's code runs, changing nothing", async () => {
  const before = await a.exportStack();
  s.clearRequests();
  const run = s.cli(["import", REGISTRY_TYPE, "imported", "registry-0001", "--yes", "--stack", "a"], dir);
  const { code, output } = await run.done;
  // The host reads the object with no serialized provider to run (the engine sends none for an import), so
  // it fails in `require-from-string` (docs/resources.md "Resources", Adopt).
  expect(code).toBe(1);
  expect(output).toContain(
    `${REGISTRY_TYPE} (imported):\n    error: Preview failed: code must be a string, not undefined`,
  );
  expect(output).toContain("at getProvider (");
  expect(s.requests()).toEqual([]);
  expect((await a.exportStack()).deployment.resources).toEqual(before.deployment.resources);
});

it("a copied stack refuses to destroy the original stack's registries; VENDOR_ALLOW_FOREIGN_DELETE lets it", async () => {
  const exported = await a.exportStack();
  const copied = JSON.parse(JSON.stringify(exported).replaceAll("urn:pulumi:a::", "urn:pulumi:b::"));
  const b = await s.stack("b", dir);
  await b.importStack(copied);

  s.clearRequests();
  await expect(b.destroy()).rejects.toThrow(
    foreignDeleteRefusal({
      what: 'Registry "swap"',
      noun: "registry",
      id: "registry-0003",
      owner: `${PROJECT_NAME}/a/swap`,
      current: `${PROJECT_NAME}/b`,
    }),
  );
  expect(s.mutations()).toEqual([]);

  // The same stack, run with the override the refusal names.
  const allowed = await s.stack("b", dir, {}, { VENDOR_ALLOW_FOREIGN_DELETE: "true" });
  s.clearRequests();
  await allowed.destroy();
  expect(s.mutations().sort()).toEqual([
    "DELETE /registries/registry-0001",
    "DELETE /registries/registry-0003",
  ]);

  // The original stack's registries are gone: its destroy finds nothing to delete.
  s.clearRequests();
  await a.destroy();
  expect(s.mutations()).toEqual([]);
});
