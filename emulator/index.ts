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
export { createEmulator } from "./transport/app";
export type {
  AttachmentTruth,
  Emulator,
  EmulatorOptions,
  EmulatorStateSnapshot,
  HoldSpec,
  HoldStage,
  HoldStatus,
  RequestHold,
  RequestLogEntry,
  ResourcePatch,
  SeedRequest,
  SeedResult,
} from "./transport/app";
export type { ClientCredentials } from "./base/auth";
export { EmulatorClock } from "./base/clock";
export {
  DEFAULT_CLUSTER_TYPE_LIMITS,
  DEFAULT_KUBERNETES_VERSIONS,
  DEFAULT_WIRE,
  STRICT_WIRE,
  WIRE_CHOICES,
  type ClusterType,
  type ClusterTypeLimits,
  type InstanceSize,
  type KubernetesVersionInfo,
  type WireReadings,
} from "./base/config";
export { DEFAULT_DURATIONS, FAST_DURATIONS, defaultConfig } from "./composition/config";
export type { Durations, EmulatorConfig, EmulatorConfigInput } from "./kinds";
export { CONTROL_PREFIX } from "./transport/control";
export {
  defaultFaults,
  mulberry32,
  type AfterProcessingStatus,
  type FaultConfig,
  type InjectableStatus,
  type ProvisioningOutcome,
  type ProvisionedKind,
  type RateLimit,
} from "./composition/faults";
export { DEFAULT_LIMIT, MAX_LIMIT } from "./base/filter";
export { PROBLEMS, type ProblemBody, type ProblemCode, type WireFieldError } from "./base/problems";
export { MAX_SEED_COUNT, SEED_LOCATION } from "./composition/seed";
export { startEmulator, type RunningEmulator, type StartEmulatorOptions } from "./transport/server";
export type { LifeState } from "./base/record";
