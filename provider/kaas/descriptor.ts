/**
 * The Kaas kind, described once: its arguments (what a change does, how `check` validates them), its
 * computed outputs, its service calls and deadlines, and what only a cluster does (HA and version rules, the
 * update plan of cluster and node pools, the kubeconfig, adoption checks). `check`, `diff` and the provider
 * all derive from it.
 */
import type { KaasResponse } from "../../schemas";
import type { VendorContainerClient } from "../../rest/client";
import { stateClassOf } from "../../rest/waiter";
import type { Inputs } from "../common/check";
import { client, log } from "../common/context";
import { withBookkeeping } from "../common/arguments";
import { DescribedProvider, type KindDescriptor } from "../common/describedProvider";
import { sameValue } from "../common/diff";
import { subjectOf } from "../common/resource";
import { isUnknown } from "../common/unknown";
import {
  computedOutputs,
  importedKaasInputs,
  insertBody,
  liveInputs,
  livePools,
  nodePoolsChanged,
  updatePlan,
} from "./mapping";
import {
  HA_REFUSAL,
  KAAS_ARGUMENTS,
  KAAS_COMPUTED_KEYS,
  type CheckedKaasInputs,
  type KaasComputed,
} from "./types";
import { compareVersions, VERSION_PATTERN } from "../../schemas/versions";
import { stringOrNull } from "../common/typed";

const MINUTE = 60_000;

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
const previousKubeconfig = (previous: Inputs): string | null => stringOrNull(previous.kubeconfig);

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
  arguments: withBookkeeping(KAAS_ARGUMENTS),
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
  parents: [],
  importedInputs: importedKaasInputs,
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
