/**
 * Resource options through the real engine against the emulator, on registries, the quickest kind, where the
 * engine itself acts on them:
 *
 * - `replaceOnChanges: ["tags"]` replaces a registry whose tags change (a new registry, the old deleted).
 * - `Registry.get` and `KaasBackup.get` read objects this stack did not create (seeded in the service) and
 *   export their outputs.
 * - `pulumi import` fails inside the Node.js dynamic-provider host, which is what docs/resources.md says.
 *
 * What the classes do with an option before the engine sees it (`import` refused showing `adoptId`,
 * `customTimeouts` made the `timeouts` input, a value that is not a duration refused) is the unit project's
 * (tests/unit/resource-options.test.ts); the provider's side (the deadline of a create, the read of a `get` of a
 * missing id, a delete of another stack's object) the integration project's
 * (tests/integration/options-provider.test.ts, registry-provider.test.ts).
 */
import path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { SEED_LOCATION } from "../../emulator";
import { registry } from "./support/args";
import { PROJECT, openSuite, values, type Declared, type Suite } from "./support/suite";

/** The project of the suite's program. */
const PROJECT_NAME = "options";
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

const swapRegistry = (tags: string[]): OptionsDeclared => ({
  ...registry({ name: "swap", tags }),
  name: "swap",
  opts: { replaceOnChanges: ["tags"] },
});

it("replaces a registry whose tags change under replaceOnChanges: a new registry, the old one deleted", async () => {
  await declare(a, [swapRegistry(["blue"])]);
  const first = await a.up();
  expect(first.outputs["swap.registryId"].value).toBe("registry-0001");

  await declare(a, [swapRegistry(["green"])]);
  s.clearRequests();
  const second = await a.up();
  expect(second.summary.resourceChanges).toEqual({ replace: 1, same: 1 });
  expect(s.mutations()).toEqual([
    "POST /registries",
    "PUT /registries/registry-0002",
    "DELETE /registries/registry-0001",
  ]);
  expect(values(second.outputs)["swap.tags"]).toEqual(["green"]);
  expect(values(second.outputs)["swap.registryId"]).toBe("registry-0002");
});

it("reads with get objects the stack did not create, sending nothing that changes them", async () => {
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
  await declare(a, [
    swapRegistry(["green"]),
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
});

it("pulumi import fails inside the dynamic-provider host, before this package's code runs, changing nothing", async () => {
  const before = await a.exportStack();
  s.clearRequests();
  const run = s.cli(["import", REGISTRY_TYPE, "imported", "registry-0002", "--yes", "--stack", "a"], dir);
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
