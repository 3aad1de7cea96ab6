/**
 * What every kind's provider reads the same way, whatever its lifecycle (describedProvider.ts for the kinds
 * that create service objects, volumeAttachment/provider.ts for attachments): how messages name a resource,
 * the checked inputs of a state, the project a state's object is looked up in, and whether a read is a
 * refresh or the read of a class's `get`.
 */
import { checkedInputsOf } from "./arguments";
import type { Inputs } from "./check";
import { defaultProjectId } from "./context";
import { subjectOf } from "./resource";

/** The reading of states and inputs of one kind. `C` is the kind's checked inputs. */
export interface ProviderFrame<C extends Inputs & { projectId?: string }> {
  /** `Kaas "prod"`: how progress lines and errors name the resource. */
  readonly subjectOf: (inputs: Inputs) => string;
  /** The checked inputs of a state (or of the inputs `check` returned): without computed outputs and `__provider`. */
  readonly inputsOf: (state: Inputs) => C;
  /**
   * `declared`, looked up in the configured default project when it has no project: a state written before
   * `check` recorded the default has none.
   */
  readonly located: (declared: C) => C;
}

/** The frame of the kind `kind`, whose state holds the computed outputs `computed` besides its arguments. */
export function providerFrame<C extends Inputs & { projectId?: string }>(
  kind: string,
  computed: readonly string[],
): ProviderFrame<C> {
  return {
    subjectOf: (inputs) => subjectOf(kind, inputs),
    inputsOf: (state) => checkedInputsOf<C>(state, computed),
    located: (declared) => {
      const projectId = projectOf(declared);
      return projectId === undefined ? declared : { ...declared, projectId };
    },
  };
}

/** The project `state` names, else the configured default project; undefined when neither is set. */
export function projectOf(state: Inputs): string | undefined {
  return typeof state.projectId === "string" ? state.projectId : defaultProjectId();
}

/**
 * The props a read is handed, split: `readOnly` marks the read of a class's `get` (sdk/options.ts
 * `readOnlyProps`), which the engine runs with the program's props, holding no argument, and whose result it
 * stores; without it the read is a refresh of `state`.
 */
export function readRequest(props: Inputs): { readOnly: boolean; state: Inputs } {
  const { readOnly, ...state } = props;
  return { readOnly: readOnly === true, state };
}

/** What an import id (`pulumi import <type> <name> <id>`) names: the object's id and where it is looked up. */
export interface ImportTarget {
  /** The object's id in the service, as the state records it. */
  id: string;
  /** The project (the id's first part, else the configured default) and the parents that locate the object. */
  lookup: Inputs & { projectId: string };
}

/**
 * Parses an import id: `[<projectId>/]<parent>/.../<id>`, the parents in the order `parents` names them (a
 * backup's `kaasId`). Without a project, the configured default project (`projectId` setting); without either,
 * an error that says how to write the id. Ids and parents hold no `/` (the service's ids do not).
 */
export function importTarget(what: string, id: string, parents: readonly string[]): ImportTarget {
  const parts = id.split("/");
  const named = parts.length === parents.length + 2;
  const projectId = named ? parts[0] : defaultProjectId();
  const path = named ? parts.slice(1) : parts;
  const shape = ["<projectId>/", ...parents.map((p) => `<${p}>/`), "<id>"].join("");
  if (path.length !== parents.length + 1 || path.some((part) => part === "") || projectId === undefined)
    throw new Error(
      `${what}: import: "${id}" does not name an object; give "${shape}"` +
        (projectId === undefined && path.length === parents.length + 1
          ? " (no project in the id, and no default project is configured: vendor:projectId)"
          : ""),
    );
  const located = Object.fromEntries(parents.map((parent, i) => [parent, path[i]]));
  return { id: path[parents.length], lookup: { ...located, projectId } };
}
