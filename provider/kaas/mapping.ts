/**
 * Translation between Kaas arguments and the wire: the insert body, the update plan, and the outputs and
 * refreshed inputs derived from a live cluster. Pure functions.
 */
import type {
  KaasInsert,
  KaasResponse,
  KaasUpdate,
  NodePoolRequest,
  NodePoolResponse,
  NodePoolUpdate,
} from "../../schemas";
import { sameValue } from "../common/diff";
import { containsUnknown } from "../common/unknown";
import { compact, jsonSafe } from "../common/outputs";
import { answeredBillingPeriod, liveBillingPeriod } from "../common/billing";
import type { Inputs } from "../common/check";
import type { ImportLookup } from "../common/kindDescriptor";
import { importedMetadata, insertMetadata, updateMetadata, withLiveNameAndTags } from "../common/resource";

export { creationTag } from "../common/resource";
import type { CheckedKaasInputs, KaasComputed, NodePoolArgs, NodePoolStatus } from "./types";
import { compareVersions } from "../../schemas/versions";

/** The names of the computed outputs (defined with the types, which the SDK class reads too). */
export { KAAS_COMPUTED_KEYS } from "./types";

/** A pool with defaults applied: `autoscaling` always set, the bounds `null` unless it autoscales. */
type NormalisedPool = Required<Omit<NodePoolArgs, "minCount" | "maxCount">> & {
  minCount: number | null;
  maxCount: number | null;
};

/** A pool with defaults applied, for order-insensitive comparison by name. */
function normalisePool(pool: NodePoolArgs): NormalisedPool {
  const autoscaling = pool.autoscaling === true;
  return {
    name: pool.name,
    nodes: pool.nodes,
    instance: pool.instance,
    dataCenter: pool.dataCenter,
    autoscaling,
    minCount: autoscaling ? (pool.minCount ?? null) : null,
    maxCount: autoscaling ? (pool.maxCount ?? null) : null,
  };
}

/**
 * Pools keyed by name with defaults applied. `diff` hands in the pools of the state and of the inputs as
 * they come (a list that `check` accepted, or the unknown placeholder in a preview, which has none).
 */
export function poolsByName(pools: unknown): Map<string, NormalisedPool> {
  const map = new Map<string, NormalisedPool>();
  if (!Array.isArray(pools)) return map;
  // A list `check` accepted: its items are node pools.
  for (const pool of pools as NodePoolArgs[]) map.set(pool.name, normalisePool(pool));
  return map;
}

/** True when the two pool lists differ, ignoring order. */
export function nodePoolsChanged(olds: unknown, news: unknown): boolean {
  if (containsUnknown(news)) return true;
  const a = poolsByName(olds);
  const b = poolsByName(news);
  if (a.size !== b.size) return true;
  for (const [name, pool] of b) {
    if (!a.has(name) || !sameValue(a.get(name), pool)) return true;
  }
  return false;
}

function poolRequest(pool: NodePoolArgs): NodePoolRequest {
  const autoscaling = pool.autoscaling === true;
  return compact({
    name: pool.name,
    nodes: pool.nodes,
    instance: pool.instance,
    dataCenter: pool.dataCenter,
    autoscaling,
    minCount: autoscaling ? pool.minCount : undefined,
    maxCount: autoscaling ? pool.maxCount : undefined,
  });
}

function accessProfile(inputs: CheckedKaasInputs) {
  if (inputs.authorizedIpRanges === undefined && inputs.enablePrivateCluster === undefined) return undefined;
  return compact({
    authorizedIpRanges: inputs.authorizedIpRanges ?? null,
    enablePrivateCluster: inputs.enablePrivateCluster ?? false,
  });
}

/** `POST .../kaas` body (spec §2.2). */
export function insertBody(inputs: CheckedKaasInputs): KaasInsert {
  const identity = inputs.identity;
  return {
    metadata: insertMetadata(inputs),
    properties: compact({
      preset: inputs.preset,
      vpc: inputs.vpcUri ? { uri: inputs.vpcUri } : undefined,
      subnet: inputs.subnetUri ? { uri: inputs.subnetUri } : undefined,
      nodeCidr: inputs.nodeCidr,
      podCidr: inputs.podCidr,
      securityGroup: inputs.securityGroupName ? { name: inputs.securityGroupName } : undefined,
      kubernetesVersion: { value: inputs.kubernetesVersion },
      nodePools: inputs.nodePools.map(poolRequest),
      ha: inputs.ha,
      storage:
        inputs.maxCumulativeVolumeSize !== undefined
          ? { maxCumulativeVolumeSize: inputs.maxCumulativeVolumeSize }
          : undefined,
      billingPlan: inputs.billingPeriod ? { billingPeriod: inputs.billingPeriod } : undefined,
      identity: identity
        ? compact({ clientId: identity.clientId, clientSecret: identity.clientSecret })
        : undefined,
      autoscalerProfile: inputs.autoscalerProfile,
      apiServerAccessProfile: accessProfile(inputs),
    }),
  };
}

/** One pool's partial update (`minNode/maxNode` on this endpoint, api-notes). */
export interface PoolUpdate {
  name: string;
  body: NodePoolUpdate;
}

/** What an update sends: at most one cluster PUT, then one PUT per resized pool. */
export interface UpdatePlan {
  cluster?: KaasUpdate;
  pools: PoolUpdate[];
}

/**
 * Plans an update from `olds` (inputs in state) to `news`. Only what changed is sent. Adding or removing a
 * pool, or moving one to another zone, sends the full pool list in the cluster update; a resize or
 * autoscaling change of a pool uses the node pool endpoint. `liveVersion` is the version running now,
 * `liveCounts` the current node count of each pool.
 */
export function updatePlan(
  olds: CheckedKaasInputs,
  news: CheckedKaasInputs,
  liveVersion: string | null,
  liveCounts: ReadonlyMap<string, number> = new Map(),
): UpdatePlan {
  const properties: KaasUpdate["properties"] = {};
  const changed = (key: keyof CheckedKaasInputs) => !sameValue(olds[key], news[key]);

  const version = news.kubernetesVersion;
  const versionAhead = liveVersion === null || compareVersions(version, liveVersion) > 0;
  if (versionAhead && (changed("kubernetesVersion") || changed("upgradeDate"))) {
    properties.kubernetesVersion = compact({
      value: version,
      upgradeDate: news.upgradeDate,
    });
  }
  if ((olds.ha === true) !== (news.ha === true)) properties.ha = news.ha === true;
  if (changed("maxCumulativeVolumeSize")) {
    properties.storage = {
      maxCumulativeVolumeSize: news.maxCumulativeVolumeSize ?? null,
    };
  }
  if (changed("billingPeriod") && news.billingPeriod)
    properties.billingPlan = { billingPeriod: news.billingPeriod };
  if (changed("authorizedIpRanges") || changed("enablePrivateCluster")) {
    properties.apiServerAccessProfile = {
      authorizedIpRanges: news.authorizedIpRanges ?? null,
      enablePrivateCluster: news.enablePrivateCluster ?? false,
    };
  }

  const before = poolsByName(olds.nodePools);
  const after = poolsByName(news.nodePools);
  const sameNames = before.size === after.size && [...after.keys()].every((n) => before.has(n));
  const zoneMoved = [...after].some(([n, p]) => before.has(n) && before.get(n)!.dataCenter !== p.dataCenter);
  const pools: PoolUpdate[] = [];
  if (!sameNames || zoneMoved) {
    // The full list also carries the pools that did not change: an autoscaling pool keeps the count the
    // autoscaler gave it (when within bounds and not resized by the user) instead of being reset.
    properties.nodePools = news.nodePools.map((pool) => {
      const live = liveCounts.get(pool.name);
      const untouched = before.get(pool.name)?.nodes === pool.nodes;
      const keepLive =
        pool.autoscaling === true &&
        untouched &&
        live !== undefined &&
        live >= (pool.minCount ?? 0) &&
        live <= (pool.maxCount ?? Number.MAX_SAFE_INTEGER);
      return poolRequest(keepLive ? { ...pool, nodes: live } : pool);
    });
  } else {
    for (const [name, pool] of after) {
      const old = before.get(name)!;
      if (sameValue(old, pool)) continue;
      const props: NodePoolUpdate["properties"] = {};
      if (old.instance !== pool.instance) props.instance = pool.instance;
      if (old.nodes !== pool.nodes) props.nodes = pool.nodes;
      if (old.autoscaling !== pool.autoscaling) props.autoscaling = pool.autoscaling;
      if (old.minCount !== pool.minCount || old.autoscaling !== pool.autoscaling)
        props.minNode = pool.minCount;
      if (old.maxCount !== pool.maxCount || old.autoscaling !== pool.autoscaling)
        props.maxNode = pool.maxCount;
      pools.push({ name, body: { properties: props } });
    }
  }

  const metadataChanged = changed("name") || changed("tags");
  const cluster =
    Object.keys(properties).length > 0 || metadataChanged
      ? {
          // Location is never changed; it is sent only when set (spec §9: never as an empty value).
          metadata: updateMetadata(news),
          properties,
        }
      : undefined;
  return { cluster, pools };
}

/** Pools of a response, from `nodePools` or the `nodesPool` spelling. */
export function livePools(response: KaasResponse): NodePoolResponse[] {
  return response.properties.nodePools ?? response.properties.nodesPool ?? [];
}

/** A pool's zone as answered: the code when there is one, else the name (possibly a display label). */
function answeredZone(pool: NodePoolResponse): { value: string; isCode: boolean } {
  const code = pool.dataCenter?.code ?? "";
  if (code !== "") return { value: code, isCode: true };
  return { value: pool.dataCenter?.name ?? "", isCode: false };
}

function poolStatus(pool: NodePoolResponse): NodePoolStatus {
  // Node ids are not read, even when an answer carries them: no published response does (api-notes "What
  // the published interface does not show"), so an output holding them would be empty against the service.
  return {
    name: pool.name,
    nodes: pool.nodes ?? 0,
    instance: pool.instance?.name ?? "",
    dataCenter: answeredZone(pool).value,
    autoscaling: pool.autoscaling === true,
    minCount: pool.minCount ?? null,
    maxCount: pool.maxCount ?? null,
  };
}

/**
 * The zone of a live pool as an input. A `{code}` answer is the zone itself and is taken, so a real zone change
 * shows as drift. A name-only answer (the published `DataCenterResponseDto` has only `name`) is not comparable
 * with the code the program declares: the interface does not say whether the name is the code or a display
 * label (`Bergamo 1` for `ITBG-1`). Taking the name would put a label into the inputs on refresh and make
 * the next `up` plan a zone move, which re-creates the pool's nodes. So a declared pool keeps its declared
 * zone whatever the name says (equal or not); nothing but this provider's own update moves a pool to
 * another zone, so no real drift is hidden. A pool the program does not declare (added out of band) takes
 * the name, the only value there is: the next `up` removes that pool and never sends its zone.
 */
function liveZone(pool: NodePoolResponse, declared: string | undefined): string {
  const zone = answeredZone(pool);
  if (declared === undefined) return zone.value;
  return zone.isCode ? zone.value : declared;
}

/** `status.failureReason`, else the message or reason of `status.error` (api-notes: both carry it). */
function failureReasonOf(response: KaasResponse): string | null {
  const status = response.status;
  const reason = [status?.failureReason, status?.error?.message, status?.error?.reason].find(
    (text): text is string => typeof text === "string" && text !== "",
  );
  return reason ?? null;
}

/** The computed outputs of a live cluster. */
export function computedOutputs(response: KaasResponse, kubeconfig: string | null): KaasComputed {
  const p = response.properties;
  const upgrade = p.kubernetesVersion?.upgradeTo;
  const typology = response.metadata.category?.typology;
  return jsonSafe({
    kaasId: response.metadata.id,
    uri: response.metadata.uri ?? null,
    state: response.status?.state ?? null,
    phase: response.data?.private?.phase?.name ?? null,
    managementIp: p.managementIp ?? null,
    currentKubernetesVersion: p.kubernetesVersion?.value ?? null,
    pendingUpgrade: upgrade?.value
      ? { version: upgrade.value, scheduledAt: upgrade.scheduledAt ?? null }
      : null,
    currentNodePools: livePools(response).map(poolStatus),
    securityGroupUri: p.securityGroup?.uri ?? null,
    nodeCidrUri: p.nodecidr?.uri ?? null,
    creationDate: response.metadata.creationDate ?? response.status?.creationDate ?? null,
    kubeconfig,
    currentVpcUri: p.vpc?.uri ?? null,
    currentSubnetUri: p.subnet?.uri ?? null,
    currentPodCidr: p.podcidr?.address ?? null,
    currentSecurityGroupName: p.securityGroup?.name ?? null,
    kubernetesVersionEndOfSupportDate: p.kubernetesVersion?.endOfSupportDate ?? null,
    kubernetesVersionRecommended: p.kubernetesVersion?.recommended ?? null,
    clusterType: typology?.name ?? typology?.id ?? null,
    disabledReasons: response.status?.disableStatusInfo?.reasons ?? [],
    failureReason: failureReasonOf(response),
  });
}

/**
 * The inputs as the live cluster has them, for refresh (`ReadResult.inputs`): arguments the service can
 * change out of band take the live value; create-only arguments keep the declared value. Three exceptions
 * keep the declared value so no perpetual diff appears: the version while an upgrade is scheduled or after
 * the platform upgraded on its own, the node count of an autoscaling pool moving within its bounds, and a
 * pool's zone answered by name only (see `liveZone`).
 */
export function liveInputs(declared: CheckedKaasInputs, response: KaasResponse): CheckedKaasInputs {
  const p = response.properties;
  const next = withLiveNameAndTags(declared, response.metadata);
  if (declared.ha !== undefined || p.ha === true) next.ha = p.ha === true;
  const cap = p.storage?.maxCumulativeVolumeSize ?? undefined;
  if (cap !== undefined || declared.maxCumulativeVolumeSize !== undefined) next.maxCumulativeVolumeSize = cap;
  const period = liveBillingPeriod(declared.billingPeriod, p.billingPlan?.billingPeriod);
  if (period !== undefined) next.billingPeriod = period;
  const ranges = p.apiServerAccessProfile?.authorizedIpRanges ?? undefined;
  if (ranges !== undefined || declared.authorizedIpRanges !== undefined)
    next.authorizedIpRanges = ranges ?? undefined;
  const privateCluster = p.apiServerAccessProfile?.enablePrivateCluster ?? undefined;
  if (declared.enablePrivateCluster !== undefined || privateCluster === true)
    next.enablePrivateCluster = privateCluster === true;

  const live = p.kubernetesVersion?.value ?? undefined;
  const pending = p.kubernetesVersion?.upgradeTo?.value ?? undefined;
  const want = declared.kubernetesVersion;
  if (live && want && !pending && compareVersions(live, want) < 0) next.kubernetesVersion = live;

  const declaredPools = poolsByName(declared.nodePools);
  // `poolsByName` defaults `autoscaling`, so whether it was declared is read from the raw pools.
  const declaredRaw = new Map(
    (Array.isArray(declared.nodePools) ? declared.nodePools : []).map((p) => [p.name, p]),
  );
  // Pools keep the declared order (the service's order is not meaningful), new ones follow.
  const order = (name: string) => {
    const i = [...declaredRaw.keys()].indexOf(name);
    return i === -1 ? Number.MAX_SAFE_INTEGER : i;
  };
  const pools = [...livePools(response)].sort((a, b) => order(a.name) - order(b.name));
  next.nodePools = pools.map((pool) => {
    const status = poolStatus(pool);
    const wanted = declaredPools.get(pool.name);
    const withinBounds =
      status.autoscaling &&
      status.minCount !== null &&
      status.maxCount !== null &&
      status.nodes >= status.minCount &&
      status.nodes <= status.maxCount;
    const nodes = withinBounds && wanted && wanted.autoscaling === true ? wanted.nodes : status.nodes;
    return compact({
      name: status.name,
      nodes,
      // A pool answered without its flavour or zone keeps the declared one rather than an empty string.
      instance: status.instance === "" && wanted ? wanted.instance : status.instance,
      dataCenter: liveZone(pool, wanted?.dataCenter),
      autoscaling:
        declaredRaw.get(pool.name)?.autoscaling === undefined && !status.autoscaling
          ? undefined
          : status.autoscaling,
      minCount: status.autoscaling ? (status.minCount ?? undefined) : undefined,
      maxCount: status.autoscaling ? (status.maxCount ?? undefined) : undefined,
    });
  });
  return jsonSafe(next);
}

/**
 * The arguments of a live cluster, for `pulumi import` (see `KindLifecycle.importedInputs`). The version is the
 * scheduled one with its date while an upgrade is pending, else the live one; the network is the answered VPC
 * and subnet, unless the service says it made them (`preset`), else `check`'s default (the service's network).
 * The identity is left out: the service answers its client id only, never the secret. The pools, HA, cap and
 * API server access are `liveInputs`' reading.
 */
export function importedKaasInputs(lookup: ImportLookup, response: KaasResponse): Inputs {
  const p = response.properties;
  const metadata = importedMetadata(lookup, response.metadata);
  const upgrade = p.kubernetesVersion?.upgradeTo;
  const scheduled = upgrade?.value ? upgrade : undefined;
  const version = scheduled?.value ?? p.kubernetesVersion?.value ?? undefined;
  const vpcUri = p.vpc?.uri ?? undefined;
  const subnetUri = p.subnet?.uri ?? undefined;
  const ownNetwork = p.preset !== true && vpcUri !== undefined && subnetUri !== undefined;
  const declared: CheckedKaasInputs = {
    ...metadata,
    name: metadata.name ?? "",
    location: metadata.location ?? "",
    creationToken: "",
    kubernetesVersion: version ?? "",
    nodeCidr: { address: "", name: "" },
    nodePools: [],
  };
  const { creationToken: _none, ...live } = liveInputs(declared, response);
  return jsonSafe(
    compact({
      ...live,
      name: metadata.name,
      location: metadata.location,
      kubernetesVersion: version,
      upgradeDate: scheduled?.scheduledAt ?? undefined,
      vpcUri: ownNetwork ? vpcUri : undefined,
      subnetUri: ownNetwork ? subnetUri : undefined,
      nodeCidr: p.nodecidr ? compact({ address: p.nodecidr.address, name: p.nodecidr.name }) : undefined,
      podCidr: p.podcidr?.address ?? undefined,
      securityGroupName: p.securityGroup?.name ?? undefined,
      billingPeriod: answeredBillingPeriod(p.billingPlan?.billingPeriod),
      autoscalerProfile: p.autoscalerProfile ?? undefined,
    }),
  );
}
