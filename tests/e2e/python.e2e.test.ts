/**
 * A Python program on the provider plugin's generated SDK (`pulumi_vendor_container`, generated from the package
 * schema by scripts/sdks.sh and installed with pip by the global setup: its resource classes with their typed
 * arguments) through the real engine (the Python language host and the `pulumi` package from PyPI, as
 * scripts/engine.sh installs them) against the emulator: the four kinds are created, a preview and a refresh find
 * nothing to do, a pool resizes in place, disabling HA is refused at preview before any call to the service, and
 * destroy removes everything.
 */
import fs from "node:fs";
import path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { SYSTEM_POOL, WORKER_POOL, attachment, backup, cluster, registry } from "./support/args";
import { PYTHON_SDK_DIR, ROOT } from "./support/engine";
import {
  PLUGIN_SCHEMA,
  expectDestroyed,
  expectHaRefused,
  pluginConfig,
  pluginProgram,
} from "./support/plugin";
import { POLL_MS, PROJECT, TOKEN, expectSettledIn, openSuite, upWith, type Suite } from "./support/suite";

const KAAS = "kaas-0001";
const CLUSTER_ID = { $ref: "cluster.id" };
const VERSION = (JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string })
  .version;

/** What the test reads of `pulumi stack export`. */
interface ExportedState {
  deployment: { resources: { urn: string; type: string }[] };
}

describe("a Python program on the provider plugin's generated SDK", () => {
  let s: Suite;
  let stack: Stack;

  beforeAll(async () => {
    s = await openSuite("python");
    const program = pluginProgram(s, "e2e-python", path.join(ROOT, "tests/e2e/programs/python"));
    stack = await s.stack(
      "dev",
      program,
      { ...pluginConfig(s, TOKEN, PROJECT, POLL_MS), "e2e:schema": { value: PLUGIN_SCHEMA } },
      { PYTHONPATH: PYTHON_SDK_DIR },
    );
  });
  afterAll(async () => {
    await s?.close();
  });

  const haCluster = (overrides: Record<string, unknown> = {}) => cluster({ ha: true, ...overrides });

  it("creates a cluster, its backup and a registry, then settles", async () => {
    const { calls, outputs, summary } = await upWith(s, stack, [
      haCluster(),
      backup({ kaasId: CLUSTER_ID }),
      registry(),
    ]);
    expect(calls.filter((call) => call.startsWith("POST")).sort()).toEqual([
      "POST /kaas",
      `POST /kaas/${KAAS}/backups`,
      "POST /registries",
    ]);
    expect(summary.resourceChanges).toEqual({ create: 4 });
    expect(outputs["cluster.kaasId"]).toBe(KAAS);
    expect(outputs["nightly.state"]).toBe("Active");
    expect(outputs["images.registryId"]).toBe("registry-0001");
    const state = await s.exportState(stack);
    expect(state).not.toContain(outputs["cluster.kubeconfig"] as string);
    // The SDK's classes ask for the plugin of the SDK's version from the schema's pluginDownloadURL, so the engine
    // names the default provider after both (pkg/v3 resource/deploy/providers ProviderRequest.DefaultName: the
    // URL as tokens.IntoQName writes it, "/"-separated segments, empty ones dropped, other characters "_").
    const { pluginDownloadURL } = JSON.parse(fs.readFileSync(PLUGIN_SCHEMA, "utf8")) as {
      pluginDownloadURL: string;
    };
    const qname = pluginDownloadURL
      .split("/")
      .filter((segment) => segment !== "")
      .map((segment) => segment.replace(/[^A-Za-z0-9_.-]/g, "_"))
      .join("/");
    const providers = (JSON.parse(state) as ExportedState).deployment.resources
      .filter((resource) => resource.type === "pulumi:providers:vendor-container")
      .map((resource) => resource.urn.split("::").at(-1));
    expect(providers).toEqual([`default_${VERSION.replace(/\./g, "_")}_${qname}`]);
    await expectSettledIn(s, stack);
  });

  it("resizes a pool in place and attaches a volume", async () => {
    const nodes = s.emulator.emulator.nodes(KAAS).find((p) => p.nodePool === "system")!.nodeIds;
    const { calls, summary } = await upWith(s, stack, [
      haCluster({ nodePools: [SYSTEM_POOL, { ...WORKER_POOL, nodes: 3 }] }),
      backup({ kaasId: CLUSTER_ID }),
      registry(),
      attachment(nodes[0], { kaasId: CLUSTER_ID }),
    ]);
    expect(summary.resourceChanges).toEqual({ same: 3, update: 1, create: 1 });
    expect(calls).toContain(`PUT /kaas/${KAAS}/nodePools/workers`);
    expect(calls.filter((call) => call.includes("/nodes/"))).toHaveLength(1);
  });

  it("refuses to disable HA at preview, before any call to the service", async () => {
    await s.declare(stack, [haCluster({ ha: false }), backup({ kaasId: CLUSTER_ID }), registry()]);
    await expectHaRefused(s, stack);
  });

  it("destroys what it manages", async () => {
    await expectDestroyed(s, stack);
  });
});
