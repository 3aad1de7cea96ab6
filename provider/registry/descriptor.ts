/**
 * The Registry kind, described once: its arguments (what a change does, how `check` validates them), its
 * computed outputs, its service calls and deadlines, and what only a registry does (the administrator
 * password reset, the engine version only the list answers). `check`, `diff` and the provider all derive
 * from it.
 */
import type { RegistryResponse } from "../../schemas";
import type { VendorContainerClient } from "../../rest/client";
import { client, log } from "../common/context";
import { sameValue } from "../common/diff";
import { withBookkeeping } from "../common/arguments";
import { DescribedProvider } from "../common/describedProvider";
import { singleRequestUpdate, type KindDescriptor } from "../common/kindDescriptor";
import { filterLiteral, isUncertain, listNarrowed } from "../common/lifecycle";
import {
  registryComputed,
  registryInsertBody,
  importedRegistryInputs,
  registryLiveInputs,
  registryUpdateBody,
  vpcMismatch,
} from "./mapping";
import { REGISTRY_ARGUMENTS, REGISTRY_COMPUTED_KEYS, type CheckedRegistryInputs } from "./types";
import { stringOrNull } from "../common/typed";

const MINUTE = 60_000;

/**
 * The engine version, which only the list answers, with `loadEngineVersion` (spec §2.7); every other read is
 * a GET by id. The `metadata.id` filter only narrows the list: the id is checked on each item, and a service
 * that ignores or refuses filters is paged through (`listNarrowed`; api-notes "What the published interface
 * does not show").
 */
async function engineVersion(
  api: VendorContainerClient,
  projectId: string,
  id: string,
  what: string,
): Promise<string | null> {
  const list = (filter: string | undefined, onUnreadable?: (line: string) => void) =>
    api.iterate("listRegistries", { projectId }, { filter, loadEngineVersion: true, onUnreadable });
  for await (const registry of listNarrowed(api, list, `metadata.id:eq(${filterLiteral(id)})`, what)) {
    if (registry.metadata.id === id) return registry.data?.info?.version ?? null;
  }
  return null;
}

/** The Registry kind. */
export const REGISTRY: KindDescriptor<RegistryResponse, CheckedRegistryInputs> = {
  kind: "Registry",
  noun: "registry",
  arguments: withBookkeeping(REGISTRY_ARGUMENTS),
  computed: REGISTRY_COMPUTED_KEYS,
  // Real registries take 20-40 minutes to provision (api-notes).
  timeouts: { create: 60 * MINUTE, update: 30 * MINUTE, delete: 30 * MINUTE },
  calls: {
    path: (api, _inputs, id) => api.pathOf("getRegistry", { id }),
    find: (api, inputs, id) => api.find("getRegistry", { projectId: inputs.projectId, id }),
    list: (api, inputs) => (filter, onUnreadable) =>
      api.iterate("listRegistries", { projectId: inputs.projectId }, { filter, onUnreadable }),
    create: (api, inputs) =>
      api.call("createRegistry", { projectId: inputs.projectId }, registryInsertBody(inputs)),
    remove: (api, inputs, id) => api.call("deleteRegistry", { projectId: inputs.projectId, id }),
    updateMetadata: (api, inputs, id, metadata) =>
      api.call("updateRegistry", { projectId: inputs.projectId, id }, { metadata, properties: {} }),
  },
  planAgainWhenUncertain: true,
  async adopt(api, inputs, adoptId, what) {
    const { projectId, adminUsername } = inputs;
    const found = await api.find("getRegistry", { projectId, id: adoptId });
    if (!found) throw new Error(`${what}: adoptId ${adoptId}: no such registry in project ${projectId}`);
    const liveAdmin = found.properties.adminUser?.username;
    if (liveAdmin && liveAdmin !== adminUsername) {
      throw new Error(
        `${what}: cannot adopt ${adoptId}: adminUsername declared "${adminUsername}", live "${liveAdmin}"`,
      );
    }
    const vpc = vpcMismatch(inputs, found);
    if (vpc) throw new Error(`${what}: cannot adopt ${adoptId}: ${vpc}`);
    log(what, `adopting existing registry ${adoptId}`);
    return found;
  },
  liveInputs: registryLiveInputs,
  parents: [],
  importedInputs: importedRegistryInputs,
  verify(declared, live, what) {
    const vpc = vpcMismatch(declared, live);
    if (vpc) throw new Error(`${what}: ${vpc}`);
  },
  // Adopting never resets the password: the trigger is taken as already applied.
  adoptedInputs: (declared, live) => ({
    ...registryLiveInputs(declared, live),
    adminPasswordResetTrigger: declared.adminPasswordResetTrigger,
  }),
  plan: (olds, news, live) =>
    singleRequestUpdate(registryUpdateBody(olds, news), (api, body) =>
      api.call("updateRegistry", { projectId: news.projectId, id: live.metadata.id }, body),
    ),
  async afterUpdate({ api, what, id, settle, olds, news, live }) {
    if (sameValue(olds.adminPasswordResetTrigger, news.adminPasswordResetTrigger)) return live;
    const projectId = news.projectId;
    const before = live.data?.private?.adminPasswordLastSetDate ?? null;
    log(what, "resetting the administrator password (adminPasswordResetTrigger changed)");
    try {
      await api.call("resetAdminPassword", { projectId, id }, { metadata: { name: news.name } });
    } catch (error) {
      // Never reset twice: when the answer was lost, the password's last-set date tells whether it happened.
      if (!isUncertain(error)) throw error;
      const after = (await settle(false)).data?.private?.adminPasswordLastSetDate ?? null;
      if (after === before) throw error;
    }
    return settle(true);
  },
  computedOf: (live, previous) => registryComputed(live, stringOrNull(previous.engineVersion)),
  async outputs({ api, what, inputs, live }) {
    return registryComputed(live, await engineVersion(api, inputs.projectId, live.metadata.id, what));
  },
};

/** The Registry provider. Loaded lazily in the provider process; never serialized. */
export class RegistryProvider extends DescribedProvider<RegistryResponse, CheckedRegistryInputs> {
  constructor(api: () => VendorContainerClient = client) {
    super(REGISTRY, api);
  }
}
