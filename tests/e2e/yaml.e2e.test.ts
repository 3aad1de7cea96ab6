/**
 * A YAML program on the provider plugin through the real engine (the YAML language host pulumi-yaml, as
 * scripts/engine.sh builds it) against the emulator: the four kinds and an invoke, then a preview that finds
 * nothing to do; `preview --diff` of a version changed under `replaceOnChanges`, a replacement naming the changed
 * path only; a pool size under `ignoreChanges`; a second attachment of one volume refused naming the first and
 * never recorded (provider/volumeAttachment/claims.ts); and `pulumi import` of objects made outside the stack
 * (the code it prints, added to the program, previews with no change). A YAML program is its Pulumi.yaml: each
 * step writes it (JSON, which YAML reads as it is). What the plugin does whatever the program's language (an
 * update in place, a refresh, the HA refusal at preview, destroy) is tests/e2e/plugin.e2e.test.ts; a
 * replacement by `replaceOnChanges` on a nested path, plugin-stacks.e2e.test.ts.
 */
import fs from "node:fs";
import path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { parse } from "yaml";
import { volumeAction } from "../../schemas/volumeAction";
import { DATA_VOLUME, SYSTEM_POOL, WORKER_POOL } from "./support/args";
import { PLUGIN_BIN, outsideClient, pluginConfig } from "./support/plugin";
import { LOCATION, POLL_MS, PROJECT, TOKEN, openSuite, type Suite } from "./support/suite";

const KAAS = "kaas-0001";
/** The first node of the system pool, as the emulator names it (emulator/kinds/kaas/record.ts). */
const NODE = `${KAAS}-system-1`;
/** The type token of a kind on the plugin path. */
const token = (kind: string) => `vendor-container:index:${kind}`;
/** A volume attached outside the stack, to a cluster made outside it. */
const SCRATCH_VOLUME = DATA_VOLUME.replace(/data-1$/, "scratch-1");

/** The key the engine marks a secret value with in a state. */
const SECRET_SIGNATURE = "4dabf18193072939515e22adb298388d";

/** The resources of an exported state by name: their id and outputs, secrets as the state holds them. */
function stateResources(exported: string): Map<string, { id?: string; outputs: Record<string, unknown> }> {
  const resources: { urn: string; id?: string; outputs?: Record<string, unknown> }[] =
    JSON.parse(exported).deployment.resources ?? [];
  return new Map(
    resources.map((r) => [r.urn.split("::").pop() ?? "", { id: r.id, outputs: r.outputs ?? {} }]),
  );
}

/**
 * Makes a cluster (HA, two pools, a cap, API server access, a billing period), a backup of it, a registry and
 * an attachment through the published API, as the service's console would: no stack tracks them, and they
 * carry no tag of this package. Returns their ids once all are settled.
 */
async function createOutside(s: Suite) {
  const api = outsideClient(s);
  const metadata = (name: string) => ({ name, location: { value: LOCATION }, tags: ["team:data"] });
  const settle = () => s.emulator.emulator.advanceClock(10 * 60_000);
  const kaas = await api.call(
    "createKaas",
    { projectId: PROJECT },
    {
      metadata: metadata("outside"),
      properties: {
        preset: true,
        nodeCidr: { address: "10.30.0.0/16", name: "outside-nodes" },
        podCidr: "10.31.0.0/16",
        kubernetesVersion: { value: "1.32.5" },
        nodePools: [SYSTEM_POOL, WORKER_POOL],
        ha: true,
        storage: { maxCumulativeVolumeSize: 500 },
        billingPlan: { billingPeriod: "Month" },
        apiServerAccessProfile: { authorizedIpRanges: ["192.168.20.0/24"], enablePrivateCluster: false },
      },
    },
  );
  const kaasId = kaas.metadata.id;
  settle();
  const backup = await api.call(
    "createBackup",
    { projectId: PROJECT, kaasId },
    { metadata: metadata("outside-weekly"), properties: { retentionDays: 14 } },
  );
  const registry = await api.call(
    "createRegistry",
    { projectId: PROJECT },
    {
      metadata: metadata("outside-charts"),
      properties: { adminUser: { username: "charts" }, size: "Small" },
    },
  );
  const [node] = s.emulator.emulator.nodes(kaasId).find((p) => p.nodePool === "system")!.nodeIds;
  await api.call(
    "attachVolume",
    { projectId: PROJECT, id: kaasId, pool: "system", node },
    volumeAction(SCRATCH_VOLUME),
  );
  settle();
  return { kaasId, backupId: backup.metadata.id, registryId: registry.metadata.id, node };
}

/**
 * The program: a cluster (`ha`, the worker pool's size, optionally another version, system pool instance type
 * and resource options), its backup, a registry, an invoke, and optionally an attachment ("data") and a second
 * attachment of the same volume ("dup", declared after it).
 */
function program(options: {
  ha: boolean;
  workers: number;
  attachTo?: string;
  duplicateTo?: string;
  imported?: Record<string, unknown>;
  version?: string;
  systemInstance?: string;
  clusterOptions?: Record<string, unknown>;
}) {
  const resources: Record<string, unknown> = {
    cluster: {
      type: "vendor-container:index:Kaas",
      properties: {
        name: "e2e-cluster",
        location: LOCATION,
        kubernetesVersion: options.version ?? "1.32.5",
        nodeCidr: { address: "10.20.0.0/16", name: "cluster-nodes" },
        nodePools: [
          { ...SYSTEM_POOL, ...(options.systemInstance ? { instance: options.systemInstance } : {}) },
          { ...WORKER_POOL, nodes: options.workers },
        ],
        ha: options.ha,
      },
      ...(options.clusterOptions ? { options: options.clusterOptions } : {}),
    },
    nightly: {
      type: "vendor-container:index:KaasBackup",
      properties: { kaasId: "${cluster.id}", name: "nightly", location: LOCATION, retentionDays: 7 },
    },
    images: {
      type: "vendor-container:index:Registry",
      properties: { name: "e2e-images", location: LOCATION, adminUsername: "ops", size: "Small" },
    },
  };
  const attachment = (nodeId: string) => ({
    type: "vendor-container:index:VolumeAttachment",
    properties: { kaasId: "${cluster.id}", nodePoolName: "system", nodeId, volumeUri: DATA_VOLUME },
  });
  if (options.attachTo !== undefined) resources.data = attachment(options.attachTo);
  if (options.duplicateTo !== undefined) resources.dup = attachment(options.duplicateTo);
  Object.assign(resources, options.imported);
  return {
    name: "e2e-yaml",
    runtime: "yaml",
    plugins: { providers: [{ name: "vendor-container", path: PLUGIN_BIN }] },
    resources,
    variables: {
      info: {
        "fn::invoke": { function: "vendor-container:index:getKaas", arguments: { kaasId: "${cluster.id}" } },
      },
    },
    outputs: {
      kaasId: "${cluster.kaasId}",
      kubeconfig: "${cluster.kubeconfig}",
      backupState: "${nightly.state}",
      registryId: "${images.registryId}",
      infoState: "${info.state}",
    },
  };
}

describe("a YAML program on the provider plugin", () => {
  let s: Suite;
  let stack: Stack;
  let dir: string;

  const systemNodes = (kaasId: string) =>
    s.emulator.emulator.nodes(kaasId).find((p) => p.nodePool === "system")!.nodeIds;
  const write = (options: Parameters<typeof program>[0]) =>
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), JSON.stringify(program(options), null, 2));
  const up = async (options: Parameters<typeof program>[0]) => {
    write(options);
    s.clearRequests();
    const result = await stack.up();
    return { calls: s.mutations(), summary: result.summary, outputs: result.outputs };
  };

  beforeAll(async () => {
    s = await openSuite("yaml");
    dir = path.join(s.dir, "programs", "e2e-yaml");
    fs.mkdirSync(dir, { recursive: true });
    write({ ha: true, workers: 2, attachTo: NODE });
    stack = await s.stack("dev", dir, pluginConfig(s, TOKEN, PROJECT, POLL_MS));
  });
  afterAll(async () => {
    await s?.close();
  });

  it("creates a cluster, its backup, a registry and an attachment, reads the cluster through an invoke, then previews no change", async () => {
    const { calls, summary, outputs } = await up({ ha: true, workers: 2, attachTo: NODE });
    expect(calls.filter((call) => call.startsWith("POST")).sort()).toEqual([
      "POST /kaas",
      `POST /kaas/${KAAS}/backups`,
      `POST /kaas/${KAAS}/nodePools/system/nodes/${NODE}/attach`,
      "POST /registries",
    ]);
    expect(summary.resourceChanges).toEqual({ create: 5 });
    expect(outputs.kaasId.value).toBe(KAAS);
    expect(outputs.kubeconfig.secret).toBe(true);
    expect(outputs.backupState.value).toBe("Active");
    expect(outputs.registryId.value).toBe("registry-0001");
    expect(outputs.infoState.value).toBe("Active");
    s.clearRequests();
    const { changeSummary } = await stack.preview({ expectNoChanges: true });
    expect(changeSummary).toEqual({ same: 5 });
    expect(s.mutations()).toEqual([]);
  });

  /** `pulumi preview --diff` of the program `options` describe, with the attachment the stack holds. */
  const previewDiff = async (options: Omit<Parameters<typeof program>[0], "ha" | "attachTo">) => {
    write({ ha: true, attachTo: NODE, ...options });
    s.clearRequests();
    const run = await s.cli(["preview", "--diff", "--stack", "dev"], dir).done;
    expect({ code: run.code, mutations: s.mutations() }).toEqual({ code: 0, mutations: [] });
    return run.output;
  };
  /** The line `preview --diff` prints for the cluster's step: `+-vendor-container:index:Kaas: (replace)`. */
  const clusterStep = (output: string) =>
    output
      .split("\n")
      .find((line) => line.includes("vendor-container:index:Kaas: ("))
      ?.trim();

  it("replaces the cluster for a version changed under replaceOnChanges, naming the changed path only", async () => {
    // Without the option the change is in place (tests/unit/kaas-diff.test.ts).
    const output = await previewDiff({
      workers: 2,
      version: "1.33.2",
      clusterOptions: { replaceOnChanges: ["kubernetesVersion"] },
    });
    expect(clusterStep(output)).toBe("+-vendor-container:index:Kaas: (replace)");
    expect(output).toContain('~ kubernetesVersion: "1.32.5" => "1.33.2"');
    // Only the changed path: no bookkeeping input (creationScope, creationToken) shows.
    expect(output).not.toContain("creation");
  });

  it("shows no change for a pool size under ignoreChanges", async () => {
    write({
      ha: true,
      workers: 5,
      attachTo: NODE,
      clusterOptions: { ignoreChanges: ["nodePools[1].nodes"] },
    });
    s.clearRequests();
    const { changeSummary } = await stack.preview({ expectNoChanges: true });
    expect(changeSummary).toEqual({ same: 5 });
    expect(s.mutations()).toEqual([]);
  });

  it("refuses a second attachment of the volume naming the first, records nothing of it, and changes nothing when it goes", async () => {
    const [first, second] = systemNodes(KAAS);
    write({ ha: true, workers: 2, attachTo: first, duplicateTo: second });
    s.clearRequests();
    const failed = await stack.up().then(
      () => "",
      (error: Error) => error.message,
    );
    expect(failed).toContain(
      `VolumeAttachment "dup": ${DATA_VOLUME} is already attached by VolumeAttachment "data", another resource ` +
        `of this stack (${KAAS}:${DATA_VOLUME}): a volume is attached once per cluster, so "dup" is not ` +
        `created. Remove one of them; removing "dup" changes nothing`,
    );
    expect(s.mutations()).toEqual([]);
    const attachments = [...stateResources(await s.exportState(stack))]
      .filter(([name]) => name === "data" || name === "dup")
      .map(([name, r]) => [name, r.id, r.outputs.nodeId]);
    expect(attachments).toEqual([["data", `${KAAS}:${DATA_VOLUME}`, first]]);

    // "dup" leaves the program: nothing to do, and the volume stays on the first's node.
    write({ ha: true, workers: 2, attachTo: first });
    s.clearRequests();
    const { changeSummary } = await stack.preview({ expectNoChanges: true });
    expect(changeSummary).toEqual({ same: 5 });
    expect(s.mutations()).toEqual([]);
    s.emulator.emulator.advanceClock(1000);
    expect(s.emulator.emulator.attachments(KAAS).map((a) => [a.uri, a.nodeId, a.state])).toEqual([
      [DATA_VOLUME, first, "attached"],
    ]);
  });

  it("imports objects made outside the stack: the code it prints, added to the program, previews no change", async () => {
    const outside = await createOutside(s);
    const { kaasId, backupId, registryId } = outside;
    const file = path.join(s.dir, "imports.json");
    const generated = path.join(s.dir, "imported.yaml");
    // Each form of import id: with the project, with the default project, with the parent cluster.
    const imports = [
      { type: token("Kaas"), name: "outside", id: `${PROJECT}/${kaasId}` },
      { type: token("KaasBackup"), name: "weekly", id: `${kaasId}/${backupId}` },
      { type: token("Registry"), name: "charts", id: registryId },
      { type: token("VolumeAttachment"), name: "scratch", id: `${kaasId}:${SCRATCH_VOLUME}` },
    ];
    fs.writeFileSync(file, JSON.stringify({ resources: imports }));
    s.clearRequests();
    const args = ["import", "--file", file, "--out", generated, "--protect=false", "--yes", "--stack", "dev"];
    const run = await s.cli([...args, "--non-interactive"], dir).done;
    expect({ code: run.code, output: run.output }).toEqual({ code: 0, output: expect.any(String) });
    // Reads only: an import changes nothing in the service, not even a tag.
    expect(s.mutations()).toEqual([]);

    const code: { resources: Record<string, { type: string; properties: Record<string, unknown> }> } = parse(
      fs.readFileSync(generated, "utf8"),
    );
    // YAML writes a type in its short form, `vendor-container:Kaas` for `vendor-container:index:Kaas`.
    expect(Object.fromEntries(Object.entries(code.resources).map(([name, r]) => [name, r.type]))).toEqual(
      Object.fromEntries(imports.map((i) => [i.name, i.type.replace(":index:", ":")])),
    );
    expect(code.resources.outside.properties).toEqual({
      projectId: PROJECT,
      name: "outside",
      location: LOCATION,
      tags: ["team:data"],
      preset: true,
      nodeCidr: { address: "10.30.0.0/16", name: "outside-nodes" },
      podCidr: "10.31.0.0/16",
      // The group the service made for the cluster, named by the service.
      securityGroupName: `sg-${kaasId}`,
      kubernetesVersion: "1.32.5",
      nodePools: [SYSTEM_POOL, WORKER_POOL],
      ha: true,
      maxCumulativeVolumeSize: 500,
      billingPeriod: "Month",
      authorizedIpRanges: ["192.168.20.0/24"],
    });
    // The code names the imported cluster where its id appears.
    expect(code.resources.weekly.properties).toEqual({
      projectId: PROJECT,
      kaasId: "${outside.id}",
      name: "outside-weekly",
      location: LOCATION,
      tags: ["team:data"],
      retentionDays: 14,
    });
    expect(code.resources.charts.properties).toMatchObject({
      projectId: PROJECT,
      name: "outside-charts",
      adminUsername: "charts",
      size: "Small",
    });
    expect(code.resources.scratch.properties).toEqual({
      projectId: PROJECT,
      kaasId: "${outside.id}",
      nodePoolName: "system",
      nodeId: outside.node,
      volumeUri: SCRATCH_VOLUME,
    });

    // The state tracks the service's own ids, and the imported cluster's kubeconfig only as a secret.
    const state = stateResources(await s.exportState(stack));
    expect(imports.map((i) => state.get(i.name)?.id)).toEqual([
      kaasId,
      backupId,
      registryId,
      `${kaasId}:${SCRATCH_VOLUME}`,
    ]);
    expect(state.get("outside")?.outputs.kubeconfig).toEqual({
      [SECRET_SIGNATURE]: "1b47061264138c4ac30d75fd1eb44270",
      ciphertext: expect.any(String),
    });

    // The program with the code added: nothing to do.
    write({ ha: true, workers: 2, attachTo: NODE, imported: code.resources });
    s.clearRequests();
    await stack.preview({ expectNoChanges: true });
    expect(s.mutations()).toEqual([]);
  });
});
