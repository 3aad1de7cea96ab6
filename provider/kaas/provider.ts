/**
 * The Kaas provider: check, diff, create, read, update, delete. Loaded lazily in the provider process by
 * the serialized shell (sdk/shell.ts); nothing here is ever serialized into state.
 */
import type { KaasResponse } from "../../schemas";
import type { VendorContainerClient } from "../../rest/client";
import { isNotFound, isVendorApiError } from "../../rest/errors";
import { TRANSITIONAL_STATES, type WaitVerdict } from "../../rest/waiter";
import { durationMs, type CheckFailure, type Inputs } from "../common/check";
import { client, defaultProjectId, log } from "../common/context";
import { partialFailure } from "../common/failure";
import { jsonSafe } from "../common/outputs";
import { checkKaas } from "./check";
import { diffKaas } from "./diff";
import { compareVersions } from "./version";
import {
  KAAS_COMPUTED_KEYS,
  computedOutputs,
  creationTag,
  insertBody,
  liveInputs,
  updatePlan,
} from "./mapping";

const MINUTE = 60_000;
const DEFAULT_TIMEOUTS = { create: 40 * MINUTE, update: 40 * MINUTE, delete: 30 * MINUTE };

/** `Kaas "prod"`: how progress lines and errors name the resource. */
export function subjectOf(inputs: Inputs): string {
  const scope = typeof inputs.creationScope === "string" ? inputs.creationScope.split("/").pop() : undefined;
  return `Kaas "${scope ?? inputs.name ?? "?"}"`;
}

function deadline(inputs: Inputs, op: keyof typeof DEFAULT_TIMEOUTS): number {
  const t = (inputs.timeouts ?? {}) as Record<string, unknown>;
  return Date.now() + durationMs(t[op], DEFAULT_TIMEOUTS[op]);
}

/** Only the arguments of a state object (drops computed outputs and `__provider`). */
export function inputsOf(state: Inputs): Inputs {
  const out: Inputs = {};
  for (const [k, v] of Object.entries(state)) {
    if (k !== "__provider" && !(KAAS_COMPUTED_KEYS as string[]).includes(k)) out[k] = v;
  }
  return out;
}

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

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
      const live = await this.settle(api, projectId, id, what, until);
      let current = live;
      if (inputs.adoptId) {
        // Converge an adopted cluster's updatable arguments on the declared ones.
        current = await this.apply(api, liveInputs(inputs, live), inputs, live, what, until);
      }
      return { id, outs: await this.outputs(api, inputs, current, null) };
    } catch (error) {
      const known = await api.findKaas(projectId, id).catch(() => undefined);
      const props = jsonSafe({ ...inputsOf(inputs), ...computedOutputs(known ?? cluster, null) });
      throw partialFailure(
        id,
        props,
        inputs,
        `${what} (${id}) was created but is not ready: ${errorText(error)}`,
      );
    }
  }

  /** Finds a cluster created earlier with the same creation token (an interrupted create), if any. */
  private async findByCreationToken(
    api: VendorContainerClient,
    inputs: Inputs,
  ): Promise<KaasResponse | undefined> {
    const tag = creationTag(inputs);
    for await (const cluster of api.iterateKaas(inputs.projectId as string, {
      filter: `metadata.tags:eq("${tag}")`,
    })) {
      const state = cluster.status?.state ?? "";
      if ((cluster.metadata.tags ?? []).includes(tag) && state !== "Deleting" && state !== "Deleted")
        return cluster;
    }
    return undefined;
  }

  /**
   * Idempotent create (Kaas issue): look the creation token up first; POST; when the POST's fate is
   * unknown (timeout, dropped connection, gateway error), look again before sending it again.
   */
  private async createOnce(
    api: VendorContainerClient,
    inputs: Inputs,
    what: string,
    until: number,
  ): Promise<KaasResponse> {
    const existing = await this.findByCreationToken(api, inputs);
    if (existing) {
      log(what, `resuming the creation of ${existing.metadata.id} started by an earlier run`);
      return existing;
    }
    for (let attempt = 1; ; attempt++) {
      try {
        const created = await api.createKaas(inputs.projectId as string, insertBody(inputs));
        log(what, `creation accepted as ${created.metadata.id}`);
        return created;
      } catch (error) {
        if (!isVendorApiError(error) || !error.ambiguous || Date.now() > until || attempt >= 5) throw error;
        log(what, `the create request's outcome is unknown (${error.message}); checking before retrying`);
        const found = await this.findByCreationToken(api, inputs);
        if (found) return found;
      }
    }
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
  ): Promise<KaasResponse> {
    return api.waitUntilSettled(() => api.findKaas(projectId, id), {
      what: `${what} (${id})`,
      path: `/kaas/${id}`,
      deadline: until,
      onProgress: (line) => log(what, line),
    });
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
    const plan = updatePlan(olds, news, live.properties.kubernetesVersion?.value ?? null);
    let current = live;
    if (plan.cluster) {
      log(what, `updating ${Object.keys(plan.cluster.properties).concat("metadata").join(", ")}`);
      await api.updateKaas(projectId, id, plan.cluster);
      current = await this.settle(api, projectId, id, what, until);
    }
    for (const pool of plan.pools) {
      log(what, `updating node pool ${pool.name}`);
      await api.updateNodePool(projectId, id, pool.name, pool.body);
      current = await this.settle(api, projectId, id, what, until);
    }
    return current;
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
      if (isNotFound(error))
        throw new Error(`${what} (${id}) no longer exists: run \`pulumi refresh\` to drop it from the stack`);
      const known = await api.findKaas(projectId, id).catch(() => undefined);
      // Keep the old inputs so the next up shows and retries the change.
      const props = jsonSafe({
        ...olds,
        ...(known ? computedOutputs(known, (olds.kubeconfig as string) ?? null) : {}),
        __provider: undefined,
      });
      throw partialFailure(id, props, news, `${what} (${id}) update did not complete: ${errorText(error)}`);
    }
  }

  async read(id: string, props: Inputs): Promise<{ id: string; props: Inputs; inputs: Inputs }> {
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
    return { id, props: outs, inputs };
  }

  async delete(id: string, props: Inputs): Promise<void> {
    const api = this.api();
    const projectId = props.projectId as string;
    const what = subjectOf(props);
    const until = deadline(props, "delete");
    const live = await api.findKaas(projectId, id);
    if (!live) return;
    if (TRANSITIONAL_STATES.has(live.status?.state ?? "") && live.status?.state !== "Deleting") {
      // The service refuses a DELETE while the cluster is busy: wait for it to settle (or fail) first.
      await api.waitUntilSettled(() => api.findKaas(projectId, id), {
        what: `${what} (${id})`,
        path: `/kaas/${id}`,
        deadline: until,
        onProgress: (line) => log(what, line),
        judge: (t): WaitVerdict =>
          TRANSITIONAL_STATES.has(t.status?.state ?? "")
            ? { kind: "pending", state: t.status?.state ?? "" }
            : { kind: "done" },
      });
    }
    if (live.status?.state !== "Deleting") {
      try {
        await api.deleteKaas(projectId, id, { deleteOnCascade: props.deleteOnCascade === true });
        log(
          what,
          `deletion of ${id} accepted${props.deleteOnCascade === true ? " (with its elastic IPs)" : ""}`,
        );
      } catch (error) {
        if (isNotFound(error)) return;
        throw error;
      }
    }
    await api.waitUntilGone(() => api.findKaas(projectId, id), {
      what: `${what} (${id})`,
      path: `/kaas/${id}`,
      deadline: until,
      onProgress: (line) => log(what, line),
    });
  }
}
