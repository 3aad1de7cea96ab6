/**
 * What the provider plugin does with the stack's state through the real engine, on a YAML program: a
 * replacement the engine decides without `Diff` (`pulumi up --replace`, right after a create) or by
 * `replaceOnChanges` on a nested path (after an update in place) makes a new object; a copy of the stack
 * (`pulumi stack export`, `pulumi stack import --force`) never deletes the original's objects; an object brought
 * back with `pulumi import` under a new name after `pulumi state delete` is imported and its owner tag follows; a
 * lost state never makes a second object; the plugin ends with a CLI killed with its process group, and the next
 * `up` converges; a refused token is named by the plugin's key; a renamed stack replaces and destroys. The create
 * of a replacement tells it from a create whose state lost its object by the state it reads with the CLI
 * (plugin/run.ts), the stack a run is for by the root resource the program registered.
 */
import fs from "node:fs";
import path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { parse } from "yaml";
import { SYSTEM_POOL, WORKER_POOL } from "./support/args";
import { PLUGIN_BIN, pluginConfig } from "./support/plugin";
import { descendantsOf, running, waitFor } from "./support/processes";
import { LOCATION, POLL_MS, PROJECT, TOKEN, openSuite, type Suite } from "./support/suite";

const NAME = "e2e-stacks";
const KAAS = "vendor-container:index:Kaas";
const urnOf = (stack: string, name: string) => `urn:pulumi:${stack}::${NAME}::${KAAS}::${name}`;

/**
 * The program: a cluster named `clusterName` in the program, with `workers` workers (or the `properties` an
 * import printed), and a registry.
 */
function program(
  clusterName: string,
  workers: number,
  properties?: Record<string, unknown>,
  options?: Record<string, unknown>,
) {
  return {
    name: NAME,
    runtime: "yaml",
    plugins: { providers: [{ name: "vendor-container", path: PLUGIN_BIN }] },
    resources: {
      [clusterName]: {
        type: KAAS,
        ...(options === undefined ? {} : { options }),
        properties: properties ?? {
          name: "e2e-cluster",
          location: LOCATION,
          kubernetesVersion: "1.32.5",
          nodeCidr: { address: "10.20.0.0/16", name: "cluster-nodes" },
          nodePools: [SYSTEM_POOL, { ...WORKER_POOL, nodes: workers }],
        },
      },
      images: {
        type: "vendor-container:index:Registry",
        properties: { name: "e2e-images", location: LOCATION, adminUsername: "ops", size: "Small" },
      },
    },
  };
}

/** The id each resource of an exported state tracks, by name (the provider resources left out). */
function trackedIds(exported: string): Record<string, string | undefined> {
  const resources: { urn: string; id?: string; type: string }[] = JSON.parse(exported).deployment.resources;
  return Object.fromEntries(
    resources
      .filter((r) => r.type.startsWith("vendor-container:index:"))
      .map((r) => [r.urn.split("::").pop() ?? "", r.id]),
  );
}

describe("the provider plugin and the stack's state", () => {
  let s: Suite;
  let stack: Stack;
  let dir: string;

  const write = (
    clusterName: string,
    workers: number,
    properties?: Record<string, unknown>,
    options?: Record<string, unknown>,
  ) =>
    fs.writeFileSync(
      path.join(dir, "Pulumi.yaml"),
      JSON.stringify(program(clusterName, workers, properties, options), null, 2),
    );
  /**
   * Sets the workers of "restored" in the program as it stands (the code an import printed); answers the program
   * as it was.
   */
  const setWorkers = (workers: number): string => {
    const file = path.join(dir, "Pulumi.yaml");
    const declared = fs.readFileSync(file, "utf8");
    const current = JSON.parse(declared);
    current.resources.restored.properties.nodePools[1].nodes = workers;
    fs.writeFileSync(file, JSON.stringify(current, null, 2));
    return declared;
  };
  /** The ids of the clusters and registries the service holds (tombstones left out), and their owner tags. */
  const live = () => {
    const state = s.emulator.emulator.state();
    const owners = (objects: typeof state.kaas) =>
      Object.fromEntries(
        objects
          .filter((o) => o.status?.state !== "Deleted")
          .map((o) => [
            o.metadata.id,
            (o.metadata.tags ?? []).filter((t) => t.startsWith("pulumi-ct-owner:")),
          ]),
      );
    return { kaas: owners(state.kaas), registries: owners(state.registries) };
  };
  /** A CLI run in the program's folder that must succeed; resolves with what it printed. */
  const cli = async (...args: string[]) => {
    const run = await s.cli(args, dir).done;
    expect({ code: run.code, tail: run.code === 0 ? "" : run.output.slice(-3000) }).toEqual({
      code: 0,
      tail: "",
    });
    return run.output;
  };
  const exported = async (stackName: string) => cli("stack", "export", "--stack", stackName);

  beforeAll(async () => {
    s = await openSuite("plugin-stacks");
    dir = path.join(s.dir, "programs", NAME);
    fs.mkdirSync(dir, { recursive: true });
    write("cluster", 2);
    stack = await s.stack("dev", dir, pluginConfig(s, TOKEN, PROJECT, POLL_MS));
  });
  afterAll(async () => {
    await s?.close();
  });

  it("replaces a cluster with --replace right after its create: a new cluster, the old one deleted", async () => {
    await stack.up();
    expect(Object.keys(live().kaas)).toEqual(["kaas-0001"]);
    s.clearRequests();
    const result = await stack.up({ replace: [urnOf("dev", "cluster")] });
    expect(result.summary.resourceChanges).toEqual({ same: 2, replace: 1 });
    expect(s.mutations().filter((call) => /^(POST|DELETE) \/kaas/.test(call))).toEqual([
      "POST /kaas",
      "DELETE /kaas/kaas-0001",
    ]);
    expect(Object.keys(live().kaas)).toEqual(["kaas-0002"]);
    expect(trackedIds(await exported("dev"))).toEqual({ cluster: "kaas-0002", images: "registry-0001" });
  });

  it("replaces a cluster whose nested property replaceOnChanges names, after an update in place: a new cluster, the old one deleted", async () => {
    write("cluster", 3);
    const updated = await stack.up();
    expect(updated.summary.resourceChanges).toEqual({ same: 2, update: 1 });
    const properties = {
      ...program("cluster", 3).resources.cluster.properties,
      nodePools: [
        { ...SYSTEM_POOL, instance: "K8A16" },
        { ...WORKER_POOL, nodes: 3 },
      ],
    };
    write("cluster", 3, properties, { replaceOnChanges: ["nodePools[*].instance"] });
    s.clearRequests();
    const result = await stack.up();
    expect(result.summary.resourceChanges).toEqual({ same: 2, replace: 1 });
    expect(s.mutations().filter((call) => /^(POST|DELETE) \/kaas/.test(call))).toEqual([
      "POST /kaas",
      "DELETE /kaas/kaas-0002",
    ]);
    expect(Object.keys(live().kaas)).toEqual(["kaas-0003"]);
    expect(trackedIds(await exported("dev"))).toEqual({ cluster: "kaas-0003", images: "registry-0001" });
  });

  it("never lets a copy of the stack delete the original's objects, and says how to let go of them or adopt them", async () => {
    const file = path.join(s.dir, "dev.json");
    fs.writeFileSync(file, await exported("dev"));
    await s.stack("copy", dir, pluginConfig(s, TOKEN, PROJECT, POLL_MS));
    await cli("stack", "import", "--file", file, "--force", "--stack", "copy");
    const before = live();
    s.clearRequests();
    const destroy = await s.cli(["destroy", "--yes", "--skip-preview", "--stack", "copy"], dir).done;
    expect(destroy.code).not.toBe(0);
    expect(destroy.output).toContain(
      `Kaas "cluster": refusing to delete cluster kaas-0003: its owner tag names "${NAME}/dev/cluster", a ` +
        `resource of stack "${NAME}/dev", and this run is for stack "${NAME}/copy"; this stack's state names ` +
        `"${NAME}/dev" in its URNs: it is a copy of that stack's state`,
    );
    expect(destroy.output).toContain(`adoptId: "kaas-0003" and adoptFromScope: "${NAME}/dev/cluster"`);
    expect(s.mutations()).toEqual([]);
    expect(live()).toEqual(before);
  });

  it("imports its own cluster under a new name after pulumi state delete, then records the new owner", async () => {
    await cli("state", "delete", urnOf("dev", "cluster"), "--stack", "dev", "--yes");
    s.clearRequests();
    const generated = path.join(s.dir, "restored.yaml");
    const importArgs = ["--yes", "--protect=false", "--stack", "dev"];
    const imported = await cli("import", KAAS, "restored", "kaas-0003", "--out", generated, ...importArgs);
    expect(imported).not.toContain("cluster kaas-0003 names");
    expect(imported).not.toContain("is also tracked");
    expect(s.mutations()).toEqual([]);
    expect(trackedIds(await exported("dev"))).toEqual({ restored: "kaas-0003", images: "registry-0001" });
    // The program with the code the import printed and one more worker: the update records "restored" as the
    // owner.
    const code: { resources: { restored: { properties: { nodePools: { nodes: number }[] } } } } = parse(
      fs.readFileSync(generated, "utf8"),
    );
    const properties = code.resources.restored.properties;
    properties.nodePools[1].nodes = 4;
    write("restored", 4, properties);
    s.clearRequests();
    await stack.up();
    expect(s.mutations()).toEqual(["PUT /kaas/kaas-0003", "PUT /kaas/kaas-0003/nodePools/workers"]);
    expect(live().kaas).toEqual({ "kaas-0003": [`pulumi-ct-owner:${NAME}/dev/restored`] });
  });

  it("never makes a second object for a cluster its state lost, which pulumi import tracks again", async () => {
    // The cluster was updated since its create, so it carries its owner tag alone: refused, nothing sent.
    await cli("state", "delete", urnOf("dev", "restored"), "--stack", "dev", "--yes");
    s.clearRequests();
    const up = await s.cli(["up", "--yes", "--skip-preview", "--stack", "dev"], dir).done;
    expect(up.code).not.toBe(0);
    const created = s.emulator.emulator.state().kaas.find((k) => k.metadata.id === "kaas-0003")!.metadata;
    expect(up.output).toContain(
      `Kaas "restored": found cluster kaas-0003 (Active, created ${new Date(created.creationDate!).toISOString()}) ` +
        `naming this resource as its owner (tag pulumi-ct-owner:${NAME}/dev/restored), but this stack's state ` +
        "does not track it: it was removed from the state (pulumi state delete), the state was restored from an " +
        "older copy, or another state backend holds a stack of the same name. Nothing was created. If it is this " +
        `resource's cluster, set adoptId: "kaas-0003" to track it again; otherwise delete it.`,
    );
    expect(s.mutations()).toEqual([]);
    // `pulumi import` tracks it again, as adoptId would. (An object that still carries its creation tag, as one
    // whose create was cut short does, is taken back by the next create instead: the crash points of the
    // plugin's creates, crash-points-yaml.e2e.test.ts and crash-points-python.e2e.test.ts.)
    await cli("import", KAAS, "restored", "kaas-0003", "--yes", "--protect=false", "--stack", "dev");
  });

  it("stops the plugin when the CLI's process group is killed, and the next up converges", async () => {
    // One more worker: an update the plugin is still waiting for when the CLI is killed.
    setWorkers(5);
    s.clearRequests();
    const run = s.cli(["up", "--yes", "--skip-preview", "--stack", "dev"], dir, { detached: true });
    let plugins: number[] = [];
    await waitFor("the resize of the pool", () => {
      plugins = descendantsOf(run.child.pid!)
        .filter((p) =>
          p.argv.some((arg) => /(pulumi-resource-vendor-container|dist\/plugin\/main\.js)$/.test(arg)),
        )
        .map((p) => p.pid);
      return s.mutations().includes("PUT /kaas/kaas-0003/nodePools/workers");
    });
    expect(plugins.length).toBeGreaterThan(0);
    // The CLI's group alone, as a cancelled CI job's runner stops it: the engine starts the plugin in a group of
    // its own.
    process.kill(-run.child.pid!, "SIGKILL");
    await run.done;
    // The file backend's lock of the killed run stays until `pulumi cancel` removes it.
    await cli("cancel", "--yes", "--stack", "dev");
    await waitFor("the plugin to end", () => !plugins.some(running), undefined, 5_000);
    const seen = s.requests().length;
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(s.requests().slice(seen)).toEqual([]);
    await cli("up", "--yes", "--skip-preview", "--stack", "dev");
    const resources: { urn: string; outputs?: { nodePools?: { nodes: number }[] } }[] = JSON.parse(
      await exported("dev"),
    ).deployment.resources;
    const restored = resources.find((r) => r.urn === urnOf("dev", "restored"));
    expect(restored?.outputs?.nodePools?.map((pool) => pool.nodes)).toEqual([SYSTEM_POOL.nodes, 5]);
  });

  it("names the plugin's setting when the service refuses the token during an update, and never the token", async () => {
    const wrong = "not-the-token-4f2a9c";
    await stack.setConfig("vendor-container:token", { value: wrong, secret: true });
    const declared = setWorkers(6);
    try {
      const up = await s.cli(["up", "--yes", "--skip-preview", "--stack", "dev"], dir).done;
      expect(up.code).not.toBe(0);
      expect(up.output).toContain(
        `Kaas "restored" (kaas-0003) update did not complete: GET /kaas/kaas-0003 failed (401 Unauthorized): ` +
          "Unauthorized: The bearer token is not valid. Check the credentials in stack config " +
          "vendor-container:token (or VENDOR_TOKEN)",
      );
      expect(up.output).not.toMatch(/\bvendor:token/);
      expect(up.output).not.toContain(wrong);
    } finally {
      fs.writeFileSync(path.join(dir, "Pulumi.yaml"), declared);
      await stack.setConfig("vendor-container:token", { value: TOKEN, secret: true });
    }
  });

  it("replaces and destroys after pulumi stack rename", async () => {
    await cli("stack", "rename", "renamed", "--stack", "dev");
    s.clearRequests();
    await cli(
      "up",
      "--yes",
      "--skip-preview",
      "--stack",
      "renamed",
      "--replace",
      urnOf("renamed", "restored"),
    );
    expect(s.mutations().filter((call) => /^(POST|DELETE) \/kaas/.test(call))).toEqual([
      "POST /kaas",
      "DELETE /kaas/kaas-0003",
    ]);
    expect(live()).toEqual({
      kaas: { "kaas-0004": [`pulumi-ct-owner:${NAME}/renamed/restored`] },
      registries: { "registry-0001": [`pulumi-ct-owner:${NAME}/renamed/images`] },
    });
    // Renamed again, then destroyed at once: the owner tags name the former name, the state's URNs this one.
    await cli("stack", "rename", "final", "--stack", "renamed");
    await cli("destroy", "--yes", "--skip-preview", "--stack", "final");
    expect(live()).toEqual({ kaas: {}, registries: {} });
  });
});
