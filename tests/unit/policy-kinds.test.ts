/**
 * The policy pack's KaasBackup, Registry and VolumeAttachment rules, run as the analyzer runs them: exact
 * messages naming the resource and the property, how a backup or an attachment is tied to its cluster (the
 * `kaasId` output it takes, or a known id), the configured thresholds, and unknown values at preview; and the two
 * production rules together, which judge a stack by its name alone.
 */
import { kaasHaInProduction } from "../../policy/kaas";
import { kaasBackupRequired } from "../../policy/kaasBackup";
import { registryBillingPeriod } from "../../policy/registry";
import { volumeAttachmentNodePool } from "../../policy/volumeAttachment";
import { pluginTypeToken } from "../../provider/kinds";
import { UNKNOWN, runResourcePolicy, runStackPolicy, urnOf, type StackEntry } from "./support/policy-args";

/** A cluster at preview (inputs only) or, with `kaasId`, one that runs. */
const cluster = (name = "cluster", props: Record<string, unknown> = {}): StackEntry => ({
  kind: "Kaas",
  name,
  props: {
    name,
    location: "ITBG-Bergamo",
    kubernetesVersion: "1.33.2",
    nodePools: [
      { name: "system", nodes: 2, instance: "K4A8", dataCenter: "ITBG-1" },
      { name: "workers", nodes: 2, instance: "K8A16", dataCenter: "ITBG-2" },
    ],
    ...props,
  },
});

/** A backup whose kaasId is the `kaasId` output of cluster `of` (unknown until that cluster exists). */
const backupOf = (of: string, props: Record<string, unknown> = {}, name = "nightly"): StackEntry => ({
  kind: "KaasBackup",
  name,
  props: { kaasId: UNKNOWN.string, name, location: "ITBG-Bergamo", retentionDays: 7, ...props },
  dependsOn: { kaasId: [of] },
});

describe("kaas-backup-required", () => {
  const run = (entries: StackEntry[], stack = "prod", config?: Record<string, unknown>) =>
    runStackPolicy(kaasBackupRequired, entries, { stack, config });
  const noBackup = (name: string, stack = "prod", days = 7) => ({
    message: `Kaas "${name}" kaasId: no KaasBackup backs up this cluster; every cluster of stack "${stack}" needs a KaasBackup with kaasId set to its kaasId, keeping at least ${days} days (minRetentionDays)`,
    urn: urnOf("Kaas", name, stack),
  });
  const required =
    'the backup of Kaas "cluster" must keep at least 7 days (minRetentionDays) in stack "prod"';

  it("accepts a cluster whose backup takes its kaasId output, before either exists", async () => {
    expect(await run([cluster(), backupOf("cluster")])).toEqual([]);
  });

  it("accepts a backup tied by the cluster's known id, with no dependency", async () => {
    const running = cluster("cluster", { kaasId: "kaas-0001" });
    const backup: StackEntry = {
      kind: "KaasBackup",
      name: "nightly",
      props: { kaasId: "kaas-0001", retentionDays: 7 },
    };
    expect(await run([running, backup])).toEqual([]);
  });

  it("refuses a production cluster without a backup, on the cluster", async () => {
    expect(await run([cluster()])).toEqual([noBackup("cluster")]);
  });

  it("does not count a backup of another cluster", async () => {
    const other: StackEntry = {
      kind: "KaasBackup",
      name: "nightly",
      props: { kaasId: "kaas-0999", retentionDays: 30 },
    };
    expect(await run([cluster("cluster", { kaasId: "kaas-0001" }), other])).toEqual([noBackup("cluster")]);
    expect(await run([cluster("blue"), cluster("green"), backupOf("blue")])).toEqual([noBackup("green")]);
  });

  it.each([
    ["3 days", 3, `KaasBackup "nightly" retentionDays: 3 days is too short; ${required}`],
    ["1 day", 1, `KaasBackup "nightly" retentionDays: 1 day is too short; ${required}`],
    [
      "the service's default days",
      undefined,
      `KaasBackup "nightly" retentionDays: not set (the service's default applies); ${required}`,
    ],
  ])("refuses a backup keeping %s, on the backup", async (_label, retentionDays, message) => {
    expect(await run([cluster(), backupOf("cluster", { retentionDays })])).toEqual([
      { message, urn: urnOf("KaasBackup", "nightly") },
    ]);
  });

  it("accepts the minimum exactly, and a retention not known yet", async () => {
    expect(await run([cluster(), backupOf("cluster", { retentionDays: 7 })])).toEqual([]);
    expect(await run([cluster(), backupOf("cluster", { retentionDays: UNKNOWN.number })])).toEqual([]);
  });

  it("is satisfied by one long enough backup among several, and otherwise names each short one", async () => {
    const short = backupOf("cluster", { retentionDays: 3 }, "hourly");
    expect(await run([cluster(), short, backupOf("cluster", { retentionDays: 14 }, "weekly")])).toEqual([]);
    expect(await run([cluster(), short, backupOf("cluster", { retentionDays: undefined }, "adhoc")])).toEqual(
      [
        {
          message: `KaasBackup "hourly" retentionDays: 3 days is too short; ${required}`,
          urn: urnOf("KaasBackup", "hourly"),
        },
        {
          message: `KaasBackup "adhoc" retentionDays: not set (the service's default applies); ${required}`,
          urn: urnOf("KaasBackup", "adhoc"),
        },
      ],
    );
  });

  it("judges only the stacks that require backups, production ones by default", async () => {
    expect(await run([cluster()], "dev")).toEqual([]);
    expect(await run([cluster()], "prod-eu")).toEqual([noBackup("cluster", "prod-eu")]);
  });

  it("uses the configured stacks and minimum retention", async () => {
    const config = { stacks: ["*"], minRetentionDays: 30 };
    expect(await run([cluster(), backupOf("cluster", { retentionDays: 7 })], "dev", config)).toEqual([
      {
        message:
          'KaasBackup "nightly" retentionDays: 7 days is too short; the backup of Kaas "cluster" must keep at least 30 days (minRetentionDays) in stack "dev"',
        urn: urnOf("KaasBackup", "nightly", "dev"),
      },
    ]);
    expect(await run([cluster()], "dev", config)).toEqual([noBackup("cluster", "dev", 30)]);
  });

  it("has nothing to say about a stack without clusters", async () => {
    expect(await run([{ kind: "Registry", name: "images", props: { name: "images" } }])).toEqual([]);
  });
});

describe("the production rules, with the stacks configured", () => {
  // kaas-ha-in-production given the stacks prod and prod-*, kaas-backup-required its default ones.
  const HA_CONFIG = { stacks: ["prod", "prod-*"] };
  const BACKUP_CONFIG = { minRetentionDays: 7 };
  const noHa = cluster("cluster", { ha: false });
  const judge = async (stack: string) => [
    ...(await runResourcePolicy(kaasHaInProduction, "Kaas", "cluster", noHa.props, {
      stack,
      config: HA_CONFIG,
    })),
    ...(await runStackPolicy(kaasBackupRequired, [noHa], { stack, config: BACKUP_CONFIG })),
  ];

  it("leave a cluster without HA or a backup alone in a stack that is not production", async () => {
    expect(await judge("dev")).toEqual([]);
  });

  it("refuse the same cluster in stack prod, each with its message", async () => {
    expect(await judge("prod")).toEqual([
      { message: 'Kaas "cluster" ha: false; clusters of production stack "prod" must set ha: true' },
      {
        message:
          'Kaas "cluster" kaasId: no KaasBackup backs up this cluster; every cluster of stack "prod" needs a KaasBackup with kaasId set to its kaasId, keeping at least 7 days (minRetentionDays)',
        urn: urnOf("Kaas", "cluster"),
      },
    ]);
  });
});

describe("registry-billing-period", () => {
  const run = (billingPeriod: unknown, config?: Record<string, unknown>) =>
    runResourcePolicy(
      registryBillingPeriod,
      "Registry",
      "images",
      { name: "images", location: "ITBG-Bergamo", adminUsername: "ops", billingPeriod },
      { config },
    ).then((r) => r.map((v) => v.message));

  it("refuses a registry left on the service's default billing period", async () => {
    expect(await run(undefined)).toEqual([
      'Registry "images" billingPeriod: not set, so the service\'s default billing period applies; set one of Hour, Month, Year',
    ]);
    expect(await run(undefined, { allowedBillingPeriods: ["Month", "Year"] })).toEqual([
      'Registry "images" billingPeriod: not set, so the service\'s default billing period applies; set one of Month, Year',
    ]);
  });

  it("accepts any declared period by default, and only the allowed ones when configured", async () => {
    for (const period of ["Hour", "Month", "Year"]) expect(await run(period)).toEqual([]);
    const config = { allowedBillingPeriods: ["Month", "Year"] };
    expect(await run("Year", config)).toEqual([]);
    expect(await run("Hour", config)).toEqual([
      'Registry "images" billingPeriod: "Hour" is not allowed; allowed: Month, Year (allowedBillingPeriods)',
    ]);
  });

  it("leaves a period not known yet unjudged, and ignores other kinds", async () => {
    expect(await run(UNKNOWN.string, { allowedBillingPeriods: ["Month"] })).toEqual([]);
    const onCluster = await runResourcePolicy(registryBillingPeriod, "Kaas", "cluster", { name: "prod" });
    expect(onCluster).toEqual([]);
  });
});

describe("volume-attachment-node-pool", () => {
  const attachmentOf = (of: string, nodePoolName: unknown): StackEntry => ({
    kind: "VolumeAttachment",
    name: "data",
    props: { kaasId: UNKNOWN.string, nodePoolName, nodeId: "node-1", volumeUri: "/projects/p/v-1" },
    dependsOn: { kaasId: [of] },
  });
  const run = (entries: StackEntry[], config?: Record<string, unknown>) =>
    runStackPolicy(volumeAttachmentNodePool, entries, { config });

  it("accepts a pool of the attachment's cluster", async () => {
    expect(await run([cluster(), attachmentOf("cluster", "system")])).toEqual([]);
  });

  it("refuses a pool its cluster does not have, on the attachment", async () => {
    expect(await run([cluster(), attachmentOf("cluster", "sytem")])).toEqual([
      {
        message:
          'VolumeAttachment "data" nodePoolName: "sytem" is not a node pool of Kaas "cluster", whose pools are system, workers',
        urn: urnOf("VolumeAttachment", "data"),
      },
    ]);
  });

  it("finds the cluster by its known id too", async () => {
    const attachment: StackEntry = {
      kind: "VolumeAttachment",
      name: "data",
      props: { kaasId: "kaas-0001", nodePoolName: "gpu" },
    };
    expect(
      (await run([cluster("cluster", { kaasId: "kaas-0001" }), attachment])).map((r) => r.message),
    ).toEqual([
      'VolumeAttachment "data" nodePoolName: "gpu" is not a node pool of Kaas "cluster", whose pools are system, workers',
    ]);
  });

  it("cannot judge the pool of a cluster outside the stack, or pools not known yet", async () => {
    const outside: StackEntry = {
      kind: "VolumeAttachment",
      name: "data",
      props: { kaasId: "kaas-0999", nodePoolName: "gpu" },
    };
    expect(await run([cluster("cluster", { kaasId: "kaas-0001" }), outside])).toEqual([]);
    expect(
      await run([cluster("cluster", { nodePools: UNKNOWN.array }), attachmentOf("cluster", "gpu")]),
    ).toEqual([]);
    const oneUnknown = cluster("cluster", {
      nodePools: [
        { name: "system", nodes: 2 },
        { name: UNKNOWN.string, nodes: 2 },
      ],
    });
    expect(await run([oneUnknown, attachmentOf("cluster", "gpu")])).toEqual([]);
    expect(await run([cluster(), attachmentOf("cluster", UNKNOWN.string)])).toEqual([]);
  });

  it("refuses a pool outside the configured names, even of a cluster outside the stack", async () => {
    const config = { allowedNodePools: ["data-*", "storage"] };
    expect(await run([cluster(), attachmentOf("cluster", "system")], config)).toEqual([
      {
        message:
          'VolumeAttachment "data" nodePoolName: "system" is not a pool volumes may be attached to; allowed: data-*, storage (allowedNodePools)',
        urn: urnOf("VolumeAttachment", "data"),
      },
    ]);
    const outside: StackEntry = {
      kind: "VolumeAttachment",
      name: "data",
      props: { kaasId: "kaas-0999", nodePoolName: "gpu" },
    };
    expect((await run([outside], config)).map((r) => r.message)).toEqual([
      'VolumeAttachment "data" nodePoolName: "gpu" is not a pool volumes may be attached to; allowed: data-*, storage (allowedNodePools)',
    ]);
    expect(
      await run(
        [
          cluster("cluster", { nodePools: [{ name: "data-1", nodes: 2 }] }),
          attachmentOf("cluster", "data-1"),
        ],
        config,
      ),
    ).toEqual([]);
  });
});

describe("the provider plugin's resources (programs in any language)", () => {
  const onPlugin = (entry: StackEntry): StackEntry => ({ ...entry, type: pluginTypeToken(entry.kind) });

  it("are judged by the resource rules as the dynamic ones are", async () => {
    const props = { name: "prod", location: "ITBG-Bergamo", ha: false };
    const run = (type: string) =>
      runResourcePolicy(kaasHaInProduction, "Kaas", "cluster", props, { stack: "prod", type });
    expect(await run(pluginTypeToken("Kaas"))).toEqual([
      { message: 'Kaas "cluster" ha: false; clusters of production stack "prod" must set ha: true' },
    ]);
    expect(await run("vendor-container:index:Registry")).toEqual([]);
    expect(await run("other:index:Kaas")).toEqual([]);
  });

  it("are judged by the stack rules, a backup tied to its cluster by the output it takes", async () => {
    const run = (entries: StackEntry[]) => runStackPolicy(kaasBackupRequired, entries, { stack: "prod" });
    expect(await run([onPlugin(cluster()), onPlugin(backupOf("cluster"))])).toEqual([]);
    expect(await run([onPlugin(cluster())])).toEqual([
      expect.objectContaining({
        message: expect.stringMatching(/^Kaas "cluster" kaasId: no KaasBackup backs up/),
      }),
    ]);
    // A backup on the plugin backs up a dynamic cluster of the same stack, and the other way round.
    expect(await run([cluster(), onPlugin(backupOf("cluster"))])).toEqual([]);
    expect(await run([onPlugin(cluster()), backupOf("cluster")])).toEqual([]);
  });
});
