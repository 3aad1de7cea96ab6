/**
 * A Python program on the provider plugin's generated SDK (`pulumi_vendor_container`, generated from the package
 * schema by scripts/sdks.sh and installed with pip by the global setup: its resource classes with their typed
 * arguments) through the real engine (the Python language host and the `pulumi` package from PyPI, as
 * scripts/engine.sh installs them) against the emulator: the four kinds are created, the default provider named
 * after the SDK's version and download URL, and a preview of the same program finds nothing to do. What the
 * plugin does after that (an update in place, a refresh, the HA refusal at preview, destroy) is the same whatever
 * the program's language: tests/e2e/plugin.e2e.test.ts.
 */
import fs from "node:fs";
import path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { attachment, backup, cluster, registry } from "./support/args";
import { PYTHON_SDK_DIR, ROOT } from "./support/engine";
import { PLUGIN_SCHEMA, pluginConfig, pluginProgram } from "./support/plugin";
import { POLL_MS, PROJECT, TOKEN, openSuite, upWith, type Suite } from "./support/suite";

const KAAS = "kaas-0001";
/** The first node of the system pool, as the emulator names it (emulator/kinds/kaas/record.ts). */
const NODE = `${KAAS}-system-1`;
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

  it("creates a cluster, its backup, a registry and an attachment, then previews no change", async () => {
    const { calls, outputs, summary } = await upWith(s, stack, [
      cluster({ ha: true }),
      backup({ kaasId: CLUSTER_ID }),
      registry(),
      attachment(NODE, { kaasId: CLUSTER_ID }),
    ]);
    expect(calls.filter((call) => call.startsWith("POST")).sort()).toEqual([
      "POST /kaas",
      `POST /kaas/${KAAS}/backups`,
      `POST /kaas/${KAAS}/nodePools/system/nodes/${NODE}/attach`,
      "POST /registries",
    ]);
    expect(summary.resourceChanges).toEqual({ create: 5 });
    expect(outputs["cluster.kaasId"]).toBe(KAAS);
    expect(outputs["nightly.state"]).toBe("Active");
    expect(outputs["images.registryId"]).toBe("registry-0001");
    expect(outputs["data.nodeId"]).toBe(NODE);
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
    // The program's inputs, as the Python SDK sends them, are what the plugin's outputs hold.
    s.clearRequests();
    const { changeSummary } = await stack.preview({ expectNoChanges: true });
    expect(changeSummary).toEqual({ same: 5 });
    expect(s.mutations()).toEqual([]);
  });
});
