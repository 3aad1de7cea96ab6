/**
 * The parts of one emulator, built from its options: state store, movable clock, service (configuration and
 * rules), fault injector, token issuer, request log and holds. The request pipeline (`pipeline.ts`), the control
 * operations (`operations.ts`) and the app (`app.ts`) all work on these parts.
 */
import { TokenIssuer, type ClientCredentials } from "../base/auth";
import { EmulatorClock } from "../base/clock";
import { CONFIG_KEYS, mergeConfig } from "../base/config";
import { checkEmulatorConfig, defaultConfig } from "./config";
import { FaultInjector, checkFaults, defaultFaults, type FaultConfig } from "./faults";
import { Holds } from "../base/holds";
import {
  KINDS,
  type EmulatorConfig,
  type EmulatorConfigInput,
  type EmulatorService,
  type EmulatorStore,
} from "../kinds";
import { RequestLog } from "../base/requests";
import { Service } from "../generic/service";
import { Store } from "../generic/store";

/** Options of `createEmulator`; every field is optional. Configuration fields are those of `EmulatorConfig`. */
export interface EmulatorOptions extends EmulatorConfigInput {
  /** Provider namespace path segment. Default `Vendor.Container` (api-notes: keep it a setting). */
  namespace?: string;
  /** Accepted static bearer tokens. Default `["emulator-token"]`. */
  tokens?: string[];
  /** OAuth2 clients of `POST /oauth2/token`. Default one client `emulator-client` / `emulator-secret`. */
  clients?: ClientCredentials[];
  /**
   * JSON state file: loaded at start when it exists, rewritten after each mutation. Default none (memory only).
   * Issued OAuth2 tokens are not persisted: after a restart clients get a 401 and fetch a new token.
   */
  stateFile?: string;
  /** Seed of the derived secrets (issued tokens, kubeconfig tokens) and the default fault seed. Default 1. */
  seed?: number;
  /** Initial fault configuration. Default no faults. */
  faults?: Partial<FaultConfig>;
  /** Source of real time (the clock adds its offset). Default `Date.now`. */
  realNow?: () => number;
  /** Number of request log entries kept (oldest dropped first). Default 10000. */
  requestLogLimit?: number;
}

/** The parts of one emulator. */
export interface EmulatorCore {
  readonly namespace: string;
  /** Seed of derived secrets and of the default fault configuration. */
  readonly seed: number;
  readonly store: EmulatorStore;
  readonly clock: EmulatorClock;
  readonly faults: FaultInjector;
  readonly svc: EmulatorService;
  readonly issuer: TokenIssuer;
  readonly log: RequestLog;
  /** Holds of the control API on API requests. */
  readonly holds: Holds;
  /** The configuration of the options (what a reset returns to), fresh on each call. */
  initialConfig(): EmulatorConfig;
  /** The fault configuration of the options (what a reset returns to), fresh on each call. */
  initialFaults(): FaultConfig;
  /** Writes the state file (no-op without one). */
  persist(): void;
}

/** The configuration fields of the options (the rest are start-up settings, not configuration). */
function configInputOf(options: EmulatorOptions): EmulatorConfigInput {
  const input: Record<string, unknown> = {};
  for (const key of CONFIG_KEYS) if (options[key] !== undefined) input[key] = structuredClone(options[key]);
  return input;
}

/** Builds the parts of an emulator; throws on options that fail the checks of the control API. */
export function createCore(options: EmulatorOptions): EmulatorCore {
  const namespace = options.namespace ?? "Vendor.Container";
  const seed = options.seed ?? 1;
  const realNow = options.realNow ?? Date.now;
  const initialConfig = () => mergeConfig(defaultConfig(), configInputOf(options));
  const initialFaults = (): FaultConfig => ({ ...defaultFaults(), seed, ...(options.faults ?? {}) });

  // Options are checked like control API input: a bad start-up configuration fails loudly, here.
  const startProblems = [...checkEmulatorConfig(initialConfig()), ...checkFaults(initialFaults())];
  if (startProblems.length > 0) {
    throw new Error(
      `invalid emulator options: ${startProblems.map((p) => `${p.fieldName}: ${p.errorMessage}`).join("; ")}`,
    );
  }
  const store: EmulatorStore = new Store(KINDS, options.stateFile);
  const clock = new EmulatorClock(realNow, store.loadedClockOffsetMs);
  const faults = new FaultInjector(initialFaults(), realNow);
  const svc = new Service(store, clock, initialConfig(), faults, namespace, seed);
  const issuer = new TokenIssuer(
    new Set((options.tokens ?? ["emulator-token"]).map((t) => t.trim())),
    options.clients ?? [{ clientId: "emulator-client", clientSecret: "emulator-secret" }],
    seed,
  );
  return {
    namespace,
    seed,
    store,
    clock,
    faults,
    svc,
    issuer,
    log: new RequestLog(options.requestLogLimit ?? 10_000),
    holds: new Holds(),
    initialConfig,
    initialFaults,
    persist: () => store.persist(clock.offsetMs),
  };
}
