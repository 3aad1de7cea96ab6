/**
 * Fault injection and rate limiting of the API routes. Real gateways answer 429, 5xx and drop connections
 * (api-notes "Errors": "401/403/409/429 are not declared but occur on real gateways"); the REST client must
 * survive all of them. Every random decision comes from one seeded generator, drawn in a fixed order per
 * request, so a run is reproducible from its seed. Faults never touch the control API or the token endpoint.
 */

import { kindNamesProjectFirst } from "../generic/kind";
import { byKind, isKindOf } from "../generic/tables";
import { KINDS, type Kind } from "../kinds";
import type { WireFieldError } from "../base/problems";
import { isProvisioningOutcome, type ProvisioningOutcome } from "../base/transitions";

export type { ProvisioningOutcome };

/** The kinds whose provisioning outcome can be chosen: every kind of the emulator (`kinds.ts`). */
export type ProvisionedKind = Kind;

/**
 * The kinds whose provisioning outcome can be chosen, in the order the configuration and its refusals name them
 * (`kaas, registry, backup`). Read from the list of kinds, which imports nothing of this module, so a new kind
 * is provisioned like the others without a line here.
 */
export const PROVISIONED_KINDS: readonly ProvisionedKind[] = kindNamesProjectFirst(KINDS);

/** Statuses that can be injected. */
export type InjectableStatus = 429 | 500 | 502 | 503 | 504;

/**
 * Statuses that can be answered after processing, instead of the real answer: the gateway statuses, which a
 * gateway in front of the service may answer whatever the service did (docs/wire.md "Errors"). 429 and 500 are not among
 * them: a rate limit is answered before processing, and a 500 comes from the service itself.
 */
export type AfterProcessingStatus = 502 | 503 | 504;

/** Token bucket: `ratePerSecond` tokens refill per second up to `burst`; each API request takes one. */
export interface RateLimit {
  ratePerSecond: number;
  burst: number;
}

/** Fault configuration. `PUT /_emulator/faults` replaces it whole (missing keys take the defaults) and reseeds. */
export interface FaultConfig {
  /** Seed of the fault generator. Default 1. */
  seed: number;
  /** Probability (0-1) of answering each status instead of processing; their sum must not exceed 1. Default none. */
  errorRates: Partial<Record<InjectableStatus, number>>;
  /** `Retry-After` (seconds) sent with injected 429 and 503 answers. Default 1. */
  retryAfterSeconds: number;
  /** Fixed latency added to every API request, ms. Default 0. */
  latencyMs: number;
  /** Extra latency drawn uniformly in [0, N) ms. Default 0. */
  latencyRandomMs: number;
  /** Probability that the connection is destroyed before the request is processed. Default 0. */
  dropRate: number;
  /**
   * Probability that the request is processed (a create creates) and then the connection is destroyed
   * without an answer: what makes a POST create ambiguous. Default 0.
   */
  dropAfterProcessingRate: number;
  /**
   * Probability (0-1) that the request is processed (a create creates) and then answered with each status
   * instead of its real answer, as a gateway that gives up after forwarding the request does: what makes a
   * POST create answered 5xx ambiguous. Injected 503s carry `Retry-After` like those of
   * `errorRates`. The same draw decides this and `dropAfterProcessingRate`, so the rates and
   * `dropAfterProcessingRate` together must not exceed 1. Default none.
   */
  errorAfterProcessingRates: Partial<Record<AfterProcessingStatus, number>>;
  /** Restricts faults to these methods (e.g. `["POST"]`); null applies them to every method. Default null. */
  methods: string[] | null;
  /** Token-bucket rate limit answering 429 with `Retry-After`; null disables it. Default null. */
  rateLimit: RateLimit | null;
  /** Provisioning outcome of new resources per kind. Default `ok` for all. */
  provisioning: Record<ProvisionedKind, ProvisioningOutcome>;
  /** `status.failureReason` of resources whose provisioning fails. */
  failureReason: string;
}

/** The default, fault-free configuration. */
export function defaultFaults(): FaultConfig {
  return {
    seed: 1,
    errorRates: {},
    retryAfterSeconds: 1,
    latencyMs: 0,
    latencyRandomMs: 0,
    dropRate: 0,
    dropAfterProcessingRate: 0,
    errorAfterProcessingRates: {},
    methods: null,
    rateLimit: null,
    provisioning: byKind<Record<ProvisionedKind, ProvisioningOutcome>>(
      KINDS,
      () => "ok",
      kindNamesProjectFirst(KINDS),
    ),
    failureReason: "Provisioning failed: insufficient capacity in the selected zone",
  };
}

/** mulberry32: a small, fast, seedable PRNG; returns floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What happens to one API request. */
export interface FaultDecision {
  latencyMs: number;
  dropBefore: boolean;
  /** Injected status, answered instead of processing. */
  status?: InjectableStatus;
  dropAfter: boolean;
  /** Injected status, answered after processing instead of the real answer. */
  statusAfter?: AfterProcessingStatus;
}

const INJECTABLE: InjectableStatus[] = [429, 500, 502, 503, 504];
const INJECTABLE_AFTER_PROCESSING: AfterProcessingStatus[] = [502, 503, 504];

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Checks a fault configuration; returns the problems as field errors (empty when valid). */
export function checkFaults(config: FaultConfig): WireFieldError[] {
  const problems: WireFieldError[] = [];
  const problem = (fieldName: string, errorMessage: string) => problems.push({ fieldName, errorMessage });
  const rate = (name: string, v: unknown) => {
    if (typeof v !== "number" || !(v >= 0 && v <= 1)) problem(name, "must be a number between 0 and 1");
  };
  let sum = 0;
  for (const [status, value] of Object.entries(config.errorRates ?? {})) {
    if (!INJECTABLE.some((injectable) => injectable === Number(status))) {
      problem(`errorRates.${status}`, `is not injectable (injectable: ${INJECTABLE.join(", ")})`);
    }
    rate(`errorRates.${status}`, value);
    sum += Number(value) || 0;
  }
  if (sum > 1) problem("errorRates", "must sum to at most 1");
  rate("dropRate", config.dropRate);
  rate("dropAfterProcessingRate", config.dropAfterProcessingRate);
  const afterRates: unknown = config.errorAfterProcessingRates ?? {};
  if (!isPlainObject(afterRates)) {
    problem("errorAfterProcessingRates", "must be an object of status to probability");
  } else {
    let afterSum = 0;
    for (const [status, value] of Object.entries(afterRates)) {
      if (!INJECTABLE_AFTER_PROCESSING.some((injectable) => injectable === Number(status))) {
        problem(
          `errorAfterProcessingRates.${status}`,
          `is not injectable after processing (injectable: ${INJECTABLE_AFTER_PROCESSING.join(", ")})`,
        );
      }
      rate(`errorAfterProcessingRates.${status}`, value);
      afterSum += Number(value) || 0;
    }
    // The tolerance lets rates such as 0.1, 0.2 and 0.7 sum to 1 despite binary floating point.
    const drop = config.dropAfterProcessingRate;
    if (afterSum > 1 + 1e-9) {
      problem("errorAfterProcessingRates", "must sum to at most 1");
    } else if (typeof drop === "number" && afterSum + drop > 1 + 1e-9) {
      // One draw decides both fates after processing (`FaultInjector.decide`); they cannot both happen.
      problem(
        "errorAfterProcessingRates",
        `must sum to at most 1 together with dropAfterProcessingRate (${drop})`,
      );
    }
  }
  for (const key of ["latencyMs", "latencyRandomMs", "retryAfterSeconds"] as const) {
    if (typeof config[key] !== "number" || config[key] < 0) problem(key, "must be a number >= 0");
  }
  if (!Number.isInteger(config.seed)) problem("seed", "must be an integer");
  if (config.rateLimit !== null) {
    const limit: Partial<RateLimit> = config.rateLimit ?? {};
    if (!((limit.ratePerSecond ?? NaN) > 0) || !((limit.burst ?? NaN) >= 1))
      problem("rateLimit", "needs ratePerSecond > 0 and burst >= 1");
  }
  for (const [kind, outcome] of Object.entries(config.provisioning ?? {})) {
    if (!isKindOf(KINDS, kind)) {
      problem(`provisioning.${kind}`, `is not a kind (kinds: ${PROVISIONED_KINDS.join(", ")})`);
    } else if (!isProvisioningOutcome(outcome)) {
      problem(`provisioning.${kind}`, "must be ok, stuck or fail");
    }
  }
  return problems;
}

/** Draws fault decisions and runs the token bucket. */
export class FaultInjector {
  private config: FaultConfig;
  private random: () => number;
  private tokens = 0;
  private refilledAt = 0;

  /** @param realNow real time for the token bucket: a clock jump must not refill it. */
  constructor(
    config: FaultConfig,
    private readonly realNow: () => number,
  ) {
    this.config = config;
    this.random = mulberry32(config.seed);
    this.resetBucket();
  }

  /** The current configuration (a copy). */
  get(): FaultConfig {
    return structuredClone(this.config);
  }

  /** Replaces the configuration and reseeds the generator and the bucket. */
  set(config: FaultConfig): void {
    this.config = structuredClone(config);
    this.random = mulberry32(config.seed);
    this.resetBucket();
  }

  private resetBucket(): void {
    this.tokens = this.config.rateLimit?.burst ?? 0;
    this.refilledAt = this.realNow();
  }

  /**
   * Decides the fate of one request. Four numbers are drawn per request whatever the configuration, so
   * the sequence of decisions depends only on the seed and the number of requests. The fourth decides what
   * happens after processing: below `dropAfterProcessingRate` the connection is dropped, in the next bands
   * (502, 503, 504 in that order, each as wide as its `errorAfterProcessingRates`) the status is answered
   * instead of the real answer. Sharing the draw keeps the decisions of every configuration without
   * `errorAfterProcessingRates` what they were before it existed, seed for seed.
   */
  decide(method: string): FaultDecision {
    const [rDrop, rStatus, rLatency, rDropAfter] = [
      this.random(),
      this.random(),
      this.random(),
      this.random(),
    ];
    const c = this.config;
    const applies = c.methods === null || c.methods.includes(method);
    const latencyMs = c.latencyMs + Math.floor(rLatency * c.latencyRandomMs);
    if (!applies) return { latencyMs: 0, dropBefore: false, dropAfter: false };
    let status: InjectableStatus | undefined;
    let edge = 0;
    for (const candidate of INJECTABLE) {
      edge += c.errorRates[candidate] ?? 0;
      if (rStatus < edge) {
        status = candidate;
        break;
      }
    }
    const dropAfter = rDropAfter < c.dropAfterProcessingRate;
    let statusAfter: AfterProcessingStatus | undefined;
    let afterEdge = c.dropAfterProcessingRate;
    for (const candidate of dropAfter ? [] : INJECTABLE_AFTER_PROCESSING) {
      afterEdge += c.errorAfterProcessingRates?.[candidate] ?? 0;
      if (rDropAfter < afterEdge) {
        statusAfter = candidate;
        break;
      }
    }
    return { latencyMs, dropBefore: rDrop < c.dropRate, status, dropAfter, statusAfter };
  }

  /** Takes one token; answers the `Retry-After` seconds when the bucket is empty, undefined when allowed. */
  takeToken(): number | undefined {
    const limit = this.config.rateLimit;
    if (!limit) return undefined;
    const now = this.realNow();
    this.tokens = Math.min(limit.burst, this.tokens + ((now - this.refilledAt) / 1000) * limit.ratePerSecond);
    this.refilledAt = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return undefined;
    }
    return Math.max(1, Math.ceil((1 - this.tokens) / limit.ratePerSecond));
  }

  /** Retry-After seconds of injected 429/503 answers, before or after processing. */
  get retryAfterSeconds(): number {
    return this.config.retryAfterSeconds;
  }

  /** Provisioning outcome of a new resource of `kind`. */
  provisioning(kind: ProvisionedKind): { outcome: ProvisioningOutcome; failureReason: string } {
    return { outcome: this.config.provisioning[kind] ?? "ok", failureReason: this.config.failureReason };
  }
}
