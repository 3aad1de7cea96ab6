/**
 * The package's policy pack through the real engine, as a CI job runs it: `pulumi preview --policy-pack` with
 * the launcher shipped in the installed package (`node_modules/pulumi-vendor-container/policy/run-policy-pack`)
 * and a `--policy-pack-config` file. With every rule advisory, one preview takes several rules' violations at
 * once and passes, printing each as a warning, and skips a disabled rule; a parameter outside a rule's schema
 * fails the preview before anything runs; `pulumi up` stops at its preview on mandatory violations (a
 * misspelt parameter among them) and creates nothing; the pack folder is read but not run by this engine's
 * language host. A compliant program deploys with the pack; the end-of-support rule reads the live outputs of
 * the deployed cluster after a refresh, fails the preview, and lets the upgrade that fixes it through. Nothing
 * refused reaches the service. Each rule's messages, thresholds and stacks are the unit project's
 * (tests/unit/policy-kaas.test.ts, policy-kinds.test.ts, policy-pack.test.ts).
 */
import fs from "node:fs";
import path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { escapeRegExp as escape } from "../support/expressions";
import { SYSTEM_POOL, WORKER_POOL, attachment, backup, cluster, registry } from "./support/args";
import { E2E_ROOT } from "./support/engine";
import { openSuite, type Declared, type Suite } from "./support/suite";

/** The policy pack as users get it: the launcher in the installed package. */
const LAUNCHER = path.join(E2E_ROOT, "node_modules/pulumi-vendor-container/policy/run-policy-pack");
const PACK_FOLDER = path.dirname(LAUNCHER);
const TOKEN_PREFIX = "pulumi-nodejs:dynamic/vendor-container:";
/** Every version's end of support far ahead: only the end-of-support test moves one. */
const VERSIONS = ["1.31.9", "1.32.5", "1.33.2", "1.34.1"].map((value) => ({
  value,
  endOfSupportDate: "2099-12-31T00:00:00.000Z",
  recommended: value === "1.33.2",
}));

/** The parameters of each rule in these tests (each differs from the default, so configuration is exercised). */
const PARAMETERS: Record<string, Record<string, unknown>> = {
  "kaas-ha-in-production": { stacks: ["prod", "prod-*"] },
  "kaas-authorized-ip-ranges": { minPrefixLength: 16 },
  "kaas-kubernetes-minimum-version": { minimumVersion: "1.32" },
  "kaas-kubernetes-end-of-support": { minDaysOfSupportLeft: 30 },
  "kaas-node-pool-size": { minNodes: 2, maxNodes: 10 },
  "kaas-backup-required": { minRetentionDays: 7 },
  "registry-billing-period": { allowedBillingPeriods: ["Month", "Year"] },
  "volume-attachment-node-pool": { allowedNodePools: ["*"] },
};
const RULES = Object.keys(PARAMETERS);

/** The one-line description of each rule, which the CLI prints above each violation. */
const DESCRIPTIONS: Record<string, string> = {
  "kaas-ha-in-production": "Clusters of production stacks have a highly available control plane (ha: true).",
  "kaas-authorized-ip-ranges":
    "Cluster API servers accept connections only from listed networks (authorizedIpRanges), none of them the whole internet or wider than the configured prefix.",
  "kaas-kubernetes-minimum-version":
    "Clusters declare a Kubernetes version (kubernetesVersion) at or above the configured minimum.",
  "kaas-kubernetes-end-of-support":
    "Clusters do not run a Kubernetes version past (or near) its end of support, as the service reports it (kubernetesVersionEndOfSupportDate).",
  "kaas-node-pool-size":
    "Node pools stay within the configured node count bounds (nodes, minCount, maxCount).",
  "kaas-backup-required":
    "Every cluster of a stack that requires backups has a KaasBackup keeping at least the configured number of days (retentionDays).",
  "registry-billing-period":
    "Registries declare an allowed billing period (billingPeriod) instead of being left on the service's default.",
  "volume-attachment-node-pool":
    "Volume attachments name a node pool (nodePoolName) of their cluster, and one that volumes may be attached to.",
};

/** A program that meets every rule as configured above. */
const compliantCluster = (overrides: Record<string, unknown> = {}) =>
  cluster({
    ha: true,
    kubernetesVersion: "1.33.2",
    nodePools: [
      { ...SYSTEM_POOL, nodes: 3 },
      { ...WORKER_POOL, minCount: 2 },
    ],
    ...overrides,
  });
const compliant = (): Declared[] => [
  compliantCluster(),
  backup({ retentionDays: 7 }),
  registry({ billingPeriod: "Month" }),
  attachment("node-1"),
];
/**
 * `base` (by default `compliant()`) with the resource named `name` changed by `change` (removed when it returns
 * undefined).
 */
function withChange(
  name: string,
  change: (d: Declared) => Declared | undefined,
  base: Declared[] = compliant(),
): Declared[] {
  return base.flatMap((d) => (d.name === name ? (change(d) ?? []) : [d]));
}
const args = (d: Declared, overrides: Record<string, unknown>): Declared => ({
  ...d,
  args: { ...d.args, ...overrides },
});

/** One violation as the CLI prints it under "Policies:". */
interface Violation {
  level: "mandatory" | "advisory";
  rule: string;
  kind: Declared["kind"];
  name: string;
  message: string;
}

/** The CLI's three lines of a violation: level, rule and resource; the rule's description; the message. */
const violationLines = (v: Violation) =>
  new RegExp(
    [
      escape(`- [${v.level}]  ${v.rule}  (${TOKEN_PREFIX}${v.kind}: ${v.name})`),
      escape(DESCRIPTIONS[v.rule]),
      escape(v.message),
    ].join("\\n\\s+"),
  );

/** Every `- [level]  rule` line of the output, as `level rule`. */
const reportedRules = (output: string) =>
  [...output.matchAll(/^\s+- \[(mandatory|advisory)\] {2}([\w-]+) {2}\(/gm)].map((m) => `${m[1]} ${m[2]}`);

let s: Suite;
/** Enforcement levels other than mandatory, by rule. */
type Levels = Record<string, "advisory" | "disabled">;
let configFiles = 0;
/**
 * Writes a `--policy-pack-config` file: every rule mandatory unless `levels` says otherwise, with the parameters
 * of {@link PARAMETERS} and `parameters` over them.
 */
function policyConfig(levels: Levels = {}, parameters: Record<string, Record<string, unknown>> = {}): string {
  const file = path.join(s.dir, `policy-config-${++configFiles}.json`);
  const config = Object.fromEntries(
    RULES.map((rule) => [
      rule,
      { enforcementLevel: levels[rule] ?? "mandatory", ...PARAMETERS[rule], ...parameters[rule] },
    ]),
  );
  fs.writeFileSync(file, JSON.stringify(config, null, 2));
  return file;
}

beforeAll(async () => {
  s = await openSuite("policy", { kubernetesVersions: VERSIONS });
});
afterAll(async () => {
  await s?.close();
});

/**
 * Previews with the pack; resolves with whether the preview failed and everything the CLI printed (collected as
 * it comes: a failed preview's error repeats the output).
 */
async function previewWithPack(
  stack: Stack,
  levels: Levels = {},
  parameters: Record<string, Record<string, unknown>> = {},
): Promise<{ failed: boolean; output: string }> {
  let output = "";
  const take = (text: string) => {
    output += text;
  };
  const options = {
    policyPacks: [LAUNCHER],
    policyPackConfigs: [policyConfig(levels, parameters)],
    onOutput: take,
    onError: take,
  };
  try {
    await stack.preview(options);
    return { failed: false, output };
  } catch {
    return { failed: true, output };
  }
}

describe("the policy pack on a stack not deployed yet", () => {
  let prod: Stack;
  beforeAll(async () => {
    prod = await s.stack("prod", s.program("policy"));
  });

  it("only warns when advisory, taking several rules' violations at once, and skips a disabled rule", async () => {
    // Every rule advisory but the HA rule, disabled: its violation (ha: false) is not reported.
    const levels: Levels = {
      ...Object.fromEntries(RULES.map((rule) => [rule, "advisory" as const])),
      "kaas-ha-in-production": "disabled",
    };
    await s.declare(prod, [
      compliantCluster({
        ha: false,
        authorizedIpRanges: ["0.0.0.0/0", "10.0.0.0/8"],
        kubernetesVersion: "1.31.9",
        nodePools: [
          { ...SYSTEM_POOL, nodes: 12 },
          { ...WORKER_POOL, minCount: 2 },
        ],
      }),
      backup({ retentionDays: 3 }),
      registry({ billingPeriod: undefined }),
      attachment("node-1", { nodePoolName: "gpu" }),
    ]);
    s.clearRequests();
    const violations: Violation[] = [
      {
        level: "advisory",
        rule: "kaas-authorized-ip-ranges",
        kind: "Kaas",
        name: "cluster",
        message: 'Kaas "cluster" authorizedIpRanges[0]: "0.0.0.0/0" opens the API server to every address',
      },
      {
        level: "advisory",
        rule: "kaas-authorized-ip-ranges",
        kind: "Kaas",
        name: "cluster",
        message: 'Kaas "cluster" authorizedIpRanges[1]: "10.0.0.0/8" is wider than /16 (minPrefixLength)',
      },
      {
        level: "advisory",
        rule: "kaas-kubernetes-minimum-version",
        kind: "Kaas",
        name: "cluster",
        message: 'Kaas "cluster" kubernetesVersion: 1.31.9 is below the minimum 1.32 (minimumVersion)',
      },
      {
        level: "advisory",
        rule: "kaas-node-pool-size",
        kind: "Kaas",
        name: "cluster",
        message:
          'Kaas "cluster" nodePools[0] ("system").nodes: 12 is above the maximum of 10 nodes per pool (maxNodes)',
      },
      {
        level: "advisory",
        rule: "kaas-backup-required",
        kind: "KaasBackup",
        name: "nightly",
        message:
          'KaasBackup "nightly" retentionDays: 3 days is too short; the backup of Kaas "cluster" must keep at least 7 days (minRetentionDays) in stack "prod"',
      },
      {
        level: "advisory",
        rule: "registry-billing-period",
        kind: "Registry",
        name: "images",
        message:
          'Registry "images" billingPeriod: not set, so the service\'s default billing period applies; set one of Month, Year',
      },
      {
        level: "advisory",
        rule: "volume-attachment-node-pool",
        kind: "VolumeAttachment",
        name: "data",
        message:
          'VolumeAttachment "data" nodePoolName: "gpu" is not a node pool of Kaas "cluster", whose pools are system, workers',
      },
    ];
    const warned = await previewWithPack(prod, levels);
    expect(warned.failed).toBe(false);
    expect(warned.output).toMatch(/⚠️ vendor-container@v0\.2\.0 \(local: /);
    for (const v of violations) expect(warned.output).toMatch(violationLines(v));
    expect(reportedRules(warned.output).sort()).toEqual(violations.map((v) => `advisory ${v.rule}`).sort());
    expect(s.requests()).toEqual([]);
  });

  it("refuses a parameter outside the rule's schema before running anything", async () => {
    await s.declare(prod, compliant());
    s.clearRequests();
    const { failed, output } = await previewWithPack(
      prod,
      {},
      { "kaas-authorized-ip-ranges": { minPrefixLength: 40 } },
    );
    expect(failed).toBe(true);
    expect(output).toContain(
      "error: validating policy config: vendor-container 0.2.0  kaas-authorized-ip-ranges: minPrefixLength: Must be less than or equal to 32",
    );
    expect(s.requests()).toEqual([]);
  });

  it("stops pulumi up at its preview on mandatory violations, a misspelt parameter among them: nothing is created", async () => {
    // A production cluster without HA and without a backup; and a parameter kaas-node-pool-size does not have,
    // which the engine does not check (it checks only the listed ones): the rule reports it on the stack's root
    // resource as a violation at its level, and judges nothing else.
    await s.declare(
      prod,
      withChange("cluster", (d) => args(d, { ha: false })).filter((d) => d.name !== "nightly"),
    );
    s.clearRequests();
    const config = policyConfig({}, { "kaas-node-pool-size": { maxNodez: 3 } });
    const run = s.cli(
      ["up", "--yes", "--stack", "prod", "--policy-pack", LAUNCHER, "--policy-pack-config", config],
      prod.workspace.workDir,
    );
    const { code, output } = await run.done;
    expect(code).not.toBe(0);
    expect(output).toMatch(/❌ vendor-container@v0\.2\.0 \(local: /);
    const violations: Violation[] = [
      {
        level: "mandatory",
        rule: "kaas-ha-in-production",
        kind: "Kaas",
        name: "cluster",
        message: 'Kaas "cluster" ha: false; clusters of production stack "prod" must set ha: true',
      },
      {
        level: "mandatory",
        rule: "kaas-backup-required",
        kind: "Kaas",
        name: "cluster",
        message:
          'Kaas "cluster" kaasId: no KaasBackup backs up this cluster; every cluster of stack "prod" needs a KaasBackup with kaasId set to its kaasId, keeping at least 7 days (minRetentionDays)',
      },
    ];
    for (const v of violations) expect(output).toMatch(violationLines(v));
    expect(output).toMatch(
      new RegExp(
        [
          escape("- [mandatory]  kaas-node-pool-size  (pulumi:pulumi:Stack: policy-prod)"),
          escape(DESCRIPTIONS["kaas-node-pool-size"]),
          escape(
            'kaas-node-pool-size: unknown parameter "maxNodez" in the policy pack configuration; the parameters of kaas-node-pool-size are minNodes, maxNodes',
          ),
        ].join("\\n\\s+"),
      ),
    );
    expect(reportedRules(output).sort()).toEqual([
      "mandatory kaas-backup-required",
      "mandatory kaas-ha-in-production",
      "mandatory kaas-node-pool-size",
    ]);
    // Errors for the user to fix, not a bug: no JavaScript stack trace.
    expect(output).not.toMatch(/^\s+at /m);
    expect(s.requests()).toEqual([]);
    expect(s.emulator.emulator.state().kaas).toEqual([]);
  });

  it("is a policy project the CLI loads as a folder (this engine's language host cannot run it)", async () => {
    await s.declare(prod, compliant());
    const run = s.cli(["preview", "--stack", "prod", "--policy-pack", PACK_FOLDER], prod.workspace.workDir);
    const { code, output } = await run.done;
    expect(code).not.toBe(0);
    // The CLI read PulumiPolicy.yaml and asked the Node.js language host to run the folder, which the v3.68.0
    // host cannot do; a current host runs it (see docs/policy.md).
    expect(output).toContain(`could not read plugin [${PACK_FOLDER}]`);
    expect(output).toContain("not supported");
  });
});

describe("the policy pack on a deployed stack", () => {
  let stack: Stack;
  const deployed = (overrides: Record<string, unknown> = {}): Declared[] => [
    compliantCluster(overrides),
    backup({ retentionDays: 7 }),
    registry({ billingPeriod: "Month" }),
  ];

  beforeAll(async () => {
    stack = await s.stack("prod-eu", s.program("policy-deployed"));
  });

  it("deploys a compliant program with the pack, every rule mandatory", async () => {
    await s.declare(stack, deployed());
    const up = await stack.up({ policyPacks: [LAUNCHER], policyPackConfigs: [policyConfig()] });
    expect(up.summary.resourceChanges).toEqual({ create: 4 });
    expect(up.stdout).toMatch(/✅ vendor-container@v0\.2\.0 \(local: /);
  });

  it("refuses a cluster whose running version reached its end of support, and lets its upgrade through", async () => {
    // The service announces the end of support of the running version; a refresh reads it into the outputs.
    s.emulator.emulator.updateConfig({
      kubernetesVersions: VERSIONS.map((v) =>
        v.value === "1.33.2" ? { ...v, endOfSupportDate: "2025-01-31T00:00:00.000Z" } : v,
      ),
    });
    await stack.refresh();

    s.clearRequests();
    const refused = await previewWithPack(stack);
    expect(refused.failed).toBe(true);
    expect(refused.output).toMatch(/❌ vendor-container@v0\.2\.0 \(local: /);
    expect(refused.output).toMatch(
      violationLines({
        level: "mandatory",
        rule: "kaas-kubernetes-end-of-support",
        kind: "Kaas",
        name: "cluster",
        message:
          'Kaas "cluster" kubernetesVersionEndOfSupportDate: Kubernetes 1.33.2, which the cluster runs (currentKubernetesVersion), reached its end of support on 2025-01-31; raise kubernetesVersion',
      }),
    );
    expect(reportedRules(refused.output)).toEqual(["mandatory kaas-kubernetes-end-of-support"]);
    expect(s.requests()).toEqual([]);

    // Raising the version is the fix: its preview passes every rule, mandatory, judging the unchanged backup and
    // registry from the state.
    await s.declare(stack, deployed({ kubernetesVersion: "1.34.1" }));
    const upgrade = await previewWithPack(stack);
    expect(upgrade.output).toMatch(/✅ vendor-container@v0\.2\.0 \(local: /);
    expect([upgrade.failed, reportedRules(upgrade.output)]).toEqual([false, []]);
    expect(s.requests()).toEqual([]);
  });
});
