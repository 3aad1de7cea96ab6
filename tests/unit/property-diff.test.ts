/**
 * The property paths of a diff (provider/common/propertyDiff.ts), as the provider plugin answers the engine's
 * `Diff`: read from each kind's own diff (`changedArguments`), nested as deep as each argument goes, node pools
 * matched by name, replacement kinds exactly for the arguments the kind replaces, bookkeeping never shown.
 */
import fc from "fast-check";
import type { Inputs } from "../../provider/common/check";
import { propertyDiffsOf, propertyPath, type PropertyDiffs } from "../../provider/common/propertyDiff";
import { UNKNOWN } from "../../provider/common/unknown";
import { changedArguments } from "../../provider";
import { PLUGIN_KINDS } from "../../plugin/kinds";
import { RefusedChange } from "../../provider/kaas/descriptor";
import type { NodePoolArgs } from "../../provider/kaas/types";
import type { KindName } from "../../schemas/kinds";
import {
  baselineInputs,
  checked,
  checkedKaasInputsArb,
  setAt,
  stateOf,
  type Path,
} from "./support/kaas-fixtures";

/** The paths the plugin answers for a `kind` resource whose state is `olds` and checked inputs `news`. */
const pathsOf = (kind: KindName, olds: Inputs, news: Inputs): PropertyDiffs =>
  propertyDiffsOf(olds, news, changedArguments(kind, olds, news), PLUGIN_KINDS[kind].arguments);

const base = baselineInputs();
const state = stateOf(checked(base));
const [SYSTEM, WORKERS] = base.nodePools as NodePoolArgs[];
/** A fixed-size copy of the workers pool: autoscaling off, without its bounds. */
const { minCount: _min, maxCount: _max, ...workersFixed } = { ...WORKERS, autoscaling: false };

/** The baseline with `patch` applied (`undefined` removes an argument), checked against the state. */
function changed(patch: Inputs): Inputs {
  const raw: Inputs = { ...base, ...patch };
  for (const [key, value] of Object.entries(patch)) if (value === undefined) delete raw[key];
  return checked(raw, state);
}

/** The checked baseline with the value at `path` unknown, as a preview sends an output not yet known. */
const unknownAt = (path: Path): Inputs => setAt(checked(base, state), path, UNKNOWN);

/** The kind's diff, or undefined for a change it refuses. */
function refusedOrDiff(olds: Inputs, news: Inputs) {
  try {
    return changedArguments("Kaas", olds, news);
  } catch (error) {
    if (error instanceof RefusedChange) return undefined;
    throw error;
  }
}

const NONE: PropertyDiffs = { diffs: [], detailedDiff: {} };

describe("the property paths of a Kaas diff", () => {
  it.each<[string, Inputs, PropertyDiffs]>([
    ["nothing when nothing changed", changed({}), NONE],
    [
      "an argument updated in place",
      changed({ name: "renamed" }),
      { diffs: ["name"], detailedDiff: { name: "UPDATE" } },
    ],
    [
      "a list of values as one path",
      changed({ tags: ["team-a", "env-staging"] }),
      { diffs: ["tags"], detailedDiff: { tags: "UPDATE" } },
    ],
    [
      "an argument removed",
      changed({ tags: undefined }),
      { diffs: ["tags"], detailedDiff: { tags: "DELETE" } },
    ],
    [
      "an argument added",
      changed({ timeouts: { create: "1h" } }),
      { diffs: ["timeouts"], detailedDiff: { timeouts: "ADD" } },
    ],
    [
      "a member of an object argument that replaces, as a replacement",
      changed({ nodeCidr: { address: "10.11.0.0/16", name: "prod-nodes" } }),
      { diffs: ["nodeCidr"], detailedDiff: { "nodeCidr.address": "UPDATE_REPLACE" } },
    ],
    [
      "a secret member, by its path",
      changed({ identity: { clientId: "client-1", clientSecret: "rotated" } }),
      { diffs: ["identity"], detailedDiff: { "identity.clientSecret": "UPDATE_REPLACE" } },
    ],
    [
      "a removed argument that replaces",
      changed({ podCidr: undefined }),
      { diffs: ["podCidr"], detailedDiff: { podCidr: "DELETE_REPLACE" } },
    ],
    [
      "an argument that replaces, added",
      changed({ autoscalerProfile: { "scale-down-delay-after-add": "10m" } }),
      { diffs: ["autoscalerProfile"], detailedDiff: { autoscalerProfile: "ADD_REPLACE" } },
    ],
    [
      "the version, raised in place",
      changed({ kubernetesVersion: "1.34.0" }),
      { diffs: ["kubernetesVersion"], detailedDiff: { kubernetesVersion: "UPDATE" } },
    ],
    ["HA turned on", changed({ ha: true }), { diffs: ["ha"], detailedDiff: { ha: "UPDATE" } }],
    [
      "a pool resized, at its index",
      changed({ nodePools: [SYSTEM, { ...WORKERS, nodes: 6 }] }),
      { diffs: ["nodePools"], detailedDiff: { "nodePools[1].nodes": "UPDATE" } },
    ],
    [
      "a pool's instance type changed, in place",
      changed({ nodePools: [{ ...SYSTEM, instance: "K8A16" }, WORKERS] }),
      { diffs: ["nodePools"], detailedDiff: { "nodePools[0].instance": "UPDATE" } },
    ],
    [
      "a pool's autoscaling turned off, member by member",
      changed({ nodePools: [SYSTEM, workersFixed] }),
      {
        diffs: ["nodePools"],
        detailedDiff: {
          "nodePools[1].autoscaling": "UPDATE",
          "nodePools[1].maxCount": "DELETE",
          "nodePools[1].minCount": "DELETE",
        },
      },
    ],
    [
      "a pool added, at its new index",
      changed({ nodePools: [SYSTEM, WORKERS, { ...SYSTEM, name: "gpu" }] }),
      { diffs: ["nodePools"], detailedDiff: { "nodePools[2]": "ADD" } },
    ],
    [
      "a pool removed, at its old index, the pools after it matched by name",
      changed({ nodePools: [WORKERS] }),
      { diffs: ["nodePools"], detailedDiff: { "nodePools[0]": "DELETE" } },
    ],
    [
      "a pool resized after the one before it was removed, at its new index",
      changed({ nodePools: [{ ...WORKERS, nodes: 6 }] }),
      { diffs: ["nodePools"], detailedDiff: { "nodePools[0]": "DELETE", "nodePools[0].nodes": "UPDATE" } },
    ],
    [
      "a pool renamed, as its element updated",
      changed({ nodePools: [SYSTEM, { ...WORKERS, name: "batch" }] }),
      { diffs: ["nodePools"], detailedDiff: { "nodePools[1]": "UPDATE" } },
    ],
    ["pools reordered: no change", changed({ nodePools: [WORKERS, SYSTEM] }), NONE],
    [
      "several arguments at once",
      changed({
        name: "renamed",
        nodeCidr: { address: "10.10.0.0/16", name: "other-nodes" },
        nodePools: [SYSTEM, { ...WORKERS, nodes: 5 }],
      }),
      {
        diffs: ["name", "nodeCidr", "nodePools"],
        detailedDiff: {
          name: "UPDATE",
          "nodeCidr.name": "UPDATE_REPLACE",
          "nodePools[1].nodes": "UPDATE",
        },
      },
    ],
    [
      "the replaceOnChanges input's argument as a replacement, the input itself never",
      changed({ tags: ["team-b"], replaceOnChanges: ["tags"] }),
      { diffs: ["tags"], detailedDiff: { tags: "UPDATE_REPLACE" } },
    ],
    ["an ignored argument (adoptId): none", changed({ adoptId: "kaas-9" }), NONE],
    [
      "a renamed stack (creationScope, which the kind updates for): none",
      changed({ creationScope: "shop/prod/prod" }),
      NONE,
    ],
    [
      "an unknown argument that replaces, as an update",
      unknownAt(["nodeCidr"]),
      { diffs: ["nodeCidr"], detailedDiff: { nodeCidr: "UPDATE" } },
    ],
    [
      "an unknown member, at its path, as an update",
      unknownAt(["nodeCidr", "address"]),
      { diffs: ["nodeCidr"], detailedDiff: { "nodeCidr.address": "UPDATE" } },
    ],
    [
      "an unknown pool size, at its path",
      unknownAt(["nodePools", 1, "nodes"]),
      { diffs: ["nodePools"], detailedDiff: { "nodePools[1].nodes": "UPDATE" } },
    ],
    [
      "an unknown pool name, which matches no pool: the list",
      unknownAt(["nodePools", 0, "name"]),
      { diffs: ["nodePools"], detailedDiff: { nodePools: "UPDATE" } },
    ],
    [
      "unknown pools: the list",
      unknownAt(["nodePools"]),
      { diffs: ["nodePools"], detailedDiff: { nodePools: "UPDATE" } },
    ],
  ])("%s", (_name, news, expected) => {
    expect(pathsOf("Kaas", state, news)).toEqual(expected);
  });

  it("names a member of an object that is no identifier in the quoted form", () => {
    const olds = stateOf(checked({ ...base, autoscalerProfile: { "scale-down-delay-after-add": "10m" } }));
    const news = checked({ ...base, autoscalerProfile: { "scale-down-delay-after-add": "20m" } }, olds);
    expect(pathsOf("Kaas", olds, news)).toEqual({
      diffs: ["autoscalerProfile"],
      detailedDiff: { 'autoscalerProfile["scale-down-delay-after-add"]': "UPDATE_REPLACE" },
    });
  });

  it("reads the arguments from the kind's diff: the stack rename is a change the paths leave out", () => {
    const news = changed({ creationScope: "shop/prod/prod" });
    expect(changedArguments("Kaas", state, news)).toEqual({
      changes: true,
      replaces: [],
      updates: ["creationScope"],
    });
  });

  it("has a path under exactly the changed arguments, replacing exactly where the kind replaces", () => {
    fc.assert(
      fc.property(checkedKaasInputsArb, checkedKaasInputsArb, (before, after) => {
        const olds = stateOf(before);
        // A change the kind refuses (HA off, a lower version) has no diff to read paths from.
        const diff = refusedOrDiff(olds, after);
        fc.pre(diff !== undefined);
        const { diffs, detailedDiff } = pathsOf("Kaas", olds, after);
        const bookkeeping = ["creationScope", "creationToken", "trackedId"];
        expect(diffs).toEqual(diff.updates.filter((name) => !bookkeeping.includes(name)));
        const topOf = (path: string) => /^[A-Za-z0-9_]+/.exec(path)?.[0];
        expect([...new Set(Object.keys(detailedDiff).map(topOf))].sort()).toEqual([...diffs].sort());
        for (const [path, kind] of Object.entries(detailedDiff))
          expect([path, kind.endsWith("_REPLACE")]).toEqual([path, diff.replaces.includes(topOf(path)!)]);
      }),
      { numRuns: 200 },
    );
  });
});

describe("the property paths of the other kinds", () => {
  const backup = {
    projectId: "p",
    kaasId: "kaas-1",
    name: "nightly",
    location: "ITBG-Bergamo",
    retentionDays: 7,
  };
  const registry = {
    projectId: "p",
    name: "images",
    location: "ITBG-Bergamo",
    adminUsername: "ops",
    size: "Small",
  };
  const VOLUME = "/projects/p/providers/Vendor.Storage/blockStorages/v-1";
  const attachment = {
    projectId: "p",
    kaasId: "kaas-1",
    nodePoolName: "system",
    nodeId: "n-1",
    volumeUri: VOLUME,
  };

  it.each<[KindName, Inputs, Inputs, PropertyDiffs]>([
    [
      "KaasBackup",
      backup,
      { ...backup, retentionDays: 30, name: "weekly" },
      { diffs: ["name", "retentionDays"], detailedDiff: { name: "UPDATE", retentionDays: "UPDATE_REPLACE" } },
    ],
    [
      "Registry",
      registry,
      { ...registry, size: "Large", tags: ["t"] },
      { diffs: ["tags", "size"], detailedDiff: { tags: "ADD", size: "UPDATE_REPLACE" } },
    ],
    [
      "VolumeAttachment",
      { ...attachment, timeouts: { create: "15m", delete: "15m" } },
      { ...attachment, nodeId: "n-2", timeouts: { create: "15m", delete: "20m" } },
      {
        diffs: ["nodeId", "timeouts"],
        detailedDiff: { nodeId: "UPDATE_REPLACE", "timeouts.delete": "UPDATE" },
      },
    ],
    [
      "VolumeAttachment",
      { ...attachment, declaredBefore: [] },
      { ...attachment, declaredBefore: [{ scope: "p/s/other", nodePoolName: "system", nodeId: "n-1" }] },
      NONE,
    ],
  ])("%s: %j -> %j", (kind, olds, news, expected) => {
    expect(pathsOf(kind, olds, news)).toEqual(expected);
  });
});

describe("propertyPath", () => {
  it.each<[(string | number)[], string]>([
    [["nodePools", 1, "nodes"], "nodePools[1].nodes"],
    [["identity", "clientSecret"], "identity.clientSecret"],
    [["autoscalerProfile", "scale-down"], 'autoscalerProfile["scale-down"]'],
    [["a.b", 0], '["a.b"][0]'],
    [["o", 'say "hi"'], 'o["say \\"hi\\""]'],
    [["o", "*"], 'o["*"]'],
  ])("%j is %s", (steps, path) => {
    expect(propertyPath(steps)).toBe(path);
  });
});
