/**
 * The Kaas kind, described once: its arguments (what a change does, how `check` validates them), its
 * computed outputs, its service calls and deadlines, and what only a cluster does (HA and version rules, the
 * update plan of cluster and node pools, the kubeconfig, adoption checks). `check`, `diff` and the provider
 * all derive from it.
 */
import type { KaasResponse } from "../../schemas";
import type { VendorContainerClient } from "../../rest/client";
import { stateClassOf } from "../../rest/waiter";
import { isPrivateCidr, parseCidr, PRIVATE_RANGES } from "../common/cidr";
import {
  bool,
  futureDate,
  int,
  obj,
  rejectUnknownProperties,
  str,
  strArray,
  type Inputs,
  type Problems,
} from "../common/check";
import { client, log } from "../common/context";
import type { DeclaredLimits } from "../common/limits";
import {
  aBoolean,
  aString,
  metadataCheck,
  networkCheck,
  oneOfValues,
  projectIdCheck,
  timeoutsCheck,
  type ArgumentName,
  type ArgumentTable,
} from "../common/arguments";
import { DescribedProvider, type KindDescriptor } from "../common/describedProvider";
import { sameValue } from "../common/diff";
import { subjectOf } from "../common/resource";
import { isUnknown } from "../common/unknown";
import { computedOutputs, insertBody, liveInputs, livePools, nodePoolsChanged, updatePlan } from "./mapping";
import { KAAS_COMPUTED_KEYS, type CheckedKaasInputs, type KaasComputed, type KaasInputs } from "./types";
import { declaredLimitsProblems, KAAS_DECLARED_LIMITS, withinDeclaredLimits } from "./limits";
import { compareVersions, VERSION_PATTERN } from "./version";

const MINUTE = 60_000;

const POOL_NAME = /^[a-z0-9]([-a-z0-9]{0,38}[a-z0-9])?$/;
const POOL_KEYS = ["name", "nodes", "instance", "dataCenter", "autoscaling", "minCount", "maxCount"];

function cidr(value: string, property: string, problems: Problems, privateOnly: boolean): void {
  if (!parseCidr(value)) {
    problems.add(property, `must be an IPv4 CIDR like 10.0.0.0/16, got "${value}"`);
  } else if (privateOnly && !isPrivateCidr(value)) {
    problems.add(property, `must lie within ${PRIVATE_RANGES.join(", ")}, got "${value}"`);
  }
}

function checkNodePools(value: unknown, problems: Problems, limits: DeclaredLimits | undefined): void {
  // The first rule that reads the declared limits reports a setting that cannot be read, once.
  declaredLimitsProblems(limits, problems);
  if (value === undefined || value === null) {
    problems.add("nodePools", "is required: at least one node pool");
    return;
  }
  if (isUnknown(value)) return;
  if (!Array.isArray(value)) {
    problems.add("nodePools", "must be a list of node pools");
    return;
  }
  if (value.length === 0) problems.add("nodePools", "must have at least one node pool");
  else withinDeclaredLimits(value.length, "nodePools", KAAS_DECLARED_LIMITS.nodePools, limits, problems);
  const seen = new Set<string>();
  value.forEach((item, i) => {
    const at = `nodePools[${i}]`;
    const pool = obj(item, at, problems, { required: true });
    if (!pool) return;
    rejectUnknownProperties(pool, POOL_KEYS, problems, `${at}.`);
    const name = str(pool.name, `${at}.name`, problems, {
      required: true,
      pattern: POOL_NAME,
      patternHint:
        "must be 1-40 lower-case letters, digits or '-', starting and ending with a letter or digit",
    });
    if (name !== undefined) {
      if (seen.has(name)) problems.add(`${at}.name`, `duplicates the pool name "${name}"`);
      seen.add(name);
    }
    const nodes = int(pool.nodes, `${at}.nodes`, problems, { required: true, min: 0, max: 1000 });
    str(pool.instance, `${at}.instance`, problems, { required: true });
    str(pool.dataCenter, `${at}.dataCenter`, problems, { required: true });
    const autoscaling = bool(pool.autoscaling, `${at}.autoscaling`, problems);
    const min = int(pool.minCount, `${at}.minCount`, problems, { min: 0, max: 1000 });
    const max = int(pool.maxCount, `${at}.maxCount`, problems, { min: 1, max: 1000 });
    const poolNodes = KAAS_DECLARED_LIMITS.poolNodes;
    if (nodes !== undefined) withinDeclaredLimits(nodes, `${at}.nodes`, poolNodes, limits, problems);
    if (autoscaling === true) {
      if (min !== undefined) withinDeclaredLimits(min, `${at}.minCount`, poolNodes, limits, problems);
      if (max !== undefined) withinDeclaredLimits(max, `${at}.maxCount`, poolNodes, limits, problems);
      if (pool.minCount === undefined || pool.minCount === null)
        problems.add(`${at}.minCount`, "is required when autoscaling is true");
      if (pool.maxCount === undefined || pool.maxCount === null)
        problems.add(`${at}.maxCount`, "is required when autoscaling is true");
      if (min !== undefined && max !== undefined && min > max) {
        problems.add(`${at}.minCount`, `must not exceed maxCount (${min} > ${max})`);
      } else if (
        nodes !== undefined &&
        min !== undefined &&
        max !== undefined &&
        (nodes < min || nodes > max)
      ) {
        problems.add(
          `${at}.nodes`,
          `must lie within minCount..maxCount (${min}..${max}) when autoscaling, got ${nodes}`,
        );
      }
    } else if (!isUnknown(pool.autoscaling)) {
      for (const key of ["minCount", "maxCount"]) {
        // An unknown bound (preview) is not validated: it may resolve to nothing.
        if (pool[key] !== undefined && pool[key] !== null && !isUnknown(pool[key]))
          problems.add(`${at}.${key}`, "only applies when autoscaling is true");
      }
      if (nodes === 0) problems.add(`${at}.nodes`, "must be at least 1 for a pool that does not autoscale");
    }
  });
}

const HA_REFUSAL =
  "cannot be disabled: the service cannot turn high availability off once enabled, and replacing the cluster would destroy it; keep ha: true";

/**
 * Every argument a Kaas accepts, plus the internal `creationScope` set by the SDK class. `ignore` rows are
 * either bookkeeping (`adoptId`, `creationScope`, `creationToken`) or compared by the bespoke rules of
 * `kaasExtraChanges` (`ha`, `kubernetesVersion`, `nodePools`). Create-only fields of the service (api-notes
 * "KaaS": preset, vpc, subnet, nodeCidr, podCidr, securityGroup, identity, autoscalerProfile, and location)
 * replace.
 */
export const KAAS_ARGUMENT_RULES = {
  projectId: { change: "replace", check: projectIdCheck },
  // `metadataCheck` checks name, location and tags together.
  name: { change: "update", check: metadataCheck },
  location: { change: "replace" },
  tags: { change: "update" },
  // `networkCheck` checks preset, vpcUri and subnetUri together: the service's network or an existing one.
  preset: { change: "replace", check: networkCheck },
  vpcUri: { change: "replace" },
  subnetUri: { change: "replace" },
  nodeCidr: {
    change: "replace",
    check(value, property, { problems }) {
      const nodeCidr = obj(value, property, problems, { required: true });
      if (!nodeCidr) return;
      rejectUnknownProperties(nodeCidr, ["address", "name"], problems, "nodeCidr.");
      const address = str(nodeCidr.address, "nodeCidr.address", problems, { required: true });
      if (address !== undefined) cidr(address, "nodeCidr.address", problems, true);
      str(nodeCidr.name, "nodeCidr.name", problems, { required: true });
    },
  },
  podCidr: {
    change: "replace",
    check(value, property, { problems }) {
      const podCidr = str(value, property, problems);
      if (podCidr !== undefined) cidr(podCidr, property, problems, false);
    },
  },
  securityGroupName: { change: "replace", check: aString() },
  kubernetesVersion: {
    change: "ignore",
    check(value, property, { olds, problems }) {
      const version = str(value, property, problems, {
        required: true,
        pattern: VERSION_PATTERN,
        patternHint: "must be a version like 1.33.2",
      });
      const oldVersion = typeof olds.kubernetesVersion === "string" ? olds.kubernetesVersion : undefined;
      if (
        version !== undefined &&
        oldVersion !== undefined &&
        VERSION_PATTERN.test(oldVersion) &&
        compareVersions(version, oldVersion) < 0
      ) {
        problems.add(
          property,
          `cannot go down from ${oldVersion} to ${version}: the service does not downgrade clusters`,
        );
      }
    },
  },
  upgradeDate: {
    change: "update",
    check(value, property, { olds, news, problems, context }) {
      // The date must be in the future only when it is going to be sent: set or changed, or with a new version.
      const upgradeChanged = value !== olds.upgradeDate || news.kubernetesVersion !== olds.kubernetesVersion;
      if (value === undefined || value === null) return;
      if (upgradeChanged) futureDate(value, property, problems, context.now ?? Date.now());
      else str(value, property, problems);
    },
  },
  nodePools: {
    change: "ignore",
    check: (value, _property, { problems, context }) => checkNodePools(value, problems, context.limits),
  },
  ha: {
    change: "ignore",
    check(value, property, { olds, problems }) {
      const ha = bool(value, property, problems);
      if (olds.ha === true && ha !== true && !isUnknown(value)) problems.add(property, HA_REFUSAL);
    },
  },
  maxCumulativeVolumeSize: {
    change: "update",
    check(value, property, { problems, context }) {
      const size = int(value, property, problems, { min: 1 });
      const rule = KAAS_DECLARED_LIMITS.maxCumulativeVolumeSize;
      if (size !== undefined) withinDeclaredLimits(size, property, rule, context.limits, problems);
    },
  },
  billingPeriod: { change: "update", check: oneOfValues(["Hour", "Month", "Year"]) },
  identity: {
    change: "replace",
    check(value, property, { problems }) {
      const identity = obj(value, property, problems);
      if (!identity) return;
      rejectUnknownProperties(identity, ["clientId", "clientSecret"], problems, "identity.");
      str(identity.clientId, "identity.clientId", problems);
      str(identity.clientSecret, "identity.clientSecret", problems);
    },
  },
  authorizedIpRanges: {
    change: "update",
    check(value, property, { problems, context }) {
      const ranges = strArray(value, property, problems, (range, at) => cidr(range, at, problems, false));
      const rule = KAAS_DECLARED_LIMITS.authorizedIpRanges;
      if (ranges) withinDeclaredLimits(ranges.length, property, rule, context.limits, problems);
    },
  },
  enablePrivateCluster: { change: "update", check: aBoolean },
  autoscalerProfile: { change: "replace" },
  deleteOnCascade: { change: "update", check: aBoolean },
  timeouts: { change: "update", check: timeoutsCheck },
  adoptId: { change: "ignore", check: aString() },
  adoptFromScope: { change: "ignore", check: aString() },
  creationScope: { change: "ignore", check: aString() },
  creationToken: { change: "ignore" },
} satisfies ArgumentTable<ArgumentName<KaasInputs>>;

/** Thrown by `diff` for a change the service cannot make and that must not become a replacement. */
export class RefusedChange extends Error {
  constructor(
    readonly property: string,
    reason: string,
  ) {
    super(`${property}: ${reason}`);
    this.name = "RefusedChange";
  }
}

/**
 * The arguments the table ignores but the bespoke rules find changed: HA (`false -> true` in place, the
 * reverse refused), the version (a lower one than the live version refused), the node pools (by name).
 */
export function kaasExtraChanges(olds: Inputs, news: Inputs): string[] {
  const extra: string[] = [];

  // HA: false -> true is in place; true -> false is refused (spec §8: HA cannot be turned off).
  if (isUnknown(news.ha)) extra.push("ha");
  else if ((olds.ha === true) !== (news.ha === true)) {
    if (olds.ha === true) throw new RefusedChange("ha", HA_REFUSAL);
    extra.push("ha");
  }

  // Version: compared with the declared version in state; a lower version than the live one is refused.
  const declared = news.kubernetesVersion;
  if (isUnknown(declared)) extra.push("kubernetesVersion");
  else if (typeof declared === "string" && declared !== olds.kubernetesVersion) {
    const live =
      typeof olds.currentKubernetesVersion === "string"
        ? olds.currentKubernetesVersion
        : olds.kubernetesVersion;
    if (typeof live === "string" && VERSION_PATTERN.test(live) && compareVersions(declared, live) < 0) {
      throw new RefusedChange(
        "kubernetesVersion",
        `cannot go down from ${live} to ${declared}: the service does not downgrade clusters`,
      );
    }
    // A declared version the platform already reached on its own needs no call, but the new input is recorded.
    extra.push("kubernetesVersion");
  }

  if (nodePoolsChanged(olds.nodePools, news.nodePools)) extra.push("nodePools");
  return extra;
}

/** Adopts `adoptId` after verifying that the create-only arguments match the live cluster. */
async function adoptCluster(
  api: VendorContainerClient,
  inputs: CheckedKaasInputs,
  id: string,
  what: string,
): Promise<KaasResponse> {
  const live = await api.find("getKaas", { projectId: inputs.projectId, id });
  if (!live) throw new Error(`${what}: adoptId ${id}: no such cluster in project ${inputs.projectId}`);
  const p = live.properties;
  const declared = inputs.nodeCidr;
  const mismatches: string[] = [];
  const compare = (property: string, want: unknown, have: unknown) => {
    if (want !== undefined && have !== undefined && have !== null && want !== have) {
      mismatches.push(`${property}: declared ${JSON.stringify(want)}, live ${JSON.stringify(have)}`);
    }
  };
  compare("location", inputs.location, live.metadata.location?.value ?? live.metadata.location?.code);
  compare("nodeCidr.address", declared?.address, p.nodecidr?.address);
  compare("nodeCidr.name", declared?.name, p.nodecidr?.name);
  compare("podCidr", inputs.podCidr, p.podcidr?.address);
  compare("securityGroupName", inputs.securityGroupName, p.securityGroup?.name);
  compare("vpcUri", inputs.vpcUri, p.vpc?.uri);
  compare("subnetUri", inputs.subnetUri, p.subnet?.uri);
  if (inputs.ha !== true && p.ha === true)
    mismatches.push("ha: declared false, live true (HA cannot be disabled)");
  if (mismatches.length > 0) {
    throw new Error(
      `${what}: cannot adopt ${id}, its create-only arguments differ: ${mismatches.join("; ")}`,
    );
  }
  log(what, `adopting existing cluster ${id}`);
  return live;
}

/** The kubeconfig of the state (`null` on create), kept when a new one cannot be read. */
const previousKubeconfig = (previous: Inputs): string | null =>
  (previous.kubeconfig as string | null) ?? null;

/**
 * Whether the state `previous` already holds a kubeconfig and every computed output of `known` (the live
 * cluster's, with the state's kubeconfig): nothing the service shows of the cluster (endpoint, version, state,
 * pools...) changed since the state was written.
 */
function unchangedSince(previous: Inputs, known: KaasComputed): boolean {
  return known.kubeconfig !== null && KAAS_COMPUTED_KEYS.every((key) => sameValue(previous[key], known[key]));
}

/** The Kaas kind. */
export const KAAS: KindDescriptor<KaasResponse, CheckedKaasInputs> = {
  kind: "Kaas",
  noun: "cluster",
  arguments: KAAS_ARGUMENT_RULES,
  computed: KAAS_COMPUTED_KEYS,
  timeouts: { create: 40 * MINUTE, update: 40 * MINUTE, delete: 30 * MINUTE },
  calls: {
    path: (api, _inputs, id) => api.pathOf("getKaas", { id }),
    find: (api, inputs, id) => api.find("getKaas", { projectId: inputs.projectId, id }),
    list: (api, inputs) => (filter, onUnreadable) =>
      api.iterate("listKaas", { projectId: inputs.projectId }, { filter, onUnreadable }),
    create: (api, inputs) => api.call("createKaas", { projectId: inputs.projectId }, insertBody(inputs)),
    remove: (api, inputs, id) =>
      api.call("deleteKaas", { projectId: inputs.projectId, id }, undefined, {
        deleteOnCascade: inputs.deleteOnCascade === true,
      }),
    updateMetadata: (api, inputs, id, metadata) =>
      api.call("updateKaas", { projectId: inputs.projectId, id }, { metadata, properties: {} }),
  },
  extraChanges: kaasExtraChanges,
  planAgainWhenUncertain: true,
  adopt: adoptCluster,
  liveInputs,
  plan(olds, news, live) {
    const projectId = news.projectId;
    const id = live.metadata.id;
    const counts = new Map(livePools(live).map((pool) => [pool.name, pool.nodes ?? 0]));
    const plan = updatePlan(olds, news, live.properties.kubernetesVersion?.value ?? null, counts);
    const { cluster } = plan;
    return [
      ...(cluster
        ? [
            {
              describe: `updating ${Object.keys(cluster.properties).concat("metadata").join(", ")}`,
              send: (api: VendorContainerClient) => api.call("updateKaas", { projectId, id }, cluster),
            },
          ]
        : []),
      ...plan.pools.map((pool) => ({
        describe: `updating node pool ${pool.name}`,
        send: (api: VendorContainerClient) =>
          api.call("updateNodePool", { projectId, id, pool: pool.name }, pool.body),
      })),
    ];
  },
  computedOf: (live, previous) => computedOutputs(live, previousKubeconfig(previous)),
  /**
   * The computed values with the kubeconfig, downloaded while the cluster is settled (the state's is kept
   * when the download fails); under `vendor:kubeconfigRefresh: onChange` only when the cluster changed.
   */
  async outputs({ api, inputs, live, previous }) {
    const before = previousKubeconfig(previous);
    // The computed values with the state's kubeconfig, replaced below when a new one is downloaded.
    let computed = computedOutputs(live, before);
    // Any settled state, in any spelling the client knows (`ACTIVE`, or a name of `vendor:stateNames`).
    const settled = stateClassOf(live.status?.state, api.stateNames) === "settled";
    if (settled && !(api.kubeconfigRefresh === "onChange" && unchangedSince(previous, computed))) {
      try {
        computed = {
          ...computed,
          kubeconfig: await api.downloadKubeconfig(inputs.projectId, live.metadata.id),
        };
      } catch (error) {
        if (before === null) throw error;
      }
    }
    if (computed.currentKubernetesVersion && inputs.kubernetesVersion && !computed.pendingUpgrade) {
      const declared = inputs.kubernetesVersion;
      if (compareVersions(computed.currentKubernetesVersion, declared) > 0) {
        log(
          subjectOf("Kaas", inputs),
          `runs Kubernetes ${computed.currentKubernetesVersion}, above the declared ${declared} (upgraded by the platform); it is not downgraded`,
        );
      }
    }
    return computed;
  },
  deleteAccepted: (props, id) =>
    `deletion of ${id} accepted${props.deleteOnCascade === true ? " (with its elastic IPs)" : ""}`,
};

/**
 * The Kaas provider: check, diff, create, read, update, delete. Loaded lazily in the provider process by the
 * serialized shell (sdk/shell.ts); nothing here is ever serialized into state.
 */
export class KaasProvider extends DescribedProvider<KaasResponse, CheckedKaasInputs> {
  constructor(api: () => VendorContainerClient = client) {
    super(KAAS, api);
  }
}
