/** The KaasBackup provider. Loaded lazily in the provider process; never serialized. */
import type { BackupResponse } from "../../schemas";
import type { VendorContainerClient } from "../../rest/client";
import type { CheckFailure, Inputs } from "../common/check";
import { client, defaultProjectId, log } from "../common/context";
import { createFailure, updateFailure } from "../common/failure";
import {
  createIdempotently,
  deleteAndWait,
  findCreated,
  isTransitional,
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
import { checkBackup } from "./check";
import { diffBackup } from "./diff";
import {
  BACKUP_COMPUTED_KEYS,
  backupComputed,
  backupInsertBody,
  backupLiveInputs,
  backupUpdateBody,
} from "./mapping";

const MINUTE = 60_000;
const DEFAULT_TIMEOUTS = { create: 20 * MINUTE, update: 20 * MINUTE, delete: 20 * MINUTE };
const subjectOf = (inputs: Inputs) => subject("KaasBackup", inputs);
const inputsOf = (state: Inputs) => splitInputs(state, BACKUP_COMPUTED_KEYS);
const pathOf = (kaasId: string, id: string) => `/kaas/${kaasId}/backups/${id}`;

export class KaasBackupProvider {
  constructor(private readonly api: () => VendorContainerClient = client) {}

  async check(olds: Inputs, news: Inputs): Promise<{ inputs: Inputs; failures: CheckFailure[] }> {
    return checkBackup(olds, news, { defaultProjectId: defaultProjectId() });
  }

  async diff(_id: string, olds: Inputs, news: Inputs) {
    const { changes, replaces } = diffBackup(olds, news);
    return { changes, replaces, deleteBeforeReplace: false };
  }

  async create(inputs: Inputs): Promise<{ id: string; outs: Inputs }> {
    const api = this.api();
    const projectId = inputs.projectId as string;
    const kaasId = inputs.kaasId as string;
    const what = subjectOf(inputs);
    const until = deadlineOf(inputs, "create", DEFAULT_TIMEOUTS);
    const tag = creationTag(inputs);
    let backup: BackupResponse;
    if (typeof inputs.adoptId === "string" && inputs.adoptId !== "") {
      const found = await api.findBackup(projectId, kaasId, inputs.adoptId);
      if (!found) throw new Error(`${what}: adoptId ${inputs.adoptId}: no such backup of cluster ${kaasId}`);
      log(what, `adopting existing backup ${inputs.adoptId}`);
      backup = found;
    } else {
      backup = await createIdempotently({
        what,
        until,
        lookup: () =>
          findCreated({
            what,
            api,
            list: (filter) => api.iterateBackups(projectId, kaasId, { filter }),
            tag,
            name: inputs.name as string,
          }),
        post: () => api.createBackup(projectId, kaasId, backupInsertBody(inputs)),
      });
    }
    const id = backup.metadata.id;
    try {
      let live = await waitSettled(
        api,
        () => api.findBackup(projectId, kaasId, id),
        what,
        id,
        pathOf(kaasId, id),
        until,
        isTransitional(backup),
      );
      if (inputs.adoptId)
        live = await this.apply(api, backupLiveInputs(inputs, live), inputs, id, what, until);
      return { id, outs: jsonSafe({ ...inputsOf(inputs), ...backupComputed(live) }) };
    } catch (error) {
      throw await createFailure(error, {
        what,
        id,
        inputs,
        declared: inputsOf(inputs),
        created: backup,
        find: () => api.findBackup(projectId, kaasId, id),
        computed: backupComputed,
      });
    }
  }

  /** Sends the update from `olds` to `news` when anything the service stores changed; returns the live backup. */
  private async apply(
    api: VendorContainerClient,
    olds: Inputs,
    news: Inputs,
    id: string,
    what: string,
    until: number,
  ): Promise<BackupResponse> {
    const projectId = news.projectId as string;
    const kaasId = news.kaasId as string;
    const body = backupUpdateBody(olds, news);
    if (body) {
      log(what, `updating ${["metadata", ...Object.keys(body.properties)].join(", ")}`);
      await api.updateBackup(projectId, kaasId, id, body);
    }
    const observe = () => api.findBackup(projectId, kaasId, id);
    return waitSettled(api, observe, what, id, pathOf(kaasId, id), until, body !== undefined);
  }

  async update(id: string, olds: Inputs, news: Inputs): Promise<{ outs: Inputs }> {
    const api = this.api();
    const what = subjectOf(news);
    const until = deadlineOf(news, "update", DEFAULT_TIMEOUTS);
    const projectId = news.projectId as string;
    const kaasId = news.kaasId as string;
    try {
      // Resume first: after a partial failure the engine calls update even without changes.
      await waitSettled(
        api,
        () => api.findBackup(projectId, kaasId, id),
        what,
        id,
        pathOf(kaasId, id),
        until,
      );
      const live = await this.apply(api, inputsOf(olds), news, id, what, until);
      return { outs: jsonSafe({ ...inputsOf(news), ...backupComputed(live) }) };
    } catch (error) {
      throw await updateFailure(error, {
        what,
        id,
        olds,
        news,
        find: () => api.findBackup(projectId, kaasId, id),
        computed: backupComputed,
      });
    }
  }

  async read(id: string, props: Inputs): Promise<{ id: string; props: Inputs; inputs?: Inputs }> {
    const api = this.api();
    const declared = inputsOf(props);
    const live = await api.findBackup(
      (declared.projectId as string) ?? defaultProjectId(),
      declared.kaasId as string,
      id,
    );
    if (!live) {
      log(subjectOf(declared), `backup ${id} no longer exists`);
      return { id: "", props: {}, inputs: {} };
    }
    const inputs = backupLiveInputs(declared, live);
    return {
      id,
      props: jsonSafe({ ...inputs, ...backupComputed(live) }),
      inputs: refreshedInputs(declared, inputs),
    };
  }

  /** A backup whose cluster or itself is already gone deletes as success (the cluster may go first). */
  async delete(id: string, props: Inputs): Promise<void> {
    const api = this.api();
    const projectId = props.projectId as string;
    const kaasId = props.kaasId as string;
    await deleteAndWait(api, {
      what: subjectOf(props),
      id,
      path: pathOf(kaasId, id),
      until: deadlineOf(props, "delete", DEFAULT_TIMEOUTS),
      find: () => api.findBackup(projectId, kaasId, id),
      remove: () => api.deleteBackup(projectId, kaasId, id),
    });
  }
}
