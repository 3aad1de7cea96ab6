/**
 * A local implementation of the Vendor.Container service for tests, examples and demos: every endpoint of the
 * spec, the asynchronous lifecycle on a movable clock, the service's rules, list queries, OAuth2 client
 * credentials, fault injection and a test-only control API under `/_emulator`.
 *
 * ```ts
 * const { url, emulator, close } = await startEmulator({ port: 0, durations: { kaasCreateMs: 200 } });
 * // ... point the REST client at `url` with token "emulator-token" ...
 * emulator.advanceClock(3_600_000);
 * await close();
 * ```
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createEmulator, type Emulator, type EmulatorOptions } from "./app";

export { createEmulator } from "./app";
export type {
  AttachmentTruth,
  Emulator,
  EmulatorOptions,
  EmulatorStateSnapshot,
  RequestLogEntry,
  ResourcePatch,
} from "./app";
export type { ClientCredentials } from "./auth";
export { EmulatorClock } from "./clock";
export {
  DEFAULT_CLUSTER_TYPE_LIMITS,
  DEFAULT_DURATIONS,
  DEFAULT_KUBERNETES_VERSIONS,
  DEFAULT_WIRE,
  FAST_DURATIONS,
  STRICT_WIRE,
  WIRE_CHOICES,
  defaultConfig,
  type ClusterType,
  type ClusterTypeLimits,
  type Durations,
  type EmulatorConfig,
  type EmulatorConfigInput,
  type InstanceSize,
  type KubernetesVersionInfo,
  type WireReadings,
} from "./config";
export { CONTROL_PREFIX } from "./control";
export {
  defaultFaults,
  mulberry32,
  type FaultConfig,
  type InjectableStatus,
  type ProvisioningOutcome,
  type ProvisionedKind,
  type RateLimit,
} from "./faults";
export { DEFAULT_LIMIT, MAX_LIMIT } from "./filter";
export { PROBLEMS, type ProblemBody, type ProblemCode, type WireFieldError } from "./problems";
export type { LifeState } from "./store";

/** Options of `startEmulator`: the emulator's options plus where to listen. */
export interface StartEmulatorOptions extends EmulatorOptions {
  /** TCP port; 0 (the default) picks a free one. */
  port?: number;
  /** Interface to bind. Default `127.0.0.1`. */
  host?: string;
}

/** A listening emulator. */
export interface RunningEmulator {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  url: string;
  port: number;
  emulator: Emulator;
  server: http.Server;
  /** Persists the state file, closes every connection and stops listening. */
  close(): Promise<void>;
}

/** Creates an emulator and listens; resolves once it accepts connections. */
export async function startEmulator(options: StartEmulatorOptions = {}): Promise<RunningEmulator> {
  const emulator = createEmulator(options);
  const server = http.createServer(emulator.handler);
  // Longer than the clients' idle keep-alive, so the server never closes a socket a client is about to reuse
  // (a reset there would make a POST create ambiguous for no reason).
  server.keepAliveTimeout = 65_000;
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(":") ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    emulator,
    server,
    close() {
      closing ??= new Promise<void>((resolve) => {
        emulator.persist();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
