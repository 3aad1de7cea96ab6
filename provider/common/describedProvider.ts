/**
 * The lifecycle every created kind shares, run for any kind's description: check and diff from its argument
 * table; create (adopt, or idempotent create, then wait until settled, with a partial failure once the object
 * exists); update (resume waiting, send the planned steps, plan again from the live object when an answer
 * was lost); read (refresh, with refreshed inputs on drift); delete and wait until gone.
 */
import type { VendorContainerClient } from "../../rest/client";
import type { Inputs } from "./check";
import type { RunContext } from "./kindProvider";
import { checkContext, client, log, noteProgramScope, noteReplacement, replacedBy } from "./context";
import { foreignDeleteRefusal, importedOwner, stackOfScope } from "./foreignDelete";
import { createFailure, updateFailure } from "./failure";
import type { CheckResult } from "./arguments";
import { importTarget, providerFrame, readRequest, type ProviderFrame } from "./frame";
import {
  checkKind,
  diffKind,
  type HookContext,
  type KindDescriptor,
  type KindInputs,
} from "./kindDescriptor";
import {
  createIdempotently,
  deleteAndWait,
  findCreated,
  isTransitional,
  isUncertain,
  waitSettled,
  type ServiceObject,
} from "./lifecycle";
import { jsonSafe } from "./outputs";
import { retagLive } from "./ownership";
import {
  carriesCreationTag,
  creationTag,
  deadlineOf,
  errorText,
  metadataArguments,
  ownerOf,
  ownerTag,
  refreshedInputs,
} from "./resource";

/** Plans of one update: the first, and one more after each request whose outcome was unknown. */
export const MAX_UPDATE_ROUNDS = 3;

export {
  checkKind,
  diffKind,
  type HookContext,
  type KindCalls,
  type KindDescriptor,
  type KindInputs,
  type KindLifecycle,
  type KindPreview,
  type UpdateStep,
} from "./kindDescriptor";

/**
 * The dynamic provider of a described kind. Loaded lazily in the provider process; never serialized. The
 * engine hands `create` and `update` the inputs `check` returned, so they take the checked inputs `C`; the
 * state it hands back (`olds`, `props`) is read through its frame (frame.ts).
 */
export class DescribedProvider<R extends ServiceObject, C extends KindInputs> {
  constructor(
    private readonly descriptor: KindDescriptor<R, C>,
    private readonly api: () => VendorContainerClient = client,
  ) {
    this.frame = providerFrame<C>(descriptor.kind, descriptor.computed);
  }

  private readonly frame: ProviderFrame<C>;

  async check(olds: Inputs, news: Inputs): Promise<CheckResult<C>> {
    noteProgramScope(news.creationScope);
    return checkKind(this.descriptor, olds, news, checkContext());
  }

  async diff(
    id: string,
    olds: Inputs,
    news: Inputs,
  ): Promise<{ changes: boolean; replaces: string[]; deleteBeforeReplace: boolean }> {
    const { changes, replaces } = diffKind(this.descriptor, olds, news);
    if (replaces.length > 0) noteReplacement(news.creationScope, id);
    return { changes, replaces, deleteBeforeReplace: false };
  }

  async create(inputs: C, run?: RunContext): Promise<{ id: string; outs: Inputs }> {
    const d = this.descriptor;
    const api = this.api();
    const what = this.frame.subjectOf(inputs);
    const until = deadlineOf(inputs, "create", d.timeouts);
    const adoptId = inputs.adoptId;
    const adopting = typeof adoptId === "string" && adoptId !== "";
    const tag = creationTag(inputs);
    const owner = ownerTag(inputs);
    const { object: created, resumed } = adopting
      ? { object: await this.adopt(api, inputs, adoptId, what), resumed: false }
      : await createIdempotently({
          what,
          noun: d.noun,
          tag,
          owner,
          tracked: async () =>
            inputs.trackedId !== undefined
              ? inputs.trackedId
              : (replacedBy(inputs.creationScope) ?? (await run?.tracked?.())),
          until,
          createTimeoutMs: until - Date.now(),
          stateNames: api.stateNames,
          lookup: () =>
            findCreated({
              what,
              api,
              list: d.calls.list(api, inputs),
              tag,
              owner,
              name: inputs.name,
              stateNames: api.stateNames,
            }),
          post: () => d.calls.create(api, inputs),
        });
    const id = created.metadata.id;
    const context = this.hookContext(api, inputs, id, what, until);
    try {
      let live = await context.settle(isTransitional(created, api.stateNames));
      // A created object keeps its creation tag until the engine has recorded its id: the program releases it
      // then (sdk/persisted.ts). Released here, a run killed before the state is written would leave an object
      // the next run cannot tell from one whose state was lost, and it would create a second one.
      if (!adopting) d.verify?.(inputs, live, what);
      if (adopting) {
        live = await this.recordOwnership(context, inputs, live);
        // Converge an adopted object's updatable arguments on the declared ones.
        const current = (d.adoptedInputs ?? d.liveInputs)(inputs, live);
        live = await this.converge(context, current, inputs, live);
      }
      // A resumed create reports the object as the service shows it (it may have changed since the
      // interrupted run, or that run may have declared other arguments): the next preview plans the update
      // that converges it, instead of a state that claims the declared values.
      const reported = resumed ? d.liveInputs(inputs, live) : inputs;
      return { id, outs: await this.outputs(api, reported, live, {}) };
    } catch (error) {
      throw await createFailure(error, {
        what,
        id,
        inputs,
        declared: this.frame.inputsOf(inputs),
        created,
        find: () => d.calls.find(api, inputs, id),
        computed: (known) => d.computedOf(known, {}),
      });
    }
  }

  /**
   * The object `adoptId` names, verified by the kind, and refused when its owner tag names another resource
   * unless `adoptFromScope` names that resource: taking over another stack's object by accident would let
   * both stacks act on it: a create never takes over what is not its own.
   */
  private async adopt(api: VendorContainerClient, inputs: C, adoptId: string, what: string): Promise<R> {
    const live = await this.descriptor.adopt(api, inputs, adoptId, what);
    const owner = ownerOf(live.metadata.tags);
    if (owner !== undefined && owner !== inputs.creationScope && owner !== inputs.adoptFromScope) {
      throw new Error(
        `${what}: adoptId ${adoptId}: the ${this.descriptor.noun} belongs to another resource, "${owner}" ` +
          `(its owner tag), and adopting it would let two stacks act on it. If that stack no longer tracks ` +
          `it, or is being retired, and taking it over is intended, also set adoptFromScope: "${owner}".`,
      );
    }
    return live;
  }

  /**
   * Makes the object's tags say that this resource owns it: the owner tag of this resource, and no creation
   * tag. Sent by an adoption, and by an update (which received the id from the engine, so the state holds it).
   * One metadata-only update, sent only when the tags differ; the live name and user tags are kept, so what a
   * resumed object reports stays what the service has.
   */
  private async recordOwnership(context: HookContext<R>, inputs: C, live: R): Promise<R> {
    return retagLive(this.descriptor, context, inputs, live, inputs.creationScope || undefined);
  }

  async update(id: string, olds: Inputs, news: C): Promise<{ outs: Inputs }> {
    const d = this.descriptor;
    const api = this.api();
    const what = this.frame.subjectOf(news);
    const until = deadlineOf(news, "update", d.timeouts);
    const context = this.hookContext(api, news, id, what, until);
    try {
      // Resume first: after a partial failure the engine calls update even without changes.
      let live = await context.settle(false);
      // An object still carrying a creation tag (a create that failed after the service accepted it, or one
      // whose run ended before the program released it) is released before anything else: the engine handed
      // this update the id, so the state holds it. So is an owner tag that names this resource's former scope
      // (a renamed stack or project: see `scopeRenamed`) or none.
      if (carriesCreationTag(live.metadata.tags) || this.ownerOutdated(live, olds, news))
        live = await this.recordOwnership(context, news, live);
      d.verify?.(news, live, what);
      const converged = await this.converge(context, this.frame.inputsOf(olds), news, live);
      return { outs: await this.outputs(api, news, converged, olds) };
    } catch (error) {
      throw await updateFailure(error, {
        what,
        id,
        olds,
        news,
        find: () => d.calls.find(api, news, id),
        computed: (known) => d.computedOf(known, olds),
      });
    }
  }

  /**
   * Whether the object's owner tag should name this resource and does not: it has none, or it names the scope
   * the state recorded (the stack or project was renamed since). An owner tag naming another resource (one
   * that adopted the object with `adoptFromScope`) is left as it is.
   */
  private ownerOutdated(live: R, olds: Inputs, news: C): boolean {
    if (news.creationScope === undefined) return false;
    const owner = ownerOf(live.metadata.tags);
    // A former scope of this resource (a renamed stack), or another resource of this stack whose object this
    // one imported: the import is the user's decision, and the owner tag follows the state.
    return (
      owner === undefined ||
      (owner !== news.creationScope &&
        (owner === olds.creationScope || stackOfScope(owner) === stackOfScope(news.creationScope)))
    );
  }

  async read(id: string, props: Inputs): Promise<{ id: string; props: Inputs; inputs?: Inputs }> {
    const d = this.descriptor;
    const api = this.api();
    const { readOnly, state } = readRequest(props);
    const declared = this.frame.inputsOf(state);
    const where = this.frame.located(declared);
    const live = await d.calls.find(api, where, id);
    if (!live) {
      // A refresh drops an object that is gone; a `get` of one that does not exist is an error, or the engine
      // would record an empty resource.
      if (readOnly)
        throw new Error(
          `${this.frame.subjectOf(declared)}: get: no ${d.noun} ${id} in project ${where.projectId} ` +
            `(GET ${d.calls.path(api, where, id)} found nothing)`,
        );
      log(this.frame.subjectOf(declared), `${d.noun} ${id} no longer exists`);
      return { id: "", props: {}, inputs: {} };
    }
    const inputs = d.liveInputs(readOnly ? this.readOnlyInputs(where, live) : declared, live);
    return {
      id,
      props: await this.outputs(api, inputs, live, props),
      inputs: refreshedInputs(declared, inputs),
    };
  }

  /**
   * `pulumi import` of the object the import id names (`importTarget`): its arguments as the service answers
   * them (the kind's `importedInputs`), completed by `check` as the next preview's will be, and its outputs.
   * Refused when its owner tag names another resource: importing it would let two stacks act on it, so the
   * refusal says how to take it over on purpose. The owner tag is recorded by the first update, not here: the
   * import's preview reads too, and a preview changes nothing.
   */
  async importObject(
    importId: string,
    scope: string,
    run?: RunContext,
  ): Promise<{ id: string; props: Inputs; inputs: Inputs }> {
    const d = this.descriptor;
    const api = this.api();
    const what = this.frame.subjectOf({ creationScope: scope });
    const { id, lookup } = importTarget(what, importId, d.parents);
    const where = this.frame.inputsOf(lookup);
    const live = await d.calls.find(api, where, id);
    if (!live)
      throw new Error(
        `${what}: import: no ${d.noun} ${id} in project ${lookup.projectId} ` +
          `(GET ${d.calls.path(api, where, id)} found nothing)`,
      );
    await importedOwner(ownerOf(live.metadata.tags), { what, noun: d.noun, id, scope, run });
    const imported = { ...d.importedInputs(lookup, live), creationScope: scope };
    // Checked with itself as the state, as the engine checks an import: nothing is "changed", so an upgrade
    // date already past is no error.
    const checked = await this.check(imported, imported);
    // Inputs `check` refuses are recorded as read: the engine prints the failures as warnings.
    const inputs = checked.failures.length === 0 ? checked.inputs : this.frame.inputsOf(imported);
    return { id, props: await this.outputs(api, inputs, live, {}), inputs };
  }

  async delete(id: string, props: Inputs, run?: RunContext): Promise<void> {
    const d = this.descriptor;
    const api = this.api();
    const declared = this.frame.inputsOf(props);
    const what = this.frame.subjectOf(declared);
    await deleteAndWait(api, {
      what,
      id,
      path: d.calls.path(api, declared, id),
      until: deadlineOf(declared, "delete", d.timeouts),
      find: () => d.calls.find(api, declared, id),
      remove: () => d.calls.remove(api, declared, id),
      accepted: d.deleteAccepted?.(declared, id),
      guard: (live) => this.refuseForeignDelete(live, what, id, { recorded: declared.creationScope, run }),
    });
  }

  /**
   * Refuses to delete an object whose owner tag names a resource of another stack: a stack copied with
   * `pulumi stack export` and `pulumi stack import` tracks the same objects as the original, and its `destroy`
   * would delete them under the original stack (see `foreignDeleteRefusal`).
   */
  private refuseForeignDelete(
    live: R,
    what: string,
    id: string,
    { recorded, run }: { recorded: string | undefined; run: RunContext | undefined },
  ): void {
    const refusal = foreignDeleteRefusal(ownerOf(live.metadata.tags), {
      what,
      noun: this.descriptor.noun,
      id,
      recorded,
      stateScope: run?.stateScope,
    });
    if (refusal) throw refusal;
  }

  /**
   * The arguments a `get` reports, from the live object: the metadata every object has (name, location,
   * user tags) and the lookup the program gave (`projectId`, a backup's `kaasId`). The kind's `liveInputs`
   * then adds what it reads back; the rest of the object is in the computed outputs.
   */
  private readOnlyInputs(where: C, live: R): C {
    const { name, location, tags } = metadataArguments(live.metadata);
    return { ...where, name, location, tags };
  }

  private hookContext(
    api: VendorContainerClient,
    inputs: C,
    id: string,
    what: string,
    until: number,
  ): HookContext<R> {
    const calls = this.descriptor.calls;
    const observe = () => calls.find(api, inputs, id);
    return {
      api,
      what,
      id,
      settle: (afterMutation) =>
        waitSettled(api, observe, what, id, calls.path(api, inputs, id), until, afterMutation),
    };
  }

  /**
   * Sends the planned requests from `olds` to `news`, waiting after each; returns the live object. A request
   * whose answer was lost may have been applied (its retry then meets a busy object): wait for the object to
   * settle and plan again from what it has now, instead of sending blindly again.
   */
  private async converge(context: HookContext<R>, olds: C, news: C, live: R): Promise<R> {
    const d = this.descriptor;
    let view = olds;
    let current = live;
    for (let round = 1; ; round++) {
      const steps = d.plan(view, news, current);
      if (steps.length === 0) break;
      try {
        for (const step of steps) {
          log(context.what, step.describe);
          await step.send(context.api);
          current = await context.settle(true);
        }
        break;
      } catch (error) {
        if (!d.planAgainWhenUncertain || !isUncertain(error) || round >= MAX_UPDATE_ROUNDS) throw error;
        log(
          context.what,
          `the update's outcome is unknown (${errorText(error)}); planning again from the live ${d.noun}`,
        );
        current = await context.settle(false);
        view = d.liveInputs(news, current);
      }
    }
    return d.afterUpdate ? d.afterUpdate({ ...context, olds, news, live: current }) : current;
  }

  /** Full outputs: the arguments and the computed values. */
  private async outputs(api: VendorContainerClient, inputs: C, live: R, previous: Inputs): Promise<Inputs> {
    const d = this.descriptor;
    const computed = d.outputs
      ? await d.outputs({ api, what: this.frame.subjectOf(inputs), inputs, live, previous })
      : d.computedOf(live, previous);
    return jsonSafe({ ...this.frame.inputsOf(inputs), ...computed });
  }
}
