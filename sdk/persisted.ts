/**
 * What the engine holds for this stack, read by the program once per run, and the bookkeeping on the service's
 * objects that only that knowledge allows (docs/creation-and-recovery.md "How creation works"). A dynamic provider is told neither
 * the URN of a resource nor what the state holds for it, and `pulumi up --replace` checks a resource without
 * its old inputs; the program can ask the engine (`pulumi:pulumi:readStackResourceOutputs`, the builtin
 * function behind stack references, for its own stack) and can see when the engine has recorded a create.
 *
 * - **What the state tracks.** Each class passes `trackedId`: the id of the object the state tracked for the
 *   resource when the run started, or null for none. The provider's create then tells a replacement (which
 *   never resumes the object the state tracks, whatever tags it carries) from a create that finds an object
 *   naming it as owner that the state lost (refused: provider/common/lifecycle.ts `judgeLookup`).
 * - **The creation tag is released once the engine has recorded the id.** A resource's `id` resolves in the
 *   program only after the engine has saved the step that created it (its step executor persists the snapshot
 *   before it completes the registration: engine notes), so the program releases the tag then. A run killed,
 *   or a state write lost, before that leaves the tag on an object no state tracks, which the next create of
 *   the resource resumes instead of making a second one.
 * - **A renamed stack or project.** `pulumi stack rename` rewrites the state's URNs, so they name this stack,
 *   while the outputs still name the former scope, as do the objects' owner tags. Before any resource of the
 *   run is checked, the program records the new scope as the owner of those objects, so that the run's deletes
 *   (a replacement's, a removal's, `pulumi destroy --run-program`'s) see their own stack. A copied stack's state
 *   keeps URNs naming the original stack: nothing of it is taken over.
 *
 * Nothing of this runs in a preview: it reads nothing and changes nothing.
 */
import * as pulumi from "@pulumi/pulumi";
import type * as ProviderModule from "../provider";
import { dynamicTypeToken } from "../provider/kinds";
import { TAGGED_KINDS, type TaggedKind } from "../schemas/kinds";
import { isRecord, keysOf, messageOf, requiredAs } from "../schemas/typed";
import { programClient } from "./programClient";

/** An object of a tagged kind that the state holds, with only what the bookkeeping needs. */
interface PersistedObject {
  kind: TaggedKind;
  /** The object's id. */
  id: string;
  /** The resource's name, from its URN. */
  name: string;
  /** Whether its URN names this program's stack and project (a renamed stack's state does; a copy's does not). */
  ours: boolean;
  /** `creationScope` as the state recorded it. */
  scope?: string;
  /** What locates the object: `projectId`, a backup's `kaasId`, `name`, `location`, `timeouts`. */
  locator: Record<string, unknown>;
}

/** The outputs that locate an object of any tagged kind (`TaggedKindEntry.locator`), each once. */
const LOCATOR = [...new Set(Object.values(TAGGED_KINDS).flatMap((entry) => entry.locator))];

/** The tagged kind of a type token, or undefined. */
function kindOfType(type: unknown): TaggedKind | undefined {
  return keysOf(TAGGED_KINDS).find((kind) => dynamicTypeToken(kind) === type);
}

/** `<project>/<stack>` of this program. */
const programStack = (): string => `${pulumi.getProject()}/${pulumi.getStack()}`;

/** The stack, project and name of a URN (`urn:pulumi:<stack>::<project>::<type>::<name>`), or undefined. */
function partsOfUrn(urn: string): { stack: string; project: string; name: string } | undefined {
  const [head, project, , ...name] = urn.split("::");
  if (!head?.startsWith("urn:pulumi:") || project === undefined || name.length === 0) return undefined;
  return { stack: head.slice("urn:pulumi:".length), project, name: name.join("::") };
}

/** The provider module, loaded when the program first changes a tag (never in a preview). */
function provider(): typeof ProviderModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy on purpose, see above
  return requiredAs<typeof ProviderModule>(() => require("../provider"));
}

/**
 * This program's stack, fully qualified (`<organization>/<project>/<stack>`); the stack name alone (the
 * current project's, in the default organization) where the engine names no organization.
 */
function stackName(): string {
  try {
    return `${pulumi.getOrganization()}/${pulumi.getProject()}/${pulumi.getStack()}`;
  } catch {
    return pulumi.getStack();
  }
}

/** This program's stack as the engine holds it: its objects of tagged kinds by URN; undefined when unreadable. */
async function readPersisted(): Promise<Map<string, PersistedObject> | undefined> {
  let answer: unknown;
  try {
    answer = await pulumi.runtime.invoke("pulumi:pulumi:readStackResourceOutputs", {
      stackName: stackName(),
    });
  } catch (error) {
    void pulumi.log.warn(
      `vendor-container: this stack's state could not be read from the engine (${messageOf(error)}): a ` +
        "create that finds an object naming its resource as owner is refused, since it cannot tell a " +
        "replacement from a lost object",
    );
    return undefined;
  }
  const resources = isRecord(answer) ? answer.outputs : undefined;
  if (!isRecord(resources)) return undefined;
  const here = { stack: pulumi.getStack(), project: pulumi.getProject() };
  const objects = new Map<string, PersistedObject>();
  for (const [urn, entry] of Object.entries(resources)) {
    const type = isRecord(entry) ? entry.type : undefined;
    const outputs = isRecord(entry) && isRecord(entry.outputs) ? entry.outputs : undefined;
    const kind = kindOfType(type);
    const parts = partsOfUrn(urn);
    const id = outputs?.[kind === undefined ? "" : TAGGED_KINDS[kind].id];
    if (kind === undefined || parts === undefined || typeof id !== "string" || id === "") continue;
    const scope = typeof outputs?.creationScope === "string" ? outputs.creationScope : undefined;
    objects.set(urn, {
      kind,
      id,
      name: parts.name,
      ours: parts.stack === here.stack && parts.project === here.project,
      scope,
      locator: Object.fromEntries(
        LOCATOR.filter((key) => outputs?.[key] != null).map((k) => [k, outputs?.[k]]),
      ),
    });
  }
  return objects;
}

/**
 * Records this stack's scope as the owner of every object whose state names a former scope of the same
 * resource (a renamed stack or project; see the top of this file). Only an object whose owner tag names that
 * former scope is changed. A failure fails the run before any resource is checked: its deletes would be
 * refused, and a replacement would be left half made.
 */
async function recordRenames(objects: Map<string, PersistedObject>): Promise<void> {
  const renamed = [...objects.values()].filter(
    (o) => o.ours && o.scope !== undefined && o.scope !== `${programStack()}/${o.name}`,
  );
  if (renamed.length === 0) return;
  const { client } = programClient();
  await Promise.all(
    renamed.map(async (object) => {
      const scope = `${programStack()}/${object.name}`;
      const what = `${object.kind} "${object.name}"`;
      try {
        const outcome = await provider().retagObject(object.kind, client, object.locator, object.id, {
          owner: scope,
          from: object.scope,
          what,
          describe: `the state names its former scope "${object.scope}": recording "${scope}" as the owner of`,
        });
        if (outcome === "owned elsewhere")
          void pulumi.log.warn(
            `${what}: ${object.id} names another owner than "${object.scope}" (another stack adopted it): ` +
              "left as it is",
          );
      } catch (error) {
        throw new Error(
          `${what}: this stack's state names the resource's former scope "${object.scope}" (a renamed stack ` +
            `or project), and recording "${scope}" as the owner of ${object.id} failed: ${messageOf(error)}`,
          { cause: error },
        );
      }
    }),
  );
}

/** The state's objects, per program run (keyed by the run's engine connection), after renames are recorded. */
const runs = new WeakMap<object, Promise<Map<string, PersistedObject> | undefined>>();

/** The objects this stack's state holds by URN; undefined in a preview, or when the state cannot be read. */
function persistedObjects(): Promise<Map<string, PersistedObject> | undefined> | undefined {
  const monitor = pulumi.runtime.getMonitor();
  if (pulumi.runtime.isDryRun() || monitor === undefined) return undefined;
  let objects = runs.get(monitor);
  if (objects === undefined) {
    objects = readPersisted().then(async (found) => {
      if (found) await recordRenames(found);
      return found;
    });
    runs.set(monitor, objects);
  }
  return objects;
}

/**
 * The `trackedId` input of a resource of `kind` named `name`: the id of the object the state tracked for it
 * when the run started, null for none, unset in a preview or when the state cannot be read. Resolves after the
 * renames are recorded, so the resource is checked after them.
 */
export function trackedIdInput(
  kind: TaggedKind,
  name: string,
  opts: pulumi.CustomResourceOptions | undefined,
): pulumi.Output<string | null | undefined> | undefined {
  const objects = persistedObjects();
  if (objects === undefined) return undefined;
  // The map stays inside the callback: an Output lifts a value it carries into a plain object.
  return pulumi.createUrn(name, dynamicTypeToken(kind), opts?.parent).apply(async (urn) => {
    const found = await objects;
    return found === undefined ? undefined : (found.get(urn)?.id ?? null);
  });
}

/** The outputs of `resource` that locate its object (`LOCATOR`), as one Output. */
function locatorOf(resource: pulumi.CustomResource): pulumi.Output<Record<string, unknown>> {
  // The classes declare these outputs (every argument is one); read by name, so one helper serves them all.
  const entries: [string, pulumi.Output<unknown>][] = [];
  for (const key of LOCATOR) {
    const output: unknown = Reflect.get(resource, key);
    if (pulumi.Output.isInstance(output)) entries.push([key, output]);
  }
  return pulumi.all(Object.fromEntries(entries)).apply((values): Record<string, unknown> => values);
}

/** The value an Output settles to, or its failure (a failed registration): `Output.promise`, the SDK's own. */
function settled<T>(output: pulumi.Output<T>): Promise<T> | undefined {
  // `promise` is internal to the SDK (not in its types), hence read by name.
  const promise: unknown = Reflect.get(output, "promise");
  // It resolves to the output's value, of type T.
  return typeof promise === "function" ? Promise.resolve(promise.call(output) as T) : undefined;
}

/**
 * Releases the creation tag of the object `resource` created in this run, once the engine has recorded its id
 * (see the top of this file): when its id differs from the one the state tracked (`tracked`, from
 * `trackedIdInput`). The outputs that locate the object are the resource's own. The program waits for it
 * before it ends. A failure is a warning: the tag then stays until the resource's next update, and only a create that
 * finds the object after its state lost it resumes it instead of refusing.
 */
export function releaseWhenRecorded(
  resource: pulumi.CustomResource,
  kind: TaggedKind,
  name: string,
  tracked: pulumi.Output<string | null | undefined> | undefined,
): void {
  if (!tracked) return;
  const [idSettled, trackedSettled, locatorSettled] = [
    settled(resource.id),
    settled(tracked),
    settled(locatorOf(resource)),
  ];
  if (!idSettled || !trackedSettled || !locatorSettled) return;
  const done = pulumi.runtime.rpcKeepAlive();
  const what = `${kind} "${name}"`;
  void Promise.all([idSettled, trackedSettled, locatorSettled])
    .then(async ([id, before, where]) => {
      if (before === undefined || typeof id !== "string" || id === "" || id === before) return;
      try {
        await provider().retagObject(kind, programClient().client, where, id, {
          owner: `${programStack()}/${name}`,
          what,
          describe: "the engine recorded the id: releasing the creation tag of",
        });
      } catch (error) {
        void pulumi.log.warn(
          `${what}: the creation tag of ${id} could not be released (${messageOf(error)}); it is released by ` +
            "the resource's next update",
          resource,
        );
      }
    })
    // A failed registration fails the run on its own; the release has nothing to do then.
    .catch(() => undefined)
    .finally(done);
}
