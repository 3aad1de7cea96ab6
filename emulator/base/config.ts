/**
 * Run-time configuration of the emulated service: durations of the asynchronous lifecycle (each kind declares
 * its own, `durations.ts`), the Kubernetes version catalogue, the per-cluster-type limits, instance sizes and
 * volume sizes. Everything here can be set at start (`EmulatorOptions`) and changed at run time
 * (`PUT /_emulator/config`, `updateConfig`).
 *
 * The real service takes 10-20 minutes to provision a cluster and 20-40 for a registry (api-notes
 * "Conventions on the wire"); the default durations are deliberately fast for tests.
 */
import { keysOf } from "../../schemas/typed";
import type { BaseDurations } from "./durations";
import { VERSION_PATTERN } from "./versions";

/** One admissible Kubernetes version (spec §2.8 "Kubernetes version catalogue entry", reduced). */
export interface KubernetesVersionInfo {
  /** Version string, e.g. `1.33.2`. */
  value: string;
  /** End of support, ISO date, or null. */
  endOfSupportDate: string | null;
  /** Whether the service recommends this version. */
  recommended: boolean;
}

/** Default admissible versions (api-notes "Known versions seen: 1.31.x to 1.34.x"). */
export const DEFAULT_KUBERNETES_VERSIONS: KubernetesVersionInfo[] = [
  { value: "1.31.9", endOfSupportDate: "2026-02-28T00:00:00.000Z", recommended: false },
  { value: "1.32.5", endOfSupportDate: "2026-06-30T00:00:00.000Z", recommended: false },
  { value: "1.33.2", endOfSupportDate: "2026-10-31T00:00:00.000Z", recommended: true },
  { value: "1.34.1", endOfSupportDate: "2027-02-28T00:00:00.000Z", recommended: false },
];

/**
 * Per-cluster-type limits (spec §2.8 "Cluster type configuration", §8). Null means "no limit". `minNode` and
 * `maxNode` bound the node count of each pool, and `minCount`/`maxCount` of autoscaling pools; the block
 * storage bounds apply to `storage.maxCumulativeVolumeSize` when set.
 */
export interface ClusterTypeLimits {
  minNodePool: number | null;
  maxNodePool: number | null;
  minNode: number | null;
  maxNode: number | null;
  /** Bounds the number of `apiServerAccessProfile.authorizedIpRanges`. */
  maxWhitelistCount: number | null;
  minClusterBlockStorageSize: number | null;
  maxClusterBlockStorageSize: number | null;
}

/** The cluster types: `ha` for clusters with `ha: true`, `standard` otherwise. */
export type ClusterType = "standard" | "ha";

/** Default limits of both cluster types. */
export const DEFAULT_CLUSTER_TYPE_LIMITS: ClusterTypeLimits = {
  minNodePool: 1,
  maxNodePool: 10,
  minNode: 1,
  maxNode: 50,
  maxWhitelistCount: 20,
  minClusterBlockStorageSize: 10,
  maxClusterBlockStorageSize: 10_000,
};

/** An instance size as the node pool response shows it (spec §2.8 "Instance size response"). */
export interface InstanceSize {
  cpu: string;
  ram: string;
  diskSizeGb: string;
  price: number;
}

/**
 * How the emulator answers where the service's published interface (the spec, the OpenAPI document and the
 * wire notes) leaves the behaviour open or says nothing. The defaults are the richest reading; `STRICT_WIRE`
 * is the published interface only. The provider must work under every combination.
 */
export interface WireReadings {
  /**
   * Where attached volumes show: `attachedVolumes` (a cluster property the published responses do not
   * have, with node and size; default), `linkedResources` (the published `metadata.linkedResources`, as
   * `{uri, strictCorrelation}`: the volume, not its node; the field is absent under the other readings), or
   * `hidden` (nothing shows them: attach and detach answer 202 and that is all). Under every reading the
   * emulator holds the attachments, applies the storage limit, refuses a second attach of a volume and
   * answers 404 to the detach of a volume that is not attached (`GET /_emulator/kaas/{id}/attachments`
   * shows the truth).
   */
  attachments: "attachedVolumes" | "linkedResources" | "hidden";
  /** Node ids of each pool in cluster responses: `shown` (default; not in the published responses) or `hidden`. */
  nodeIds: "shown" | "hidden";
  /**
   * The `errors` member of a 400 problem: `array` of `{fieldName, errorMessage}` (the wire notes' shape;
   * default), `map` of field name to messages (the ASP.NET shape), or `absent` (only `detail` carries it).
   */
  errors: "array" | "map" | "absent";
  /** A pool's `dataCenter` in responses: `code` (`{code, name}`; default) or `name` only, a display label. */
  dataCenter: "code" | "name";
  /**
   * The `filter` query parameter: `membership` (`eq` on an array field matches an element; default),
   * `whole` (`eq` on an array compares the whole array), `ignored` (every filter ignored), `refused` (any
   * filter answered 400).
   */
  filters: "membership" | "whole" | "ignored" | "refused";
  /**
   * A registry insert's `properties.vpc`, which real clients send (api-notes "Registry") and the published
   * insert body lacks: `accepted` (stored and answered; default) or `rejected` (400 naming `properties.vpc`,
   * as for any unknown property). Under both, a registry created with a subnet and no `vpc` reports the VPC
   * its subnet's URI lies under (`.../vpcs/{vpc}/subnets/{subnet}`), or none.
   */
  registryVpc: "accepted" | "rejected";
  /**
   * The node-level detach of a volume whose node is gone (its pool scaled down): `404` (default) or `400` with
   * a field error on `nodeId` (the published detach answers list only 400 and 500).
   */
  goneNode: "404" | "400";
  /**
   * The names `status.state` answers, which the published interface does not list: `service` (the names the
   * api-notes list, `InCreation`, `Active`...; default), `upper` (the same in capitals, `INCREATION`,
   * `ACTIVE`...) or `alternate` (another vocabulary: `Starting`, `Changing`, `Ready`, `Broken`, `Removing`,
   * `Removed` for creating, updating, active, failed, deleting, deleted). Only the rendering changes: the
   * emulator's lifecycle, refusals and problem texts keep its own names (render.ts `STATE_VOCABULARIES`).
   */
  states: "service" | "upper" | "alternate";
}

/** The default readings: the richest answers. */
export const DEFAULT_WIRE: WireReadings = {
  attachments: "attachedVolumes",
  nodeIds: "shown",
  errors: "array",
  dataCenter: "code",
  filters: "membership",
  registryVpc: "accepted",
  goneNode: "404",
  states: "service",
};

/**
 * The strictest readings: only what the published interface defines, filters refused, no field errors, no
 * registry `vpc` on insert, and a detach on a gone node answered with one of the listed statuses (400).
 */
export const STRICT_WIRE: WireReadings = {
  attachments: "hidden",
  nodeIds: "hidden",
  errors: "absent",
  dataCenter: "name",
  filters: "refused",
  registryVpc: "rejected",
  goneNode: "400",
  // The published interface lists no state names, so no vocabulary is stricter than another: strict keeps
  // the default one, which the other strict readings are tested with.
  states: "service",
};

/** Every admissible value of each reading, for validation and the command line. */
export const WIRE_CHOICES: { readonly [K in keyof WireReadings]: readonly WireReadings[K][] } = {
  attachments: ["attachedVolumes", "linkedResources", "hidden"],
  nodeIds: ["shown", "hidden"],
  errors: ["array", "map", "absent"],
  dataCenter: ["code", "name"],
  filters: ["membership", "whole", "ignored", "refused"],
  registryVpc: ["accepted", "rejected"],
  goneNode: ["404", "400"],
  states: ["service", "upper", "alternate"],
};

/**
 * The whole run-time configuration, over the durations `D` of the kinds that read it: the emulator's
 * (`EmulatorConfig`, of every kind of `kinds/index.ts`), or those of one kind module.
 */
export interface EmulatorConfigOf<D extends BaseDurations = BaseDurations> {
  /** Readings of what the published interface leaves open. Default `DEFAULT_WIRE`. */
  wire: WireReadings;
  /** Durations (milliseconds) of every asynchronous operation, measured on the emulator clock. */
  durations: D;
  /** Admissible versions; create and update refuse any other. */
  kubernetesVersions: KubernetesVersionInfo[];
  clusterTypes: Record<ClusterType, ClusterTypeLimits>;
  /** Size (GB) of each volume by URI; volumes not listed have `defaultVolumeSizeGb`. */
  volumeSizesGb: Record<string, number>;
  /** Size of a volume not in `volumeSizesGb`. Default 10. */
  defaultVolumeSizeGb: number;
  /**
   * Instance sizes by name, in addition to the `K<cpu>A<ramGb>` family (e.g. `K2A4`) that is always known
   * (api-notes: "`instance` is a flavour name such as `K2A4`"). Default empty.
   */
  instanceSizes: Record<string, InstanceSize>;
  /** Registry engine version reported with `loadEngineVersion=true`. Default `2.11.1`. */
  registryEngineVersion: string;
  /** Lifetime of OAuth2 access tokens, seconds. Default 3600 (api-notes: "about one hour"). */
  tokenTtlSeconds: number;
}

/** The keys of `EmulatorConfig`, in declaration order. */
export const CONFIG_KEYS: readonly (keyof EmulatorConfigOf)[] = [
  "wire",
  "durations",
  "kubernetesVersions",
  "clusterTypes",
  "volumeSizesGb",
  "defaultVolumeSizeGb",
  "instanceSizes",
  "registryEngineVersion",
  "tokenTtlSeconds",
];

/** Recursive partial used by `updateConfig` and the options. */
export type DeepPartial<T> = {
  [K in keyof T]?: T[K] extends unknown[] ? T[K] : T[K] extends object ? DeepPartial<T[K]> : T[K];
};

/** Configuration input over the durations `D`: versions may be given as plain strings. */
export type EmulatorConfigInputOf<D extends BaseDurations> = Omit<
  DeepPartial<EmulatorConfigOf<D>>,
  "kubernetesVersions"
> & {
  kubernetesVersions?: (string | KubernetesVersionInfo)[];
};

/** The default configuration, with `durations` (a copy is kept). */
export function defaultConfigOf<D extends BaseDurations>(durations: D): EmulatorConfigOf<D> {
  return {
    wire: { ...DEFAULT_WIRE },
    durations: { ...durations },
    kubernetesVersions: DEFAULT_KUBERNETES_VERSIONS.map((v) => ({ ...v })),
    clusterTypes: { standard: { ...DEFAULT_CLUSTER_TYPE_LIMITS }, ha: { ...DEFAULT_CLUSTER_TYPE_LIMITS } },
    volumeSizesGb: {},
    defaultVolumeSizeGb: 10,
    instanceSizes: {},
    registryEngineVersion: "2.11.1",
    tokenTtlSeconds: 3600,
  };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Deep merge of plain objects; arrays and scalars of `patch` replace. Returns a new object. */
// Typed as `base`: a patch is a partial of the configuration it merges into (checked afterwards by
// `checkConfig`). The signature says so once; the body works on untyped values.
export function deepMerge<T>(base: T, patch: unknown): T;
export function deepMerge(base: unknown, patch: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(patch)) return patch === undefined ? base : patch;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    out[key] = isPlainObject(out[key]) && isPlainObject(value) ? deepMerge(out[key], value) : value;
  }
  return out;
}

/** JSON merge patch (RFC 7396): null deletes a key, objects merge, anything else replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return patch;
  const out: Record<string, unknown> = isPlainObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = mergePatch(out[key], value);
  }
  return out;
}

/** Applies `input` to `base`, normalising version strings to catalogue entries. */
export function mergeConfig<D extends BaseDurations>(
  base: EmulatorConfigOf<D>,
  input: NoInfer<EmulatorConfigInputOf<D>> | undefined,
): EmulatorConfigOf<D> {
  if (!input) return base;
  const { kubernetesVersions, ...rest } = input;
  const merged = deepMerge(base, rest);
  if (kubernetesVersions) {
    merged.kubernetesVersions = kubernetesVersions.map((v) =>
      typeof v === "string" ? { value: v, endOfSupportDate: null, recommended: false } : { ...v },
    );
  }
  return merged;
}

/** The name of every wire reading, in the order of `WIRE_CHOICES`. */
export function wireReadingNames(): (keyof WireReadings)[] {
  // `WIRE_CHOICES` is keyed by the readings of `WireReadings` and nothing else (its type says so).
  return keysOf(WIRE_CHOICES);
}

/**
 * Problems of a configuration (after a merge): the durations `durationNames` and the sizes are numbers >= 0,
 * versions are `major.minor` or `major.minor.patch`.
 */
export function checkConfig<D extends BaseDurations>(
  config: EmulatorConfigOf<D>,
  durationNames: readonly (keyof D & string)[],
): { fieldName: string; errorMessage: string }[] {
  const problems: { fieldName: string; errorMessage: string }[] = [];
  const nonNegative = (fieldName: string, value: unknown) => {
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
      problems.push({ fieldName, errorMessage: "must be a number >= 0" });
    }
  };
  for (const key of wireReadingNames()) {
    const choices: readonly string[] = WIRE_CHOICES[key];
    if (!choices.includes(config.wire[key])) {
      problems.push({ fieldName: `wire.${key}`, errorMessage: `must be one of ${choices.join(", ")}` });
    }
  }
  for (const key of durationNames) {
    nonNegative(`durations.${key}`, config.durations[key]);
  }
  for (const [uri, size] of Object.entries(config.volumeSizesGb)) nonNegative(`volumeSizesGb.${uri}`, size);
  nonNegative("defaultVolumeSizeGb", config.defaultVolumeSizeGb);
  nonNegative("tokenTtlSeconds", config.tokenTtlSeconds);
  if (!Array.isArray(config.kubernetesVersions) || config.kubernetesVersions.length === 0) {
    problems.push({ fieldName: "kubernetesVersions", errorMessage: "must list at least one version" });
  } else {
    config.kubernetesVersions.forEach((v, i) => {
      if (typeof v?.value !== "string" || v.value === "") {
        problems.push({
          fieldName: `kubernetesVersions[${i}]`,
          errorMessage: "must be a version string or {value}",
        });
      } else if (!VERSION_PATTERN.test(v.value)) {
        // The emulator orders versions (downgrades, upgrades) as the provider does, which only orders these.
        problems.push({
          fieldName: `kubernetesVersions[${i}]`,
          errorMessage: `"${v.value}" is not major.minor or major.minor.patch`,
        });
      }
    });
  }
  return problems;
}

/** The instance size named `name`, or undefined when the service does not know it. */
export function instanceSizeOf(config: EmulatorConfigOf, name: string): InstanceSize | undefined {
  const extra = config.instanceSizes[name];
  if (extra) return extra;
  const match = /^K(\d{1,3})A(\d{1,4})$/.exec(name);
  if (!match) return undefined;
  const cpu = Number(match[1]);
  const ram = Number(match[2]);
  if (cpu < 1 || ram < 1) return undefined;
  // A plausible hourly price: the emulator needs a number, not a tariff.
  const price = Math.round((cpu * 0.012 + ram * 0.004) * 10_000) / 10_000;
  return { cpu: String(cpu), ram: String(ram), diskSizeGb: "40", price };
}
