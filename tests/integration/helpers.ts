/**
 * Shared helpers of the integration tests: start an emulator on port 0 in-process, build a REST client against
 * it, send raw HTTP requests, and valid request bodies to start from.
 */
import { startEmulator, type RunningEmulator, type StartEmulatorOptions } from "../../emulator";
import { mulberry32 } from "../../emulator/composition/faults";
import { VendorContainerClient, type ClientOptions } from "../../rest/client";
import type { RetryPolicy } from "../../rest/retry";
import type { VendorSettings } from "../../rest/settings";
import type { BackupInsert } from "../../schemas/kaasBackup";
import type { KaasInsert, NodePoolRequest } from "../../schemas/kaas";
import type { RegistryInsert } from "../../schemas/registry";

/** Project id used by every test. */
export const PROJECT = "proj-1";
/** Static token accepted by the test emulators. */
export const TOKEN = "test-token";
/** OAuth2 client of the test emulators. */
export const CLIENT_ID = "ci-client";
export const CLIENT_SECRET = "ci-client-secret-0123456789";
/** Location of the test resources. */
export const LOCATION = "ITBG-Bergamo";

/** Short durations so client-driven lifecycles finish in well under a second. */
export const QUICK_DURATIONS = {
  kaasCreateMs: 150,
  kaasUpdateMs: 100,
  kaasDeleteMs: 100,
  registryCreateMs: 150,
  registryUpdateMs: 100,
  registryDeleteMs: 100,
  resetPasswordMs: 50,
  backupCreateMs: 100,
  backupUpdateMs: 50,
  backupDeleteMs: 100,
  attachMs: 50,
  detachMs: 50,
  tombstoneMs: 100,
};

/** A retry policy fast enough for tests: short backoff, `Retry-After` capped at 20 ms plus up to 5 ms. */
export const FAST_RETRY: RetryPolicy = {
  baseDelayMs: 5,
  maxDelayMs: 40,
  maxRetryAfterMs: 20,
  maxAttempts: 15,
  retryAfterJitterMs: 5,
};

/** An emulator started for one test file. */
export interface Harness {
  running: RunningEmulator;
  url: string;
  /** URL of the provider prefix of `PROJECT`. */
  api: string;
  close(): Promise<void>;
}

/** Starts an emulator on 127.0.0.1, port 0, with the test token and OAuth2 client. */
export async function startHarness(options: StartEmulatorOptions = {}): Promise<Harness> {
  const running = await startEmulator({
    port: 0,
    tokens: [TOKEN],
    clients: [{ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }],
    ...options,
  });
  return {
    running,
    url: running.url,
    api: `${running.url}/projects/${PROJECT}/providers/Vendor.Container`,
    close: () => running.close(),
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
