/**
 * A refusal only the service can make (a Kubernetes version that is well formed but not admissible) reaches
 * the user through `pulumi up` with the service's own message after one request: a refused create leaves
 * nothing in the service or the state (field errors as an array), a refused update keeps the declared change
 * pending (field errors as a map). Every shape of the problem body under every request is the integration
 * projects' (tests/integration/problem-shapes.test.ts, limits-provider.test.ts).
 */
import type { Stack } from "@pulumi/pulumi/automation";
import { cluster } from "./support/args";
import { openSuite, type Suite } from "./support/suite";

const REFUSAL =
  'properties.kubernetesVersion.value: "1.35.0" is not an admissible Kubernetes version (admissible: 1.31.9, 1.32.5, 1.33.2, 1.34.1)';

describe("a 400 from the service", () => {
  let s: Suite;
  let stack: Stack;
  beforeAll(async () => {
    s = await openSuite("errors");
    stack = await s.stack("dev", s.program("errors"));
  });
  afterAll(async () => {
    await s?.close();
  });

  it("fails a create with the service's message after one POST, leaving nothing behind (errors: array)", async () => {
    s.emulator.emulator.updateConfig({ wire: { errors: "array" } });
    await s.declare(stack, [cluster({ kubernetesVersion: "1.35.0" })]);
    s.clearRequests();
    await expect(stack.up()).rejects.toThrow(REFUSAL);
    expect(s.mutations()).toEqual(["POST /kaas"]);
    expect(s.cliOutput.join("\n")).toContain("POST /kaas failed (400 Bad Request)");
    expect(s.emulator.emulator.state().kaas).toEqual([]);
    const { deployment } = await stack.exportStack();
    expect(
      (deployment.resources ?? []).filter((r: { type: string }) => r.type.includes("vendor-container")),
    ).toEqual([]);
  });

  it("fails an update with the service's message after one PUT, and keeps the declared change pending (errors: map)", async () => {
    s.emulator.emulator.updateConfig({ wire: { errors: "map" } });
    await s.declare(stack, [cluster()]);
    await stack.up();
    await s.declare(stack, [cluster({ kubernetesVersion: "1.35.0" })]);
    s.clearRequests();
    await expect(stack.up()).rejects.toThrow(REFUSAL);
    expect(s.mutations()).toEqual(["PUT /kaas/kaas-0001"]);
    expect(s.cliOutput.join("\n")).not.toContain("outcome is unknown");
    const preview = await stack.preview();
    expect(preview.changeSummary).toEqual({ same: 1, update: 1 });
    await s.declare(stack, [cluster()]);
    await stack.destroy();
  });
});
