/** The Registry provider. Loaded lazily in the provider process; never serialized. */
import type { RegistryResponse } from "../../schemas";
import type { VendorContainerClient } from "../../rest/client";
import type { CheckFailure, Inputs } from "../common/check";
import { client, defaultProjectId, log } from "../common/context";
import { sameValue } from "../common/diff";
import { createFailure, updateFailure } from "../common/failure";
import {
  createIdempotently,
  isUncertain,
  deleteAndWait,
  filterLiteral,
  findCreated,
  isTransitional,
  listNarrowed,
  waitSettled,
} from "../common/lifecycle";
import { jsonSafe } from "../common/outputs";
import {
  creationTag,
  deadlineOf,
  inputsOf as splitInputs,
  subjectOf as subject,
  refreshedInputs,
} from "../common/resource";
import { checkRegistry } from "./check";
import { diffRegistry } from "./diff";
import {
  REGISTRY_COMPUTED_KEYS,
  registryComputed,
  registryInsertBody,
  registryLiveInputs,
  registryUpdateBody,
} from "./mapping";

const MINUTE = 60_000;
// Real registries take 20-40 minutes to provision (api-notes).
const DEFAULT_TIMEOUTS = { create: 60 * MINUTE, update: 30 * MINUTE, delete: 30 * MINUTE };
const subjectOf = (inputs: Inputs) => subject("Registry", inputs);
const inputsOf = (state: Inputs) => splitInputs(state, REGISTRY_COMPUTED_KEYS);

export class RegistryProvider {
  constructor(private readonly api: () => VendorContainerClient = client) {}

  async check(olds: Inputs, news: Inputs): Promise<{ inputs: Inputs; failures: CheckFailure[] }> {
    return checkRegistry(olds, news, { defaultProjectId: defaultProjectId() });
  }

  async diff(_id: string, olds: Inputs, news: Inputs) {
    const { changes, replaces } = diffRegistry(olds, news);
    return { changes, replaces, deleteBeforeReplace: false };
  }

  /**
   * The engine version, which only the list answers, with `loadEngineVersion` (spec §2.7); every other read
   * is a GET by id. The `metadata.id` filter only narrows the list: the id is checked on each item, and a
   * service that ignores or refuses filters is paged through (`listNarrowed`; api-notes "What the published
   * interface does not show").
   */
  private async engineVersion(
    api: VendorContainerClient,
    projectId: string,
    id: string,
    what: string,
  ): Promise<string | null> {
    const list = (filter: string | undefined) =>
      api.iterateRegistries(projectId, { filter, loadEngineVersion: true });
    for await (const registry of listNarrowed(api, list, `metadata.id:eq(${filterLiteral(id)})`, what)) {
      if (registry.metadata.id === id) return registry.data?.info?.version ?? null;
    }
    return null;
  }

  private async outputs(api: VendorContainerClient, inputs: Inputs, live: RegistryResponse): Promise<Inputs> {
    const version = await this.engineVersion(
      api,
      inputs.projectId as string,
      live.metadata.id,
      subjectOf(inputs),
    );
    return jsonSafe({ ...inputsOf(inputs), ...registryComputed(live, version) });
  }

  async create(inputs: Inputs): Promise<{ id: string; outs: Inputs }> {
    const api = this.api();
    const projectId = inputs.projectId as string;
    const what = subjectOf(inputs);
    const until = deadlineOf(inputs, "create", DEFAULT_TIMEOUTS);
    const tag = creationTag(inputs);
    let registry: RegistryResponse;
    if (typeof inputs.adoptId === "string" && inputs.adoptId !== "") {
      const found = await api.findRegistry(projectId, inputs.adoptId);
      if (!found)
        throw new Error(`${what}: adoptId ${inputs.adoptId}: no such registry in project ${projectId}`);
      const liveAdmin = found.properties.adminUser?.username;
      if (liveAdmin && liveAdmin !== inputs.adminUsername) {
        throw new Error(
          `${what}: cannot adopt ${inputs.adoptId}: adminUsername declared "${inputs.adminUsername}", live "${liveAdmin}"`,
        );
      }
      log(what, `adopting existing registry ${inputs.adoptId}`);
      registry = found;
    } else {
      registry = await createIdempotently({
        what,
        until,
        lookup: () =>
          findCreated({
            what,
            api,
            list: (filter) => api.iterateRegistries(projectId, { filter }),
            tag,
            name: inputs.name as string,
          }),
        post: () => api.createRegistry(projectId, registryInsertBody(inputs)),
      });
    }
    const id = registry.metadata.id;
    try {
      let live = await waitSettled(
        api,
        () => api.findRegistry(projectId, id),
        what,
        id,
        `/registries/${id}`,
        until,
        isTransitional(registry),
      );
      if (inputs.adoptId) {
        const current = {
          ...registryLiveInputs(inputs, live),
          adminPasswordResetTrigger: inputs.adminPasswordResetTrigger,
        };
        live = await this.apply(api, current, inputs, id, what, until);
      }
      return { id, outs: await this.outputs(api, inputs, live) };
    } catch (error) {
      throw await createFailure(error, {
        what,
        id,
        inputs,
        declared: inputsOf(inputs),
        created: registry,
        find: () => api.findRegistry(projectId, id),
        computed: (known) => registryComputed(known, null),
      });
    }
  }

  /** Sends the registry update and the password reset that the change from `olds` to `news` needs. */
  private async apply(
    api: VendorContainerClient,
    olds: Inputs,
    news: Inputs,
    id: string,
    what: string,
    until: number,
  ): Promise<RegistryResponse> {
    const projectId = news.projectId as string;
    const settle = (afterMutation: boolean) =>
      waitSettled(
        api,
        () => api.findRegistry(projectId, id),
        what,
        id,
        `/registries/${id}`,
        until,
        afterMutation,
      );
    let live = await settle(false);
    let view = olds;
    for (let round = 1; ; round++) {
      const body = registryUpdateBody(view, news);
      if (!body) break;
      try {
        log(what, `updating ${["metadata", ...Object.keys(body.properties)].join(", ")}`);
        await api.updateRegistry(projectId, id, body);
        live = await settle(true);
        break;
      } catch (error) {
        // The answer was lost and the request may have been applied: plan again from the live registry.
        if (!isUncertain(error) || round >= 3) throw error;
        live = await settle(false);
        view = registryLiveInputs(news, live);
      }
    }
    if (!sameValue(olds.adminPasswordResetTrigger, news.adminPasswordResetTrigger)) {
      const before = live.data?.private?.adminPasswordLastSetDate ?? null;
      log(what, "resetting the administrator password (adminPasswordResetTrigger changed)");
      try {
        await api.resetAdminPassword(projectId, id, { metadata: { name: news.name as string } });
      } catch (error) {
        // Never reset twice: when the answer was lost, the password's last-set date tells whether it happened.
        if (!isUncertain(error)) throw error;
        const after = (await settle(false)).data?.private?.adminPasswordLastSetDate ?? null;
        if (after === before) throw error;
      }
      live = await settle(true);
    }
    return live;
  }

  async update(id: string, olds: Inputs, news: Inputs): Promise<{ outs: Inputs }> {
    const api = this.api();
    const projectId = news.projectId as string;
    const what = subjectOf(news);
    const until = deadlineOf(news, "update", DEFAULT_TIMEOUTS);
    try {
      // `apply` first waits for the registry to settle: after a partial failure this resumes the wait.
      const live = await this.apply(api, inputsOf(olds), news, id, what, until);
      return { outs: await this.outputs(api, news, live) };
    } catch (error) {
      throw await updateFailure(error, {
        what,
        id,
        olds,
        news,
        find: () => api.findRegistry(projectId, id),
        computed: (known) => registryComputed(known, (olds.engineVersion as string | null) ?? null),
      });
    }
  }

  async read(id: string, props: Inputs): Promise<{ id: string; props: Inputs; inputs?: Inputs }> {
    const api = this.api();
    const declared = inputsOf(props);
    const projectId = (declared.projectId as string) ?? defaultProjectId();
    const live = await api.findRegistry(projectId, id);
    if (!live) {
      log(subjectOf(declared), `registry ${id} no longer exists`);
      return { id: "", props: {}, inputs: {} };
    }
    const inputs = registryLiveInputs(declared, live);
    return { id, props: await this.outputs(api, inputs, live), inputs: refreshedInputs(declared, inputs) };
  }

  async delete(id: string, props: Inputs): Promise<void> {
    const api = this.api();
    const projectId = props.projectId as string;
    await deleteAndWait(api, {
      what: subjectOf(props),
      id,
      path: `/registries/${id}`,
      until: deadlineOf(props, "delete", DEFAULT_TIMEOUTS),
      find: () => api.findRegistry(projectId, id),
      remove: () => api.deleteRegistry(projectId, id),
    });
  }
}
