/**
 * Harness of the provider tests: an emulator on an ephemeral loopback port, the provider module configured
 * against it through `configure` (as the engine does), console output captured, and the emulator's request
 * log at hand to assert which calls reached the service.
 */
import {
  FAST_DURATIONS,
  startEmulator,
  type RunningEmulator,
  type StartEmulatorOptions,
} from "../../emulator";
import { configure, provider, retagObject, type KindProvider, type RetagOutcome } from "../../provider";
import {
  resetBackendIdentity,
  resetClients,
  resetCurrentStack,
  resetReplacements,
} from "../../provider/common/context";
import type { CheckResult } from "../../provider/common/arguments";
import type { Inputs } from "../../provider/common/check";
import type { TaggedKind } from "../../provider/kinds";
import { VendorContainerClient } from "../../rest/client";
import { resolveSettings } from "../../rest/settings";
import { harnessWire } from "./support/wire";

export const PROJECT = "p-test";
export const TOKEN = "provider-test-token";
/**
 * The state backend the providers see (`PULUMI_BACKEND_URL`), so that creation tokens do not depend on the
 * machine's `pulumi login`; `backendIdentity` reduces it to itself.
 */
export const BACKEND = "file:///var/tmp/provider-harness";

export interface ProviderHarness {
  running: RunningEmulator;
  /** The stack configuration the providers read; changes apply to the next call. */
  config: Record<string, string>;
  /** A direct client, for setting up and inspecting the service like another user would. */
  client: VendorContainerClient;
  kind(name: "Kaas" | "KaasBackup" | "Registry" | "VolumeAttachment"): KindProvider;
  /** Mutating requests (POST, PUT, DELETE) received since the last `clearRequests`. */
  mutating(): { method: string; path: string }[];
  /** Every progress line the providers printed. */
  lines: string[];
  /**
   * What the program does once the engine has recorded the id of the object a create made (sdk/persisted.ts
   * `releaseWhenRecorded`): `retagObject` with the resource's outputs, owner the scope they name.
   */
  release(kind: TaggedKind, id: string, outs: Inputs): Promise<RetagOutcome>;
  close(): Promise<void>;
}

/** The describe line of the program's release, as sdk/persisted.ts writes it. */
export const RELEASE_LINE = "the engine recorded the id: releasing the creation tag of";

export async function startHarness(options: StartEmulatorOptions = {}): Promise<ProviderHarness> {
  const running = await startEmulator({
    tokens: [TOKEN],
    durations: FAST_DURATIONS,
    wire: harnessWire(),
    ...options,
  });
  const config: Record<string, string> = {
    "vendor:baseUrl": running.url,
    "vendor:token": TOKEN,
    "vendor:projectId": PROJECT,
    "vendor:pollIntervalMs": "20",
    "vendor:requestTimeoutMs": "5000",
    "vendor:callDeadlineMs": "20000",
  };
  configure({ get: (key) => config[key] });
  resetClients();
  // One provider process serves one run: what an earlier test's check and diff noted (the program's stack, the
  // replacements planned) is not this test's.
  resetCurrentStack();
  resetReplacements();
  const backendBefore = process.env.PULUMI_BACKEND_URL;
  process.env.PULUMI_BACKEND_URL = BACKEND;
  resetBackendIdentity();
  const lines: string[] = [];
  const spy = jest.spyOn(console, "log").mockImplementation((line: unknown) => {
    lines.push(String(line));
  });
  const client = new VendorContainerClient(
    resolveSettings((key) => config[key]),
    { pollIntervalMs: 20 },
  );
  return {
    running,
    config,
    client,
    kind: (name) => provider(name),
    mutating: () =>
      running.emulator
        .requests()
        .filter((r) => r.mutating)
        .map((r) => ({
          method: r.method,
          path: r.path.replace(`/projects/${PROJECT}/providers/Vendor.Container`, ""),
        })),
    lines,
    release(kind, id, outs) {
      const scope = outs.creationScope as string;
      return retagObject(kind, client, outs, id, {
        owner: scope,
        what: `${kind} "${scope.split("/").slice(2).join("/")}"`,
        describe: RELEASE_LINE,
      });
    },
    async close() {
      spy.mockRestore();
      configure(undefined);
      resetClients();
      resetCurrentStack();
      resetReplacements();
      if (backendBefore === undefined) delete process.env.PULUMI_BACKEND_URL;
      else process.env.PULUMI_BACKEND_URL = backendBefore;
      resetBackendIdentity();
      await running.close();
    },
  };
}

/**
 * Inputs typed as a kind's checked inputs, for seeding the service directly through the kind's mapping
 * functions: what `checked` returned, or such a bag altered on purpose (another stack's decoy).
 */
export const asChecked = <C extends Record<string, unknown>>(inputs: Record<string, unknown>): C =>
  inputs as C;

/** Runs `check` and fails the test on any failure, as `pulumi up` would stop. */
export async function checked<C extends Record<string, unknown>>(
  p: { check: (olds: Record<string, unknown>, news: Record<string, unknown>) => Promise<CheckResult<C>> },
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
): Promise<C> {
  const { inputs, failures } = await p.check(olds, news);
  if (failures.length > 0) throw new Error(`unexpected check failures: ${JSON.stringify(failures)}`);
  return inputs;
}

/** Asserts that no value anywhere in `value` is `undefined` (outputs must be JSON-safe). */
export function expectJsonSafe(value: unknown, at = "outputs"): void {
  if (value === undefined) throw new Error(`${at} is undefined`);
  if (Array.isArray(value)) value.forEach((v, i) => expectJsonSafe(v, `${at}[${i}]`));
  else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) expectJsonSafe(v, `${at}.${k}`);
  }
}
