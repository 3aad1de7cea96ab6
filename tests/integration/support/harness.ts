/**
 * The harness of the integration tests: the service of tests/support/world.ts on an ephemeral loopback port,
 * the provider module configured against it through `configure` (as the engine does, with a static token or
 * OAuth2 client credentials), console output captured, the emulator's request log at hand to assert which
 * calls reached the service; REST clients and raw HTTP requests against it, and valid request bodies to start
 * from. The engine's run loop over it is `./engine.ts`.
 */
import { DEFAULT_DURATIONS, FAST_DURATIONS, type Durations, type Emulator } from "../../../emulator";
import { mulberry32 } from "../../../emulator/composition/faults";
import {
  configure,
  provider,
  retagObject,
  type KindName,
  type KindProvider,
  type RetagOutcome,
} from "../../../provider";
import {
  resetBackendIdentity,
  resetClients,
  resetCurrentStack,
  resetReplacements,
} from "../../../provider/common/context";
import type { CheckResult } from "../../../provider/common/arguments";
import type { Inputs } from "../../../provider/common/check";
import type { TaggedKind } from "../../../schemas/kinds";
import { VendorContainerClient, type ClientOptions } from "../../../rest/client";
import type { RetryPolicy } from "../../../rest/retry";
import { resolveSettings, type VendorSettings } from "../../../rest/settings";
import type { BackupInsert } from "../../../schemas/kaasBackup";
import type { KaasInsert, NodePoolRequest } from "../../../schemas/kaas";
import type { RegistryInsert } from "../../../schemas/registry";
import {
  API_PREFIX,
  CLIENT_ID,
  CLIENT_SECRET,
  LOCATION,
  PROJECT,
  TOKEN,
  startService,
  type ServiceOptions,
} from "../../support/world";
import { harnessWire } from "./wire";

export { CLIENT_ID, CLIENT_SECRET, LOCATION, PROJECT, TOKEN };
/**
 * The state backend the providers see (`PULUMI_BACKEND_URL`), so that creation tokens do not depend on the
 * machine's `pulumi login`; `backendIdentity` reduces it to itself.
 */
export const BACKEND = "file:///var/tmp/provider-harness";
/** The describe line of the program's release, as sdk/persisted.ts writes it. */
export const RELEASE_LINE = "the engine recorded the id: releasing the creation tag of";

/**
 * Durations of the harness's emulator: every operation completes within 50 ms of real time, so that
 * lifecycles driven by the providers or the REST client finish quickly. Tests that step the emulator's clock
 * themselves pass the service's durations (`DEFAULT_DURATIONS`) instead.
 */
export const DURATIONS: Durations = FAST_DURATIONS;
export { DEFAULT_DURATIONS };

/** A retry policy fast enough for tests: short backoff, `Retry-After` capped at 20 ms plus up to 5 ms. */
export const FAST_RETRY: RetryPolicy = {
  baseDelayMs: 5,
  maxDelayMs: 40,
  maxRetryAfterMs: 20,
  maxAttempts: 15,
  retryAfterJitterMs: 5,
};

/** Options of {@link startHarness}: the service's, and how the providers are configured against it. */
export interface HarnessOptions extends ServiceOptions {
  /** `token` (default) configures `vendor:token`; `clientCredentials` configures the OAuth2 exchange. */
  auth?: "token" | "clientCredentials";
  /** Extra or overriding stack configuration keys. */
  config?: Record<string, string>;
}

/** An emulator started for one test file, with the providers configured against it. */
export interface Harness {
  emulator: Emulator;
  url: string;
  /** URL of the provider prefix of `PROJECT`. */
  api: string;
  /** The stack configuration the providers read; changes apply to the next call. */
  config: Record<string, string>;
  /** A direct client, for setting up and inspecting the service like another user would. */
  client: VendorContainerClient;
  kind(name: KindName): KindProvider;
  /** Mutating requests (POST, PUT, DELETE) received since the last `clearRequests`. */
  mutating(): { method: string; path: string }[];
  /** Every line the providers printed (console.log, info, warn and error). */
  lines: string[];
  /** Every access token the token endpoint answered. */
  issuedTokens: string[];
  /** `POST <path>` of each create whose answer was lost (`loseFirstCreateAnswers`). */
  lostAnswers: string[];
  /**
   * What the program does once the engine has recorded the id of the object a create made (sdk/persisted.ts
   * `releaseWhenRecorded`): `retagObject` with the resource's outputs, owner the scope they name.
   */
  release(kind: TaggedKind, id: string, outs: Inputs): Promise<RetagOutcome>;
  close(): Promise<void>;
}

/**
 * Starts the service (tests/support/world.ts) with `DURATIONS` (the given durations over them) and the wire
 * readings of the jest project (support/wire.ts), and configures the providers against it as the engine's
 * `configure` does.
 */
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const { auth, config: extraConfig, ...serviceOptions } = options;
  const running = await startService({
    wire: harnessWire(),
    ...serviceOptions,
    durations: { ...DURATIONS, ...serviceOptions.durations },
  });
  const credentials: Record<string, string> =
    auth === "clientCredentials"
      ? {
          "vendor:clientId": CLIENT_ID,
          "vendor:clientSecret": CLIENT_SECRET,
          "vendor:tokenUrl": `${running.url}/oauth2/token`,
        }
      : { "vendor:token": TOKEN };
  const config: Record<string, string> = {
    "vendor:baseUrl": running.url,
    "vendor:projectId": PROJECT,
    "vendor:pollIntervalMs": "20",
    "vendor:requestTimeoutMs": "5000",
    "vendor:callDeadlineMs": "20000",
    ...credentials,
    ...extraConfig,
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
  const record = (...args: unknown[]) => {
    lines.push(args.map(String).join(" "));
  };
  const spies = (["log", "info", "warn", "error"] as const).map((method) =>
    jest.spyOn(console, method).mockImplementation(record),
  );
  const client = new VendorContainerClient(
    resolveSettings((key) => config[key]),
    { pollIntervalMs: 20 },
  );
  return {
    emulator: running.emulator,
    url: running.url,
    api: `${running.url}${API_PREFIX}`,
    config,
    client,
    kind: (name) => provider(name),
    mutating: () =>
      running.emulator
        .requests()
        .filter((r) => r.mutating)
        .map((r) => ({ method: r.method, path: r.path.replace(API_PREFIX, "") })),
    lines,
    issuedTokens: running.issuedTokens,
    lostAnswers: running.lostAnswers,
    release(kind, id, outs) {
      const scope = outs.creationScope as string;
      return retagObject(kind, client, outs, id, {
        owner: scope,
        what: `${kind} "${scope.split("/").slice(2).join("/")}"`,
        describe: RELEASE_LINE,
      });
    },
    async close() {
      spies.forEach((spy) => spy.mockRestore());
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

/** Client settings against `url` with the static token (or client credentials when `oauth` is set). */
export function clientSettings(url: string, oauth = false): VendorSettings {
  return {
    baseUrl: url,
    ...(oauth
      ? { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, tokenUrl: `${url}/oauth2/token` }
      : { token: TOKEN }),
    apiVersion: "1",
    providerNamespace: "Vendor.Container",
    pollIntervalMs: 50,
    requestTimeoutMs: 5_000,
    callDeadlineMs: 20_000,
    kubeconfigRefresh: "always",
  };
}

/** A REST client polling every 50 ms, retrying fast, with seeded jitter. */
export function makeClient(
  url: string,
  options: ClientOptions & { oauth?: boolean } = {},
): VendorContainerClient {
  const { oauth, ...rest } = options;
  return new VendorContainerClient(clientSettings(url, oauth), {
    pollIntervalMs: 50,
    retry: FAST_RETRY,
    random: mulberry32(7),
    ...rest,
  });
}

/** A raw HTTP answer. */
export interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON body, or undefined when the body is empty or not JSON. */
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** Sends one raw request; `token: null` omits the Authorization header. */
export async function raw(
  url: string,
  init: {
    method?: string;
    body?: unknown;
    rawBody?: string;
    token?: string | null;
    headers?: Record<string, string>;
  } = {},
): Promise<RawResponse> {
  const headers: Record<string, string> = { ...(init.headers ?? {}) };
  const token = init.token === undefined ? TOKEN : init.token;
  if (token !== null) headers.Authorization = `Bearer ${token}`;
  let body: string | undefined = init.rawBody;
  if (init.body !== undefined) body = JSON.stringify(init.body);
  if (body !== undefined) headers["Content-Type"] ??= "application/json";
  const response = await fetch(url, { method: init.method ?? "GET", headers, body });
  const text = await response.text();
  let json: unknown;
  try {
    json = text === "" ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** A valid node pool. */
export function pool(name = "default", overrides: Partial<NodePoolRequest> = {}): NodePoolRequest {
  return { name, nodes: 2, instance: "K2A4", dataCenter: "ITBG-1", ...overrides };
}

/** A valid cluster insert body. */
export function kaasBody(
  name = "prod",
  overrides: Partial<KaasInsert["properties"]> = {},
  tags?: string[],
): KaasInsert {
  return {
    metadata: { name, location: { value: LOCATION }, ...(tags ? { tags } : {}) },
    properties: {
      preset: true,
      nodeCidr: { address: "10.10.0.0/16", name: "nodes" },
      kubernetesVersion: { value: "1.32.5" },
      nodePools: [pool()],
      ...overrides,
    },
  };
}

/** A valid registry insert body. */
export function registryBody(name = "images"): RegistryInsert {
  return {
    metadata: { name, location: { value: LOCATION } },
    properties: {
      preset: true,
      adminUser: { username: "registry-admin" },
      billingPlan: { billingPeriod: "Month" },
      size: "Small",
    },
  };
}

/** A valid backup insert body. */
export function backupBody(name = "nightly"): BackupInsert {
  return {
    metadata: { name, location: { value: LOCATION } },
    properties: { billingPeriod: "Hour", type: "Full", retentionDays: 7 },
  };
}

/** Absolute deadline `ms` from now. */
export function within(ms = 10_000): number {
  return Date.now() + ms;
}

/**
 * Creates a cluster with a raw `POST /kaas` (expecting 201) and steps the emulator's clock past its creation,
 * so that it is `Active`; returns its id.
 */
export async function activeKaas(h: Harness, body: KaasInsert = kaasBody()): Promise<string> {
  const created = await raw(`${h.api}/kaas`, { method: "POST", body });
  expect(created.status).toBe(201);
  h.emulator.advanceClock(h.emulator.getConfig().durations.kaasCreateMs);
  return created.json.metadata.id;
}

/** The tags the service holds on an object, read through the harness's client. */
export async function liveTags(
  h: Harness,
  target: { kind: "Kaas" | "Registry"; id: string } | { kind: "KaasBackup"; kaasId: string; id: string },
): Promise<string[] | null | undefined> {
  const { client } = h;
  switch (target.kind) {
    case "Kaas":
      return (await client.call("getKaas", { projectId: PROJECT, id: target.id })).metadata.tags;
    case "Registry":
      return (await client.call("getRegistry", { projectId: PROJECT, id: target.id })).metadata.tags;
    case "KaasBackup":
      return (await client.call("getBackup", { projectId: PROJECT, kaasId: target.kaasId, id: target.id }))
        .metadata.tags;
  }
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
