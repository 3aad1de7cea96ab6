/**
 * The Kaas provider: check, diff, create, read, update, delete. Loaded lazily in the provider process by
 * the serialized shell (sdk/shell.ts); nothing here is ever serialized into state.
 */
import type { KaasResponse } from "../../schemas";
import type { VendorContainerClient } from "../../rest/client";
import type { CheckFailure, Inputs } from "../common/check";
import { client, defaultProjectId, log } from "../common/context";
import { createFailure, updateFailure } from "../common/failure";
import {
  createIdempotently,
  isUncertain,
  deleteAndWait,
  findCreated,
  isTransitional,
  waitSettled,
} from "../common/lifecycle";
import { jsonSafe } from "../common/outputs";
import { checkKaas } from "./check";
import { diffKaas } from "./diff";
import { compareVersions } from "./version";
import {
  KAAS_COMPUTED_KEYS,
  computedOutputs,
  insertBody,
  liveInputs,
  livePools,
  updatePlan,
} from "./mapping";
import {
  creationTag,
  deadlineOf,
  inputsOf as splitInputs,
  subjectOf as subject,
  refreshedInputs,
} from "../common/resource";

const MINUTE = 60_000;
/** Plans of one update: the first, and one more after each request whose outcome was unknown. */
const MAX_UPDATE_ROUNDS = 3;
const DEFAULT_TIMEOUTS = { create: 40 * MINUTE, update: 40 * MINUTE, delete: 30 * MINUTE };

/** `Kaas "prod"`: how progress lines and errors name the resource. */
export const subjectOf = (inputs: Inputs): string => subject("Kaas", inputs);

const deadline = (inputs: Inputs, op: "create" | "update" | "delete"): number =>
  deadlineOf(inputs, op, DEFAULT_TIMEOUTS);

/** Only the arguments of a state object (drops computed outputs and `__provider`). */
export const inputsOf = (state: Inputs): Inputs => splitInputs(state, KAAS_COMPUTED_KEYS);

export class KaasProvider {
  constructor(private readonly api: () => VendorContainerClient = client) {}

  async check(olds: Inputs, news: Inputs): Promise<{ inputs: Inputs; failures: CheckFailure[] }> {
    return checkKaas(olds, news, { now: Date.now(), defaultProjectId: defaultProjectId() });
  }

  async diff(_id: string, olds: Inputs, news: Inputs) {
    const result = diffKaas(olds, news);
    return { changes: result.changes, replaces: result.replaces, deleteBeforeReplace: false };
  }

  async create(inputs: Inputs): Promise<{ id: string; outs: Inputs }> {
    const api = this.api();
    const projectId = inputs.projectId as string;
    const what = subjectOf(inputs);
    const until = deadline(inputs, "create");
    let cluster: KaasResponse;
    if (typeof inputs.adoptId === "string" && inputs.adoptId !== "") {
      cluster = await this.adopt(api, inputs, what);
    } else {
      cluster = await this.createOnce(api, inputs, what, until);
    }
    const id = cluster.metadata.id;
    try {
      const live = await this.settle(api, projectId, id, what, until, isTransitional(cluster));
      let current = live;
      if (inputs.adoptId) {
        // Converge an adopted cluster's updatable arguments on the declared ones.
        current = await this.apply(api, liveInputs(inputs, live), inputs, live, what, until);
      }
      return { id, outs: await this.outputs(api, inputs, current, null) };
    } catch (error) {
      throw await createFailure(error, {
        what,
        id,
        inputs,
        declared: inputsOf(inputs),
        created: cluster,
        find: () => api.findKaas(projectId, id),
        computed: (known) => computedOutputs(known, null),
      });
    }
  }

  /** Idempotent create: finds a cluster created earlier with the same creation token before POSTing. */
  private createOnce(
    api: VendorContainerClient,
    inputs: Inputs,
    what: string,
    until: number,
  ): Promise<KaasResponse> {
    const projectId = inputs.projectId as string;
    const tag = creationTag(inputs);
    return createIdempotently({
      what,
      until,
      lookup: () =>
        findCreated({
          what,
          api,
          list: (filter) => api.iterateKaas(projectId, { filter }),
          tag,
          name: inputs.name as string,
        }),
      post: () => api.createKaas(projectId, insertBody(inputs)),
    });
  }

  /** Adopts `adoptId` after verifying that the create-only arguments match the live cluster. */
  private async adopt(api: VendorContainerClient, inputs: Inputs, what: string): Promise<KaasResponse> {
    const id = inputs.adoptId as string;
    const live = await api.findKaas(inputs.projectId as string, id);
    if (!live) throw new Error(`${what}: adoptId ${id}: no such cluster in project ${inputs.projectId}`);
    const p = live.properties;
    const declared = inputs.nodeCidr as { address?: string; name?: string } | undefined;
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

  /** Waits until the cluster is settled, or fails with the service's reason. */
  private settle(
    api: VendorContainerClient,
    projectId: string,
    id: string,
    what: string,
    until: number,
    afterMutation = false,
  ): Promise<KaasResponse> {
    return waitSettled(api, () => api.findKaas(projectId, id), what, id, `/kaas/${id}`, until, afterMutation);
  }

  /** Sends the planned update from `olds` to `news` and waits after each step. Returns the live cluster. */
  private async apply(
    api: VendorContainerClient,
    olds: Inputs,
    news: Inputs,
    live: KaasResponse,
    what: string,
    until: number,
  ): Promise<KaasResponse> {
    const projectId = news.projectId as string;
    const id = live.metadata.id;
    let view = olds;
    let current = live;
    for (let round = 1; ; round++) {
      const counts = new Map(livePools(current).map((pool) => [pool.name, pool.nodes ?? 0]));
      const plan = updatePlan(view, news, current.properties.kubernetesVersion?.value ?? null, counts);
      if (!plan.cluster && plan.pools.length === 0) return current;
      try {
        if (plan.cluster) {
          log(what, `updating ${Object.keys(plan.cluster.properties).concat("metadata").join(", ")}`);
          await api.updateKaas(projectId, id, plan.cluster);
          current = await this.settle(api, projectId, id, what, until, true);
        }
        for (const pool of plan.pools) {
          log(what, `updating node pool ${pool.name}`);
          await api.updateNodePool(projectId, id, pool.name, pool.body);
          current = await this.settle(api, projectId, id, what, until, true);
        }
        return current;
      } catch (error) {
        // A request whose answer was lost may have been applied (its retry then meets a busy cluster): wait
        // for the cluster to settle and plan again from what it has now, instead of sending blindly again.
        if (!isUncertain(error) || round >= MAX_UPDATE_ROUNDS) throw error;
        log(
          what,
          `the update's outcome is unknown (${(error as Error).message}); planning again from the live cluster`,
        );
        current = await this.settle(api, projectId, id, what, until);
        view = liveInputs(news, current);
      }
    }
  }

  /** Full outputs: the inputs, the computed values, and the kubeconfig (kept when unchanged). */
  private async outputs(
    api: VendorContainerClient,
    inputs: Inputs,
    live: KaasResponse,
    previous: string | null,
  ): Promise<Inputs> {
    let kubeconfig = previous;
    if (live.status?.state === "Active" || live.status?.state === "Running") {
      try {
        kubeconfig = await api.downloadKubeconfig(inputs.projectId as string, live.metadata.id);
      } catch (error) {
        if (previous === null) throw error;
      }
    }
    const computed = computedOutputs(live, kubeconfig);
    if (computed.currentKubernetesVersion && inputs.kubernetesVersion && !computed.pendingUpgrade) {
      const declared = inputs.kubernetesVersion as string;
      if (compareVersions(computed.currentKubernetesVersion, declared) > 0) {
        log(
          subjectOf(inputs),
          `runs Kubernetes ${computed.currentKubernetesVersion}, above the declared ${declared} (upgraded by the platform); it is not downgraded`,
        );
      }
    }
    return jsonSafe({ ...inputsOf(inputs), ...computed });
  }

  async update(id: string, olds: Inputs, news: Inputs): Promise<{ outs: Inputs }> {
    const api = this.api();
    const projectId = news.projectId as string;
    const what = subjectOf(news);
    const until = deadline(news, "update");
    try {
      // Resume first: after a partial failure the engine calls update even without changes.
      let live = await this.settle(api, projectId, id, what, until);
      live = await this.apply(api, inputsOf(olds), news, live, what, until);
      return { outs: await this.outputs(api, news, live, (olds.kubeconfig as string | null) ?? null) };
    } catch (error) {
      throw await updateFailure(error, {
        what,
        id,
        olds,
        news,
        find: () => api.findKaas(projectId, id),
        computed: (known) => computedOutputs(known, (olds.kubeconfig as string | null) ?? null),
      });
    }
  }

  async read(id: string, props: Inputs): Promise<{ id: string; props: Inputs; inputs?: Inputs }> {
    const api = this.api();
    const declared = inputsOf(props);
    const projectId = (declared.projectId as string) ?? defaultProjectId();
    const live = await api.findKaas(projectId, id);
    if (!live) {
      log(subjectOf(declared), `cluster ${id} no longer exists`);
      return { id: "", props: {}, inputs: {} };
    }
    const inputs = liveInputs(declared, live);
    const outs = await this.outputs(api, inputs, live, (props.kubeconfig as string | null) ?? null);
    return { id, props: outs, inputs: refreshedInputs(declared, inputs) };
  }

  async delete(id: string, props: Inputs): Promise<void> {
    const api = this.api();
    const projectId = props.projectId as string;
    const cascade = props.deleteOnCascade === true;
    await deleteAndWait(api, {
      what: subjectOf(props),
      id,
      path: `/kaas/${id}`,
      until: deadline(props, "delete"),
      find: () => api.findKaas(projectId, id),
      remove: () => api.deleteKaas(projectId, id, { deleteOnCascade: cascade }),
      accepted: `deletion of ${id} accepted${cascade ? " (with its elastic IPs)" : ""}`,
    });
  }
}
