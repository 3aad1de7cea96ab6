/**
 * `check` and `diff` of KaasBackup, Registry and VolumeAttachment: exact failures, and properties over
 * generated inputs (no change against itself, every replace field replaces, unknown values never replace by
 * themselves). The effect of each argument is written out here rather than read from the implementation's
 * tables; kind-contracts.test.ts drives each one through the public provider interface.
 */
import fc from "fast-check";
import { KAAS_BACKUP } from "../../provider/kaasBackup/descriptor";
import type { CheckFailure, Inputs } from "../../provider/common/check";
import type { DiffResult, DiffTable } from "../../provider/common/diff";
import type { CheckContext } from "../../provider/common/arguments";
import { checkKind, diffKind } from "../../provider/common/describedProvider";
import { UNKNOWN } from "../../provider/common/unknown";
import { REGISTRY } from "../../provider/registry/descriptor";
import { checkVolumeAttachment } from "../../provider/volumeAttachment/check";
import { diffVolumeAttachment } from "../../provider/volumeAttachment/diff";

const ctx = { defaultProjectId: "proj-1" };
const VOLUME = "/projects/proj-1/providers/Vendor.Storage/blockStorages/v-1";

/** The check and diff of the described kinds, as their providers run them. */
const checkBackup = (olds: Inputs, news: Inputs, c: CheckContext) => checkKind(KAAS_BACKUP, olds, news, c);
const diffBackup = (olds: Inputs, news: Inputs) => diffKind(KAAS_BACKUP, olds, news);
const checkRegistry = (olds: Inputs, news: Inputs, c: CheckContext) => checkKind(REGISTRY, olds, news, c);
const diffRegistry = (olds: Inputs, news: Inputs) => diffKind(REGISTRY, olds, news);

interface Kind {
  name: string;
  check: (olds: Inputs, news: Inputs, c: typeof ctx) => { inputs: Inputs; failures: CheckFailure[] };
  diff: (olds: Inputs, news: Inputs) => DiffResult;
  /** What changing each argument does, written from the SDK's documentation of the kind. */
  table: DiffTable<string>;
  valid: () => Inputs;
  /** A different valid value for each argument of the table. */
  other: Record<string, unknown>;
}

const KINDS: Kind[] = [
  {
    name: "KaasBackup",
    check: checkBackup,
    diff: diffBackup,
    table: {
      projectId: "replace",
      kaasId: "replace",
      name: "update",
      location: "replace",
      tags: "update",
      type: "replace",
      retentionDays: "replace",
      billingPeriod: "update",
      timeouts: "update",
      adoptId: "ignore",
      adoptFromScope: "ignore",
      creationScope: "ignore",
      creationToken: "ignore",
    },
    valid: () => ({
      kaasId: "kaas-1",
      name: "nightly",
      location: "ITBG-Bergamo",
      type: "Full",
      retentionDays: 7,
      billingPeriod: "Month",
    }),
    other: {
      projectId: "proj-2",
      kaasId: "kaas-2",
      name: "weekly",
      location: "ITMI-Milano",
      tags: ["t"],
      type: "Incremental",
      retentionDays: 30,
      billingPeriod: "Year",
      timeouts: { create: "5m" },
      adoptId: "backup-9",
      adoptFromScope: "p/s/old",
      creationScope: "p/s/other",
      creationToken: "ffff",
    },
  },
  {
    name: "Registry",
    check: checkRegistry,
    diff: diffRegistry,
    table: {
      projectId: "replace",
      name: "update",
      location: "replace",
      tags: "update",
      preset: "replace",
      vpcUri: "replace",
      subnetUri: "replace",
      securityGroupUri: "replace",
      publicIpUri: "update",
      blockStorageUri: "replace",
      size: "replace",
      adminUsername: "replace",
      billingPeriod: "update",
      adminPasswordResetTrigger: "update",
      timeouts: "update",
      adoptId: "ignore",
      adoptFromScope: "ignore",
      creationScope: "ignore",
      creationToken: "ignore",
    },
    valid: () => ({
      name: "images",
      location: "ITBG-Bergamo",
      adminUsername: "ops",
      size: "Small",
      billingPeriod: "Month",
    }),
    other: {
      projectId: "proj-2",
      name: "images-2",
      location: "ITMI-Milano",
      tags: ["t"],
      preset: false,
      vpcUri: "/vpc/2",
      subnetUri: "/subnet/2",
      securityGroupUri: "/sg/2",
      publicIpUri: "/ip/2",
      blockStorageUri: "/bs/2",
      size: "Medium",
      adminUsername: "ops2",
      billingPeriod: "Year",
      adminPasswordResetTrigger: "2026-12",
      timeouts: { create: "5m" },
      adoptId: "registry-9",
      adoptFromScope: "p/s/old",
      creationScope: "p/s/other",
      creationToken: "ffff",
    },
  },
  {
    name: "VolumeAttachment",
    check: checkVolumeAttachment,
    diff: diffVolumeAttachment,
    table: {
      projectId: "replace",
      kaasId: "replace",
      nodePoolName: "replace",
      nodeId: "replace",
      volumeUri: "replace",
      timeouts: "update",
      adoptId: "ignore",
      creationScope: "ignore",
    },
    valid: () => ({ kaasId: "kaas-1", nodePoolName: "system", nodeId: "node-1", volumeUri: VOLUME }),
    other: {
      projectId: "proj-2",
      kaasId: "kaas-2",
      nodePoolName: "workers",
      nodeId: "node-2",
      volumeUri: "/projects/proj-1/providers/Vendor.Storage/blockStorages/v-2",
      timeouts: { create: "5m" },
      adoptId: "kaas-1:x",
      creationScope: "p/s/other",
    },
  },
];

describe.each(KINDS.map((k) => [k.name, k] as const))("%s", (_name, kind) => {
  const state = () => kind.check({}, kind.valid(), ctx).inputs;

  it("accepts the valid baseline and fills the default project", () => {
    const { inputs, failures } = kind.check({}, kind.valid(), ctx);
    expect(failures).toEqual([]);
    expect(inputs.projectId).toBe("proj-1");
  });

  it("every argument of the diff table is known to check (no argument is half wired)", () => {
    const unknownOnes = Object.keys(kind.table).filter((field) =>
      kind
        .check({}, { ...kind.valid(), [field]: kind.other[field] }, ctx)
        .failures.some((f) => f.property === field && f.reason.startsWith("is not a known argument")),
    );
    expect(unknownOnes).toEqual([]);
  });

  it("has no changes against its own state", () => {
    expect(kind.diff(state(), kind.check({}, kind.valid(), ctx).inputs)).toMatchObject({
      changes: false,
      replaces: [],
    });
  });

  it("property: any single change of a replace field replaces; of an update field does not; unknowns never replace", () => {
    const fields = Object.keys(kind.table).filter((f) => kind.table[f] !== "ignore");
    fc.assert(
      fc.property(fc.constantFrom(...fields), fc.boolean(), (field, unknown) => {
        const news = { ...state(), [field]: unknown ? UNKNOWN : kind.other[field] };
        const result = kind.diff(state(), news);
        expect(result.changes).toBe(true);
        expect(result.replaces).toEqual(kind.table[field] === "replace" && !unknown ? [field] : []);
      }),
    );
  });
});

it("VolumeAttachment always detaches before attaching again", () => {
  const olds = checkVolumeAttachment({}, KINDS[2].valid(), ctx).inputs;
  expect(diffVolumeAttachment(olds, { ...olds, nodeId: "node-2" }).deleteBeforeReplace).toBe(true);
});

const cases: [
  string,
  (o: Inputs, n: Inputs, c: typeof ctx) => { failures: CheckFailure[] },
  Inputs,
  CheckFailure[],
][] = [
  [
    "KaasBackup",
    checkBackup,
    { ...KINDS[0].valid(), kaasId: undefined },
    [{ property: "kaasId", reason: "is required" }],
  ],
  [
    "KaasBackup",
    checkBackup,
    { ...KINDS[0].valid(), retentionDays: 0 },
    [{ property: "retentionDays", reason: "must be between 1 and 3650, got 0" }],
  ],
  [
    "KaasBackup",
    checkBackup,
    { ...KINDS[0].valid(), retentionDays: "7" },
    [{ property: "retentionDays", reason: "must be an integer, got string" }],
  ],
  [
    "KaasBackup",
    checkBackup,
    { ...KINDS[0].valid(), tags: ["pulumi-ct-x"] },
    [{ property: "tags[0]", reason: 'must not start with "pulumi-ct-" (reserved)' }],
  ],
  [
    "Registry",
    checkRegistry,
    { ...KINDS[1].valid(), adminUsername: "admin" },
    [{ property: "adminUsername", reason: '"admin" is reserved by the service; choose another name' }],
  ],
  [
    "Registry",
    checkRegistry,
    { ...KINDS[1].valid(), adminUsername: undefined },
    [{ property: "adminUsername", reason: "is required" }],
  ],
  [
    "Registry",
    checkRegistry,
    { ...KINDS[1].valid(), billingPeriod: "monthly" },
    [{ property: "billingPeriod", reason: 'must be one of Hour, Month, Year, got "monthly"' }],
  ],
  [
    "Registry",
    checkRegistry,
    { ...KINDS[1].valid(), vpcUri: "/vpc/1" },
    [{ property: "subnetUri", reason: "is required together with vpcUri" }],
  ],
  [
    "VolumeAttachment",
    checkVolumeAttachment,
    { ...KINDS[2].valid(), volumeUri: "vol-1" },
    [
      {
        property: "volumeUri",
        reason:
          "must be a block storage URI like /projects/<project>/providers/Vendor.Storage/blockStorages/<id>",
      },
    ],
  ],
  [
    "VolumeAttachment",
    checkVolumeAttachment,
    { ...KINDS[2].valid(), nodeId: 7 },
    [{ property: "nodeId", reason: "must be a string, got number" }],
  ],
  [
    "VolumeAttachment",
    checkVolumeAttachment,
    { ...KINDS[2].valid(), adoptId: "other" },
    [{ property: "adoptId", reason: `must be the attachment id "kaas-1:${VOLUME}" (<kaasId>:<volumeUri>)` }],
  ],
  [
    "VolumeAttachment",
    checkVolumeAttachment,
    { ...KINDS[2].valid(), size: 1 },
    [
      {
        property: "size",
        reason:
          "is not a known argument (allowed: projectId, kaasId, nodePoolName, nodeId, volumeUri, timeouts, adoptId, creationScope)",
      },
    ],
  ],
];

it.each(cases)("%s check refuses %j", (_k, check, news, failures) => {
  expect(check({}, news, ctx).failures).toEqual(failures);
});

it.each(KINDS.map((k) => [k.name, k] as const))(
  "%s check passes unknown values through unjudged",
  (_n, kind) => {
    const news = Object.fromEntries(Object.keys(kind.valid()).map((key) => [key, UNKNOWN]));
    const { inputs, failures } = kind.check({}, news, ctx);
    expect(failures).toEqual([]);
    for (const key of Object.keys(news)) expect(inputs[key]).toBe(UNKNOWN);
  },
);
