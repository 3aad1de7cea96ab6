/**
 * A Go program on the provider plugin's generated Go SDK (`github.com/vendor-container/pulumi-vendor-container/sdk/go`, generated
 * from the package schema by scripts/sdks.sh: its resource types with their typed arguments) through the real
 * engine (the Go language host as scripts/engine.sh builds it, which compiles the program with `go build`) against
 * the emulator: a cluster, its backup and a registry are created with the kubeconfig secret in the state, and a
 * preview of the same program finds nothing to do. What the plugin does after that (an update in place, a
 * refresh, the HA refusal at preview, destroy) is the same whatever the program's language:
 * tests/e2e/plugin.e2e.test.ts.
 */
import type { Stack } from "@pulumi/pulumi/automation";
import path from "node:path";
import { ROOT } from "./support/engine";
import { GO_ENV, useGoSdk } from "./support/golang";
import { pluginConfig, pluginProgram } from "./support/plugin";
import { POLL_MS, PROJECT, TOKEN, openSuite, type Suite } from "./support/suite";

const KAAS = "kaas-0001";
/** The key the engine marks a secret value with in a state. */
const SECRET_SIGNATURE = "4dabf18193072939515e22adb298388d";

describe("a Go program on the provider plugin's generated SDK", () => {
  let s: Suite;
  let stack: Stack;

  beforeAll(async () => {
    s = await openSuite("go");
    const program = pluginProgram(s, "e2e-go", path.join(ROOT, "tests/e2e/programs/go"));
    useGoSdk(program);
    stack = await s.stack("dev", program, pluginConfig(s, TOKEN, PROJECT, POLL_MS), GO_ENV);
  });
  afterAll(async () => {
    await s?.close();
  });

  it("creates a cluster, its backup and a registry, the kubeconfig secret in the state", async () => {
    s.clearRequests();
    const { outputs, summary } = await stack.up();
    expect(
      s
        .mutations()
        .filter((call) => call.startsWith("POST"))
        .sort(),
    ).toEqual(["POST /kaas", `POST /kaas/${KAAS}/backups`, "POST /registries"]);
    expect(summary.resourceChanges).toEqual({ create: 4 });
    expect(outputs.kaasId.value).toBe(KAAS);
    expect(outputs.backupState.value).toBe("Active");
    expect(outputs.registryId.value).toBe("registry-0001");
    expect(outputs.kubeconfig.secret).toBe(true);
    const state = await s.exportState(stack);
    const resources = JSON.parse(state).deployment.resources as {
      type: string;
      outputs?: Record<string, unknown>;
    }[];
    const cluster = resources.find((r) => r.type === "vendor-container:index:Kaas");
    expect(cluster?.outputs?.kubeconfig).toEqual({
      [SECRET_SIGNATURE]: "1b47061264138c4ac30d75fd1eb44270",
      ciphertext: expect.any(String),
    });
    expect(state).not.toContain(outputs.kubeconfig.value as string);
  });

  it("previews no change for the same program", async () => {
    s.clearRequests();
    const { changeSummary } = await stack.preview({ expectNoChanges: true });
    expect(changeSummary).toEqual({ same: 4 });
    expect(s.mutations()).toEqual([]);
  });
});
