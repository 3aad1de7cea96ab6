/**
 * Interrupted runs through the real engine: what the engine leaves of a killed run (its lock, its pending
 * operation) and how the documented recovery (`pulumi cancel`, then the same command) gets past it.
 *
 * - A `pulumi up` killed with SIGKILL (the CLI and every plugin it started) while the cluster it created is
 *   `InCreation` leaves the stack locked: the next `up` refuses and names `pulumi cancel`. After that, `up`
 *   finds the cluster by its owner tag, resumes it by its creation tag, waits for it and tracks it, without a
 *   second POST; the pending create the killed run left stays in the state until `pulumi refresh
 *   --clear-pending-creates`. The cluster carries a user tag and a decoy of the same name with another stack's
 *   creation tag comes first in every list, so the lookup has to confirm the tag.
 * - A `pulumi destroy` killed while the cluster is `Deleting`: after `pulumi cancel`, `destroy` waits for the
 *   deletion in flight without a second DELETE and empties the stack.
 *
 * The story runs once, with the emulator answering `eq` on the array `metadata.tags` by comparing the whole
 * array (`wire.filters` `whole`), where the lookup needs both its filters. Only the provider's lookup depends
 * on how the service reads filters, and it is tested under every reading against the emulator directly
 * (tests/integration/filter-readings-provider.test.ts: an interrupted create resumed, and a create whose
 * answer was lost looked up, per kind); a killed create under the default and the strictest readings is the
 * crash-point suite's (tests/e2e/crash-points.e2e.test.ts).
 */
import type { Stack } from "@pulumi/pulumi/automation";
import type { WireReadings } from "../../emulator";
import { insertBody } from "../../provider/kaas/mapping";
import type { CheckedKaasInputs } from "../../provider/kaas/types";
import { VendorContainerClient } from "../../rest/client";
import { resolveSettings } from "../../rest/settings";
import { byTag } from "../support/expressions";
import { cluster } from "./support/args";
import { killWhen, waitFor } from "./support/processes";
import { PROJECT, TOKEN, openSuite, values, type Suite } from "./support/suite";

/** The reading of filters the stories run under: the lookup's longest path (a tag filter, then a name). */
const FILTERS: WireReadings["filters"] = "whole";
/** The tag of the decoy: a cluster of the same name created by another stack. */
const OTHER_STACK_TAG = "pulumi-ct-0123456789abcdef0123";
/** A user tag on both clusters: under `whole`, a filter on the creation tag alone then matches nothing. */
const USER_TAG = "team:a";
/** How long a create or delete takes while a run is killed: far longer than the test, until the clock moves. */
const LONG_MS = 10 * 60 * 1000;
const KAAS_PATH = `/projects/${PROJECT}/providers/Vendor.Container/kaas`;

const declared = cluster({ tags: [USER_TAG] });
const byName = `metadata.name:eq("${declared.args.name as string}")`;

let s: Suite;
let dir: string;

beforeAll(async () => {
  s = await openSuite("interrupted");
  dir = s.program("interrupted");
});
afterAll(async () => {
  await s?.close();
});

const emulator = () => s.emulator.emulator;

/** Starts a case on an empty service (ids count from 1 again) answering filters by `FILTERS`. */
function resetService(): void {
  emulator().reset();
  emulator().updateConfig({ wire: { filters: FILTERS } });
}

/** Creates the decoy through the REST API, as another stack would have: it gets `kaas-0001`. */
async function createDecoy(): Promise<string> {
  const config: Record<string, string> = { "vendor:baseUrl": s.emulator.url, "vendor:token": TOKEN };
  const client = new VendorContainerClient(resolveSettings((key) => config[key], {}));
  // `preset: true` is what the provider's check makes of a cluster declared without a VPC.
  const decoy = { ...declared.args, preset: true, tags: [USER_TAG, OTHER_STACK_TAG] };
  const body = insertBody(decoy as CheckedKaasInputs);
  return (await client.call("createKaas", { projectId: PROJECT }, body)).metadata.id;
}

/** The lifecycle state of the cluster `id` as the service holds it, or undefined once it is gone. */
const stateOf = (id: string): string | undefined =>
  emulator()
    .state()
    .kaas.find((k) => k.metadata.id === id)?.status?.state ?? undefined;

/** True once the emulator has answered `method` on `path` (below the project's prefix) with a 2xx. */
const answered = (method: string, path: string) => () =>
  s.requests().some((r) => r.method === method && r.path === `${KAAS_PATH}${path}` && (r.status ?? 0) < 300);

/**
 * Starts `pulumi <args>` in a process group of its own and, as soon as `killWhen` holds, kills it with every
 * process it started (see `support/processes.ts`).
 */
async function runAndKill(args: string[], condition: () => boolean, what: string) {
  const { result, killed } = await killWhen(s.cli(args, dir, { detached: true }), condition, what);
  // The language host and the dynamic provider were there to be killed.
  expect(killed.length).toBeGreaterThanOrEqual(3);
  return result;
}

/**
 * Runs `operation` and, once the provider is seen polling (`polling`), moves the emulator clock past the
 * long transition, so the operation demonstrably waited for the object the killed run left in flight.
 */
async function finishTransitionDuring<T>(operation: Promise<T>, polling: () => boolean): Promise<T> {
  let settled = false;
  void operation.then(
    () => (settled = true),
    () => (settled = true),
  );
  await waitFor("the provider to poll the cluster", polling, () => settled).catch(() => undefined);
  expect(polling()).toBe(true);
  emulator().advanceClock(LONG_MS);
  return operation;
}

/** Each list request of `/kaas`: its `filter` (null without one) and the status answered. */
const listCalls = () =>
  s
    .requests()
    .filter((r) => r.method === "GET" && r.path === KAAS_PATH)
    .map((r) => ({ filter: r.query.filter ?? null, status: r.status }));

/**
 * The list requests of a lookup that finds the cluster under `whole`: the other tags make the owner-tag filter
 * miss, and the name filter finds it.
 */
const findingLookup = (tag: string) => [
  { filter: byTag(tag), status: 200 },
  { filter: byName, status: 200 },
];

/** The ids of the clusters in the stack's state, and its pending operations as `type urn`. */
async function tracked(stack: Stack): Promise<{ clusters: string[]; pending: string[] }> {
  const { deployment } = await stack.exportStack();
  const resources = (deployment.resources ?? []) as { urn: string; id?: string }[];
  const pending = (deployment.pending_operations ?? []) as { type: string; resource: { urn: string } }[];
  return {
    clusters: resources.filter((r) => r.urn.endsWith("::cluster")).map((r) => r.id ?? ""),
    pending: pending.map((op) => `${op.type} ${op.resource.urn}`),
  };
}

/** The clusters the service holds that are not deleted, as `id tags`. */
const liveClusters = () =>
  emulator()
    .state()
    .kaas.filter((k) => k.status?.state !== "Deleted")
    .map((k) => `${k.metadata.id} ${(k.metadata.tags ?? []).join(",")}`);

/** What the CLI says when a run finds the stack locked by a killed one (checked against v3.274.1). */
const LOCKED =
  /the stack is currently locked by 1 lock\(s\)\. Either wait for the other process\(es\) to end or delete the lock file with `pulumi cancel`\./;

/**
 * The owner tag of the cluster of stack `name`: the lookup filters by it, and it stays alone once the program
 * released the creation tag.
 */
const ownerTag = (name: string) => `pulumi-ct-owner:interrupted/${name}/cluster`;

/** The URN of the cluster of stack `name`. */
const clusterUrn = (name: string) =>
  `urn:pulumi:${name}::interrupted::pulumi-nodejs:dynamic/vendor-container:Kaas::cluster`;

/**
 * Runs `pulumi <command>` on the stack a killed run left locked: it refuses, naming the lock file and
 * `pulumi cancel`. Then runs exactly that, which removes the lock.
 */
async function expectLockedThenCancel(command: "up" | "destroy", name: string): Promise<void> {
  const locked = await s.cli([command, "--yes", "--skip-preview", "--stack", name], dir).done;
  expect(locked.code).toBe(1);
  expect(locked.output).toMatch(LOCKED);
  expect(locked.output).toContain(`/backend/.pulumi/locks/organization/interrupted/${name}/`);
  const cancel = await s.cli(["cancel", "--yes", "--stack", name], dir).done;
  expect(cancel.code).toBe(0);
  expect(cancel.output).toContain(`The currently running update for '${name}' has been canceled!`);
}

/** The engine's warning, on the run after a killed one, about the operation the killed run left pending. */
const pendingWarning = (name: string, operation: "creating" | "deleting") => [
  "warning: Attempting to deploy or update resources with 1 pending operations from previous deployment.",
  `* ${clusterUrn(name)}, interrupted while ${operation}`,
];

it("recovers from a pulumi up killed while the cluster is InCreation: cancel, then up resumes that cluster", async () => {
  resetService();
  emulator().updateConfig({ durations: { kaasCreateMs: LONG_MS } });
  const decoyId = await createDecoy();
  expect(decoyId).toBe("kaas-0001");
  const name = "killed-up";
  const stack = await s.stack(name, dir);
  await s.declare(stack, [declared]);
  s.clearRequests();

  const killed = await runAndKill(
    ["up", "--yes", "--skip-preview", "--stack", name],
    () => answered("POST", "")() && stateOf("kaas-0002") === "InCreation",
    "the POST to be answered",
  );
  expect(killed.signal).toBe("SIGKILL");
  expect(s.mutations()).toEqual(["POST /kaas"]);

  await expectLockedThenCancel("up", name);
  // The killed run left the stack resource and a pending create of the cluster, without an id.
  expect(await tracked(stack)).toEqual({ clusters: [], pending: [`creating ${clusterUrn(name)}`] });

  s.clearRequests();
  const result = await finishTransitionDuring(stack.up(), answered("GET", "/kaas-0002"));
  expect(stateOf("kaas-0002")).toBe("Active");
  // No second create: only the program's release of the creation tag, once the engine recorded the id.
  expect(s.mutations()).toEqual(["PUT /kaas/kaas-0002"]);
  expect(result.stdout).toContain(
    'Kaas "cluster": resuming the creation of kaas-0002 started by an earlier run',
  );
  expect(listCalls()).toEqual(findingLookup(ownerTag(name)));
  expect(liveClusters()).toEqual([
    `kaas-0001 ${USER_TAG},${OTHER_STACK_TAG}`,
    `kaas-0002 ${USER_TAG},${ownerTag(name)}`,
  ]);
  expect(result.summary.resourceChanges).toEqual({ create: 1, same: 1 });
  const outputs = values(result.outputs);
  expect(outputs["cluster.kaasId"]).toBe("kaas-0002");
  expect(outputs["cluster.state"]).toBe("Active");
  // The engine keeps the killed run's pending create in the state even though this `up` created the
  // resource, so later runs warn about it again. Its advice, `pulumi refresh`, clears a pending create
  // only interactively or when told to (a plain non-interactive refresh leaves it).
  for (const line of pendingWarning(name, "creating")) expect(result.stdout).toContain(line);
  expect(await tracked(stack)).toEqual({
    clusters: ["kaas-0002"],
    pending: [`creating ${clusterUrn(name)}`],
  });
  await stack.refresh({ clearPendingCreates: true, expectNoChanges: true });
  expect(await tracked(stack)).toEqual({ clusters: ["kaas-0002"], pending: [] });
  s.clearRequests();
  await stack.preview({ expectNoChanges: true });
  expect(s.mutations()).toEqual([]);
});

it("recovers from a pulumi destroy killed while the cluster is Deleting: cancel, then destroy finishes it", async () => {
  resetService();
  const name = "killed-destroy";
  const stack = await s.stack(name, dir);
  await s.declare(stack, [declared]);
  expect(values((await stack.up()).outputs)["cluster.kaasId"]).toBe("kaas-0001");
  emulator().updateConfig({ durations: { kaasDeleteMs: LONG_MS } });
  s.clearRequests();

  const killed = await runAndKill(
    ["destroy", "--yes", "--skip-preview", "--stack", name],
    () => answered("DELETE", "/kaas-0001")() && stateOf("kaas-0001") === "Deleting",
    "the DELETE to be answered",
  );
  expect(killed.signal).toBe("SIGKILL");
  expect(s.mutations()).toEqual(["DELETE /kaas/kaas-0001"]);

  await expectLockedThenCancel("destroy", name);
  expect(await tracked(stack)).toEqual({
    clusters: ["kaas-0001"],
    pending: [`deleting ${clusterUrn(name)}`],
  });

  s.clearRequests();
  const result = await finishTransitionDuring(stack.destroy(), answered("GET", "/kaas-0001"));
  expect(result.summary.resourceChanges).toEqual({ delete: 2 });
  for (const line of pendingWarning(name, "deleting")) expect(result.stdout).toContain(line);
  // The deletion in flight is waited for, not requested again.
  expect(s.mutations()).toEqual([]);
  emulator().advanceClock(60_000);
  expect(emulator().state().kaas).toEqual([]);
  expect(await tracked(stack)).toEqual({ clusters: [], pending: [] });
  expect((await stack.exportStack()).deployment.resources ?? []).toEqual([]);
  expect(await stack.outputs()).toEqual({});
});
