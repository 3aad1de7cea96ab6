/**
 * Package upgrade through the engine: a stack written by version 0.1.0 (tests/fixtures/state-v0.1.0.json: the
 * inputs and outputs it stored and the service objects behind them) is imported with `pulumi stack import`,
 * then previewed with the unchanged program (no change), refreshed (no change) and destroyed with the current
 * code, which the stored serialized providers (`require("pulumi-vendor-container/shells/<Kind>")`) load.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { ROOT } from "./support/engine";
import { TOKEN, openSuite, type Declared, type Suite } from "./support/suite";

interface FixtureResource {
  name: string;
  kind: Declared["kind"];
  id: string;
  args: Record<string, unknown>;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
}
const fixture = JSON.parse(fs.readFileSync(path.join(ROOT, "tests/fixtures/state-v0.1.0.json"), "utf8")) as {
  emulator: { seed: number; projectId: string; state: unknown };
  resources: FixtureResource[];
};

/** The fixture was written by stack `dev` of project `fixture`: its creation tokens depend on both. */
const PROJECT_NAME = "fixture";
const STACK = "dev";
/** Outputs the engine keeps encrypted (the classes list them in `additionalSecretOutputs`). */
const SECRET_OUTPUTS = new Set(["kubeconfig", "identity"]);
/** The engine's mark of a secret value in a deployment; `plaintext` values are encrypted on import. */
const SECRET_SIG = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };
const secret = (value: unknown) => ({ ...SECRET_SIG, plaintext: JSON.stringify(value) });

let s: Suite;
let stack: Stack;

beforeAll(async () => {
  // A copy of the fixture's service state: the emulator rewrites its state file on every change.
  const stateFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "upgrade-")), "state.json");
  fs.writeFileSync(stateFile, JSON.stringify(fixture.emulator.state));
  s = await openSuite("upgrade", { seed: fixture.emulator.seed, stateFile });
  stack = await s.stack(STACK, s.program(PROJECT_NAME), {
    "vendor:projectId": { value: fixture.emulator.projectId },
  });
});

/** The unchanged program of version 0.1.0 (the classes add `creationScope` themselves). */
const program = (): Declared[] =>
  fixture.resources.map(({ kind, name, args }) => {
    const { creationScope: _scope, ...rest } = args;
    return { kind, name, args: rest };
  });
afterAll(async () => {
  await s?.close();
});

it("imports the 0.1.0 state, previews and refreshes it with no change, and destroys it", async () => {
  // An empty update writes the stack resource and the secrets provider; the fixture's resources join them.
  await s.declare(stack, []);
  await stack.up();
  const empty = await stack.exportStack();
  const stackUrn = `urn:pulumi:${STACK}::${PROJECT_NAME}::pulumi:pulumi:Stack::${PROJECT_NAME}-${STACK}`;
  const providerUrn = `urn:pulumi:${STACK}::${PROJECT_NAME}::pulumi:providers:pulumi-nodejs::default`;
  const providerId = "3f9ad1a2-5b0e-4d47-9a8e-0c2b1f7e6d01";
  const clusterUrn = `urn:pulumi:${STACK}::${PROJECT_NAME}::pulumi-nodejs:dynamic/vendor-container:Kaas::cluster`;
  const config = {
    "vendor:baseUrl": s.emulator.url,
    "vendor:pollIntervalMs": "100",
    "vendor:projectId": fixture.emulator.projectId,
    "vendor:token": secret(TOKEN),
  };
  const resources = [
    ...(empty.deployment.resources as { urn: string }[]).filter((r) => r.urn === stackUrn),
    {
      urn: providerUrn,
      custom: true,
      id: providerId,
      type: "pulumi:providers:pulumi-nodejs",
      inputs: config,
      outputs: config,
    },
    ...fixture.resources.map((r) => {
      const type = `pulumi-nodejs:dynamic/vendor-container:${r.kind}`;
      return {
        urn: `urn:pulumi:${STACK}::${PROJECT_NAME}::${type}::${r.name}`,
        custom: true,
        id: r.id,
        type,
        inputs: r.inputs,
        outputs: Object.fromEntries(
          Object.entries(r.outputs).map(([k, v]) => [k, SECRET_OUTPUTS.has(k) && v !== null ? secret(v) : v]),
        ),
        parent: stackUrn,
        provider: `${providerUrn}::${providerId}`,
        // A backup and an attachment depend on their cluster, as the program that made them said.
        ...(r.inputs.kaasId
          ? { dependencies: [clusterUrn], propertyDependencies: { kaasId: [clusterUrn] } }
          : {}),
        ...(r.kind === "Kaas" ? { additionalSecretOutputs: ["kubeconfig", "identity"] } : {}),
      };
    }),
  ];
  await stack.importStack({ ...empty, deployment: { ...empty.deployment, resources } });
  await s.declare(stack, program());

  s.clearRequests();
  const preview = await stack.preview({ expectNoChanges: true });
  expect(preview.changeSummary).toEqual({ same: 5 });
  const refreshed = await stack.refresh({ expectNoChanges: true });
  expect(refreshed.summary.resourceChanges).toEqual({ same: 5 });
  expect(s.mutations()).toEqual([]);
  // The stored kubeconfig stays a secret, and unchanged, through the refresh.
  const state = await s.exportState(stack);
  expect(state).toContain('"id": "kaas-0001"');
  expect(state).not.toContain(s.emulator.emulator.kubeconfigToken("kaas-0001"));

  const destroyed = await stack.destroy();
  expect(destroyed.summary.resourceChanges).toEqual({ delete: 5 });
  // The cluster goes after its backup and attachment.
  const calls = s
    .mutations()
    .map((call) => call.replace(`/projects/${fixture.emulator.projectId}/providers/Vendor.Container`, ""));
  expect([...calls].sort()).toEqual([
    "DELETE /kaas/kaas-0001",
    "DELETE /kaas/kaas-0001/backups/backup-0001",
    "DELETE /registries/registry-0001",
    "POST /kaas/kaas-0001/nodePools/system/nodes/kaas-0001-system-1/detach",
  ]);
  // The registry depends on nothing, so the engine may delete it alongside the cluster, in either order.
  const clusterDelete = calls.indexOf("DELETE /kaas/kaas-0001");
  expect(calls.indexOf("DELETE /kaas/kaas-0001/backups/backup-0001")).toBeLessThan(clusterDelete);
  expect(calls.indexOf("POST /kaas/kaas-0001/nodePools/system/nodes/kaas-0001-system-1/detach")).toBeLessThan(
    clusterDelete,
  );
  s.emulator.emulator.advanceClock(60_000);
  const live = s.emulator.emulator.state();
  expect(
    [...live.kaas, ...live.backups, ...live.registries].filter((o) => o.status?.state !== "Deleted"),
  ).toEqual([]);
});
