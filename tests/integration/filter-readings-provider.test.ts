/**
 * The providers' idempotent create and their reads under every reading of the emulator's `wire.filters`:
 * what `eq` does on an array field such as `metadata.tags`, and how an unsupported filter is answered, the
 * published interface does not say (api-notes "What the published interface does not show"). Whatever the
 * service does with filters, a create interrupted after the service accepted it, or whose answer was lost,
 * ends with exactly one object and the provider returning its id.
 *
 * The lookup filters by the resource's owner tag, which every object the package creates carries, so it finds
 * an interrupted create and an object a state recorded alike. Each object carries a user tag, so under `whole`
 * a `metadata.tags:eq(owner tag)` filter finds nothing; a decoy of the same name created by another stack
 * (another creation tag, another owner) comes first in every list. A create leaves its creation tag on the
 * object; the program's release (once the engine has recorded the id) leaves the owner tag alone. A released
 * object found while the state tracks nothing stops the create before any request that changes anything.
 */
import type { WireReadings } from "../../emulator";
import type { KindProvider } from "../../provider";
import { backupInsertBody } from "../../provider/kaasBackup/mapping";
import type { Inputs } from "../../provider/common/check";
import { insertBody } from "../../provider/kaas/mapping";
import { registryInsertBody } from "../../provider/registry/mapping";
import type { CheckedKaasBackupInputs } from "../../provider/kaasBackup/types";
import type { CheckedKaasInputs } from "../../provider/kaas/types";
import type { CheckedRegistryInputs } from "../../provider/registry/types";
import { expectedOwnerTag } from "../support/creation-token";
import { byName, byTag } from "../support/expressions";
import { asChecked, checked, startHarness, PROJECT, type Harness } from "./support/harness";

type Reading = WireReadings["filters"];
type KindName = "Kaas" | "KaasBackup" | "Registry";

/** How refusals name each kind's object. */
const NOUNS: Record<KindName, string> = { Kaas: "cluster", KaasBackup: "backup", Registry: "registry" };

const READINGS: Reading[] = ["membership", "whole", "ignored", "refused"];
const PREFIX = `/projects/${PROJECT}/providers/Vendor.Container`;
/** The tag of a decoy: an object of the same name created by another stack. */
const OTHER_STACK_TAG = "pulumi-ct-0123456789abcdef0123";

let h: Harness;
/** The cluster that hosts the backups (created directly, Active). */
let hostId: string;

afterEach(async () => {
  await h?.close();
});

/** Starts the emulator with `reading` and a settled cluster to host backups; the request log starts empty. */
async function start(reading: Reading): Promise<void> {
  h = await startHarness({ wire: { filters: reading } });
  const host = await h.client.call(
    "createKaas",
    { projectId: PROJECT },
    {
      metadata: { name: "host", location: { value: "ITBG-Bergamo" } },
      properties: {
        preset: true,
        nodeCidr: { address: "10.20.0.0/16", name: "host-nodes" },
        kubernetesVersion: { value: "1.32.5" },
        nodePools: [{ name: "system", nodes: 1, instance: "K4A8", dataCenter: "ITBG-1" }],
      },
    },
  );
  hostId = host.metadata.id;
  h.emulator.patchResource("kaas", hostId, { state: "Active" });
  h.emulator.clearRequests();
}

/** Arguments, the collection path and the direct POST of each kind. */
const KINDS: Record<
  KindName,
  {
    args: () => Inputs;
    collection: () => string;
    post: (inputs: Inputs) => Promise<{ metadata: { id: string } }>;
    /** The kind's objects the service holds (tombstones included). */
    live: () => { metadata: { id: string; name?: string | null; tags?: string[] | null } }[];
  }
> = {
  Kaas: {
    args: () => ({
      name: "prod",
      location: "ITBG-Bergamo",
      kubernetesVersion: "1.32.5",
      nodeCidr: { address: "10.10.0.0/16", name: "prod-nodes" },
      nodePools: [{ name: "system", nodes: 1, instance: "K4A8", dataCenter: "ITBG-1" }],
      tags: ["team:a"],
      creationScope: "proj/dev/prod",
    }),
    collection: () => "/kaas",
    post: (inputs) =>
      h.client.call("createKaas", { projectId: PROJECT }, insertBody(asChecked<CheckedKaasInputs>(inputs))),
    live: () => h.emulator.state().kaas.filter((k) => k.metadata.id !== hostId),
  },
  KaasBackup: {
    args: () => ({
      kaasId: hostId,
      name: "nightly",
      location: "ITBG-Bergamo",
      type: "Full",
      retentionDays: 7,
      billingPeriod: "Month",
      tags: ["team:a"],
      creationScope: "proj/dev/nightly",
    }),
    collection: () => `/kaas/${hostId}/backups`,
    post: (inputs) =>
      h.client.call(
        "createBackup",
        { projectId: PROJECT, kaasId: hostId },
        backupInsertBody(asChecked<CheckedKaasBackupInputs>(inputs)),
      ),
    live: () => h.emulator.state().backups,
  },
  Registry: {
    args: () => ({
      name: "images",
      location: "ITBG-Bergamo",
      adminUsername: "ops",
      size: "Small",
      billingPeriod: "Month",
      publicIpUri: `/projects/${PROJECT}/providers/Vendor.Network/elasticIps/ip-1`,
      tags: ["team:a"],
      creationScope: "proj/dev/images",
    }),
    collection: () => "/registries",
    post: (inputs) =>
      h.client.call(
        "createRegistry",
        { projectId: PROJECT },
        registryInsertBody(asChecked<CheckedRegistryInputs>(inputs)),
      ),
    live: () => h.emulator.state().registries,
  },
};

/** Creates the decoy: same name and arguments, another stack's creation tag and owner tag. */
async function decoy(kind: KindName, inputs: Inputs): Promise<string> {
  const other = {
    ...inputs,
    creationToken: undefined,
    creationScope: "proj/other/decoy",
    tags: ["team:a", OTHER_STACK_TAG],
  };
  return (await KINDS[kind].post(other)).metadata.id;
}

/** Each list request of the kind's collection: its `filter` (null without one) and the status answered. */
function listCalls(kind: KindName): { filter: string | null; status: number | null }[] {
  const path = `${PREFIX}${KINDS[kind].collection()}`;
  return h.emulator
    .requests()
    .filter((r) => r.method === "GET" && r.path === path)
    .map((r) => ({ filter: r.query.filter ?? null, status: r.status }));
}

/** The tags of the kind's live object `id`. */
const tagsOf = (kind: KindName, id: string) =>
  KINDS[kind].live().find((o) => o.metadata.id === id)?.metadata.tags;

/** The ids of the kind's live objects carrying `tag`. */
const carrying = (kind: KindName, tag: string) =>
  KINDS[kind]
    .live()
    .filter((o) => (o.metadata.tags ?? []).includes(tag))
    .map((o) => o.metadata.id);

/**
 * The list requests of a lookup that finds the object, per reading: the owner tag filter finds it where `eq`
 * matches an element or the service ignores filters; under `whole` the user tag makes it miss and the name
 * finds it; under `refused` the filtered list is answered 400 and the unfiltered list finds it.
 */
function findingLookup(reading: Reading, tag: string, name: string) {
  switch (reading) {
    case "membership":
    case "ignored":
      return [{ filter: byTag(tag), status: 200 }];
    case "whole":
      return [
        { filter: byTag(tag), status: 200 },
        { filter: byName(name), status: 200 },
      ];
    case "refused":
      return [
        { filter: byTag(tag), status: 400 },
        { filter: null, status: 200 },
      ];
  }
}

/**
 * The list requests a create sends after its lookup: a registry's outputs read its engine version from the
 * list (`loadEngineVersion`), narrowed by id, or unfiltered once the service refused a filter.
 */
function afterLookup(kind: KindName, reading: Reading, id: string) {
  if (kind !== "Registry") return [];
  return [{ filter: reading === "refused" ? null : `metadata.id:eq("${id}")`, status: 200 }];
}

describe.each(READINGS)("filters %s", (reading) => {
  it.each<KindName>(["Kaas", "KaasBackup", "Registry"])(
    "%s: a create interrupted after the service accepted it is resumed, never duplicated, and its creation tag released by the program",
    async (kind) => {
      await start(reading);
      const p: KindProvider = h.kind(kind);
      const inputs = await checked(p, {}, KINDS[kind].args());
      const tag = `pulumi-ct-${inputs.creationToken}`;
      const owner = expectedOwnerTag(inputs.creationScope as string);
      const other = await decoy(kind, inputs);
      // The earlier run: the service accepted its POST, the process died before it saw the answer.
      const earlier = (await KINDS[kind].post(inputs)).metadata.id;
      h.emulator.clearRequests();

      const { id, outs } = await p.create(inputs);

      expect(id).toBe(earlier);
      expect(h.mutating()).toEqual([]);
      expect(carrying(kind, tag)).toEqual([earlier]);
      expect(tagsOf(kind, other)).toEqual(["team:a", OTHER_STACK_TAG, expectedOwnerTag("proj/other/decoy")]);
      expect(KINDS[kind].live().map((o) => o.metadata.id)).toEqual([other, earlier]);
      expect(listCalls(kind)).toEqual([
        ...findingLookup(reading, owner, inputs.name as string),
        ...afterLookup(kind, reading, id),
      ]);

      await h.release(kind, id, outs);
      expect(h.mutating()).toEqual([{ method: "PUT", path: `${KINDS[kind].collection()}/${earlier}` }]);
      expect(carrying(kind, tag)).toEqual([]);
      expect(tagsOf(kind, earlier)).toEqual(["team:a", owner]);
    },
  );

  it.each<KindName>(["Kaas", "KaasBackup", "Registry"])(
    "%s: a create whose answer was lost is looked up, not sent again",
    async (kind) => {
      await start(reading);
      const p: KindProvider = h.kind(kind);
      const inputs = await checked(p, {}, KINDS[kind].args());
      const tag = `pulumi-ct-${inputs.creationToken}`;
      const other = await decoy(kind, inputs);
      h.emulator.clearRequests();
      // The service processes every POST and the connection drops before its answer.
      h.emulator.setFaults({ dropAfterProcessingRate: 1, methods: ["POST"] });

      const { id } = await p.create(inputs);
      h.emulator.setFaults({});

      const owner = expectedOwnerTag(inputs.creationScope as string);
      expect(carrying(kind, tag)).toEqual([id]);
      expect(KINDS[kind].live().map((o) => o.metadata.id)).toEqual([other, id]);
      expect(tagsOf(kind, id)).toEqual(["team:a", tag, owner]);
      expect(h.mutating()).toEqual([{ method: "POST", path: KINDS[kind].collection() }]);
      const what = `${kind} "${(inputs.creationScope as string).split("/")[2]}"`;
      expect(h.lines).toContain(
        `[vendor-container] ${what}: the create request's outcome is unknown (POST ` +
          `${KINDS[kind].collection()} failed (network): ECONNRESET socket hang up); checking before retrying`,
      );
      // Before the POST the lookup finds nothing, and never lists the whole collection where filters work:
      // the owner tag filter then the name filter; the tag filter alone where the service ignores it (its
      // answer, holding the decoy, is the whole list); the whole list once when refused (the 400 is
      // remembered, so the lookup after the POST lists unfiltered straight away).
      const name = inputs.name as string;
      const missing = {
        membership: [
          { filter: byTag(owner), status: 200 },
          { filter: byName(name), status: 200 },
        ],
        whole: [
          { filter: byTag(owner), status: 200 },
          { filter: byName(name), status: 200 },
        ],
        ignored: [{ filter: byTag(owner), status: 200 }],
        refused: [
          { filter: byTag(owner), status: 400 },
          { filter: null, status: 200 },
        ],
      }[reading];
      const finding =
        reading === "refused" ? [{ filter: null, status: 200 }] : findingLookup(reading, owner, name);
      expect(listCalls(kind)).toEqual([...missing, ...finding, ...afterLookup(kind, reading, id)]);
    },
  );
});

// An object a state recorded (its creation tag released by the program) carries only the user tag and the
// owner tag: the lookup finds it under every reading, and a create whose state tracks nothing stops there.
describe.each(READINGS)("filters %s", (reading) => {
  it.each<KindName>(["Kaas", "KaasBackup", "Registry"])(
    "%s: the lookup finds a released object naming the resource as owner, and a create with trackedId null is refused before any POST",
    async (kind) => {
      await start(reading);
      const p: KindProvider = h.kind(kind);
      const inputs = await checked(p, {}, { ...KINDS[kind].args(), trackedId: null });
      const owner = expectedOwnerTag(inputs.creationScope as string);
      const other = await decoy(kind, inputs);
      // Sent directly, so that the provider's first lookup is the create's own.
      const recorded = (await KINDS[kind].post(inputs)).metadata.id;
      expect(await h.release(kind, recorded, inputs)).toBe("retagged");
      expect(tagsOf(kind, recorded)).toEqual(["team:a", owner]);
      h.emulator.clearRequests();

      const error = await p.create(inputs).then(
        () => undefined,
        (e: unknown) => e as Error,
      );

      const created = KINDS[kind].live().find((o) => o.metadata.id === recorded) as {
        metadata: { creationDate?: string | null };
      };
      const what = `${kind} "${(inputs.creationScope as string).split("/")[2]}"`;
      const noun = NOUNS[kind];
      expect(error?.message).toBe(
        `${what}: found ${noun} ${recorded} (Active, created ${created.metadata.creationDate}) naming this ` +
          `resource as its owner (tag ${owner}), but this stack's state does not track it: it was removed ` +
          "from the state (pulumi state delete), the state was restored from an older copy, or another state backend holds a stack of the same name. Nothing was " +
          `created. If it is this resource's ${noun}, set adoptId: "${recorded}" to track it again; ` +
          "otherwise delete it.",
      );
      expect(h.emulator.requests().filter((r) => r.method === "POST")).toEqual([]);
      expect(h.mutating()).toEqual([]);
      expect(KINDS[kind].live().map((o) => o.metadata.id)).toEqual([other, recorded]);
      expect(listCalls(kind)).toEqual(findingLookup(reading, owner, inputs.name as string));
    },
  );
});

/** A create whose earlier run made its object under `first-name`, declared `renamed-in-the-program` now. */
async function renamedInterruptedCreate(reading: Reading, kind: KindName) {
  await start(reading);
  const p: KindProvider = h.kind(kind);
  const inputs = await checked(p, {}, { ...KINDS[kind].args(), name: "renamed-in-the-program" });
  const tag = `pulumi-ct-${inputs.creationToken}`;
  // The earlier run created it under its old name (the token does not depend on any argument).
  const earlier = (await KINDS[kind].post({ ...inputs, name: "first-name" })).metadata.id;
  h.emulator.clearRequests();
  const { id, outs } = await p.create(inputs);
  return { inputs, tag, earlier, id, outs };
}

// Where the service applies the owner tag filter to each element, ignores it or refuses it, the lookup reads an
// answer that holds every object carrying the tag, whatever its name.
describe.each<Reading>(["membership", "ignored", "refused"])("filters %s", (reading) => {
  it.each<KindName>(["Kaas", "KaasBackup", "Registry"])(
    "%s: a create interrupted, then renamed before the next run, is still resumed, never duplicated",
    async (kind) => {
      const { inputs, tag, earlier, id, outs } = await renamedInterruptedCreate(reading, kind);

      expect(id).toBe(earlier);
      expect(h.mutating()).toEqual([]);
      expect(KINDS[kind].live().map((o) => o.metadata.id)).toEqual([earlier]);
      // The resumed object keeps the name the service has (the next preview plans the rename).
      expect(KINDS[kind].live()[0].metadata.name).toBe("first-name");
      expect(tagsOf(kind, earlier)).toEqual([
        "team:a",
        tag,
        expectedOwnerTag(inputs.creationScope as string),
      ]);
      // The program's release keeps the name the service has too.
      await h.release(kind, id, outs);
      expect(h.mutating()).toEqual([{ method: "PUT", path: `${KINDS[kind].collection()}/${earlier}` }]);
      expect(carrying(kind, tag)).toEqual([]);
      expect(KINDS[kind].live()[0].metadata.name).toBe("first-name");
    },
  );
});

// The documented limit of the lookup (`findCreated`): where `eq` compares the whole tag array, the owner tag
// filter misses an object that carries other tags and the name filter looks for the new name, and the whole
// list is never read where filters work. The earlier object is left as it was, its creation tag showing what it
// is.
describe("filters whole", () => {
  it.each<KindName>(["Kaas", "KaasBackup", "Registry"])(
    "%s: a create interrupted, then renamed before the next run, is not found, and a new object is created",
    async (kind) => {
      const { inputs, tag, earlier, id } = await renamedInterruptedCreate("whole", kind);

      const owner = expectedOwnerTag(inputs.creationScope as string);
      expect(id).not.toBe(earlier);
      expect(h.mutating()).toEqual([{ method: "POST", path: KINDS[kind].collection() }]);
      expect(KINDS[kind].live().map((o) => o.metadata.id)).toEqual([earlier, id]);
      expect(carrying(kind, tag)).toEqual([earlier, id]);
      expect(tagsOf(kind, id)).toEqual(["team:a", tag, owner]);
      expect(listCalls(kind).slice(0, 2)).toEqual([
        { filter: byTag(owner), status: 200 },
        { filter: byName("renamed-in-the-program"), status: 200 },
      ]);
    },
  );
});

describe.each<Reading>(["whole", "refused", "ignored"])("reads under filters %s", (reading) => {
  it("reads a registry's engine version from the list and everything else by id", async () => {
    await start(reading);
    const registries = h.kind("Registry");
    const inputs = await checked(registries, {}, KINDS.Registry.args());
    await decoy("Registry", inputs);
    const { id, outs } = await registries.create(inputs);
    expect(id).toBe("registry-0002");
    expect(outs).toMatchObject({ registryId: id, engineVersion: "2.11.1", state: "Active" });
    h.emulator.clearRequests();

    const read = await registries.read(id, outs);

    expect(read.id).toBe(id);
    expect(read.props).toMatchObject({ registryId: id, engineVersion: "2.11.1", name: "images" });
    const gets = h.emulator
      .requests()
      .filter((r) => r.method === "GET")
      .map((r) => ({ path: r.path.replace(PREFIX, ""), filter: r.query.filter ?? null, status: r.status }));
    const listed =
      reading === "refused"
        ? // The create's lookup already met the refusal: this process lists without filters from then on.
          [{ path: "/registries", filter: null, status: 200 }]
        : [{ path: "/registries", filter: `metadata.id:eq("${id}")`, status: 200 }];
    expect(gets).toEqual([{ path: `/registries/${id}`, filter: null, status: 200 }, ...listed]);
  });

  it("reads a backup by id, never through a list", async () => {
    await start(reading);
    const backups = h.kind("KaasBackup");
    const inputs = await checked(backups, {}, KINDS.KaasBackup.args());
    await decoy("KaasBackup", inputs);
    const { id, outs } = await backups.create(inputs);
    expect(id).toBe("backup-0002");
    h.emulator.clearRequests();

    const read = await backups.read(id, outs);

    expect(read).toMatchObject({ id, props: { backupId: id, name: "nightly", kaasId: hostId } });
    expect(listCalls("KaasBackup")).toEqual([]);
    expect(h.emulator.requests().map((r) => `${r.method} ${r.path.replace(PREFIX, "")}`)).toEqual([
      `GET /kaas/${hostId}/backups/${id}`,
    ]);
  });
});

describe("a service that refuses filters", () => {
  it("costs one refused request per process: later lookups list without the filter at once", async () => {
    await start("refused");
    const kaas = h.kind("Kaas");
    const first = await checked(kaas, {}, KINDS.Kaas.args());
    const second = await checked(
      kaas,
      {},
      { ...KINDS.Kaas.args(), name: "stage", creationScope: "proj/dev/stage" },
    );

    expect((await kaas.create(first)).id).toBe("kaas-0002");
    expect((await kaas.create(second)).id).toBe("kaas-0003");

    expect(listCalls("Kaas")).toEqual([
      { filter: byTag(expectedOwnerTag("proj/dev/prod")), status: 400 },
      { filter: null, status: 200 },
      { filter: null, status: 200 },
    ]);
    expect(h.lines.filter((l) => l.includes("refuses the list filter"))).toEqual([
      '[vendor-container] Kaas "prod": the service refuses the list filter (400); listing without filters from now on',
    ]);
  });
});
