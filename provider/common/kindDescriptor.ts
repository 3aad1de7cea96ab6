/**
 * A resource kind described once: the arguments and computed outputs `check` and `diff` read, and the service
 * calls, deadlines and hooks the lifecycle (describedProvider.ts) runs. Types and the pure parts only, so that
 * the modules the lifecycle uses (ownership.ts) can name a kind without importing the lifecycle.
 */
import type { VendorContainerClient } from "../../rest/client";
import type { MetadataRequest } from "../../schemas";
import type { Inputs } from "./check";
import type { DiffResult } from "./diff";
import {
  checkArguments,
  diffArguments,
  type ArgumentKey,
  type ArgumentTable,
  type CheckContext,
  type CheckResult,
} from "./arguments";
import type { ListSource, ServiceObject } from "./lifecycle";
import type { DefaultTimeouts, MetadataArguments, TimeoutsArgument } from "./resource";
import type { ImportTarget } from "./frame";

/** Where an imported object is looked up: its project and parents (`ImportTarget`). */
export type ImportLookup = ImportTarget["lookup"];

/** One request of an update, with the progress line announcing it. */
export interface UpdateStep {
  /** The progress line, e.g. `updating metadata, billingPeriod`. */
  describe: string;
  send: (api: VendorContainerClient) => Promise<unknown>;
}

/**
 * The update of a kind whose every change travels in one request: none when `body` is undefined (nothing the
 * request carries changed), else one step that sends it, announced with what it carries.
 */
export function singleRequestUpdate<B extends { properties: object }>(
  body: B | undefined,
  send: (api: VendorContainerClient, body: B) => Promise<unknown>,
): UpdateStep[] {
  if (!body) return [];
  return [
    {
      describe: `updating ${["metadata", ...Object.keys(body.properties)].join(", ")}`,
      send: (api) => send(api, body),
    },
  ];
}

/** What a kind's hooks know about the object they work on. */
export interface HookContext<R> {
  api: VendorContainerClient;
  /** How progress lines name the resource (`Kaas "prod"`). */
  what: string;
  id: string;
  /** Waits until the object is settled; `afterMutation` right after a request that changes it. */
  settle: (afterMutation: boolean) => Promise<R>;
}

/**
 * The checked inputs every created kind has: located by project, named, tagged, with deadlines and the
 * bookkeeping of idempotent create. Each kind's own checked inputs (`Checked<I>`) extend it.
 */
export type KindInputs = Inputs &
  MetadataArguments & {
    projectId: string;
    timeouts?: TimeoutsArgument;
    adoptId?: string;
    adoptFromScope?: string;
    creationScope?: string;
    creationToken: string;
    trackedId?: string | null;
  };

/** The service calls of a kind, through the REST client's methods. `inputs` locate the object. */
export interface KindCalls<R, C extends KindInputs> {
  /** The object's path, as progress lines and the waiter name it: its read endpoint's (`api.pathOf`). */
  path(api: VendorContainerClient, inputs: C, id: string): string;
  /** The object, or undefined when it does not exist. */
  find(api: VendorContainerClient, inputs: C, id: string): Promise<R | undefined>;
  /** The kind's list endpoint within the scope of `inputs`. */
  list(api: VendorContainerClient, inputs: C): ListSource<R>;
  /** The create request (one POST). */
  create(api: VendorContainerClient, inputs: C): Promise<R>;
  /** The delete request. */
  remove(api: VendorContainerClient, inputs: C, id: string): Promise<void>;
  /** An update that carries `metadata` and changes no property (records the owner, releases the creation tag). */
  updateMetadata(api: VendorContainerClient, inputs: C, id: string, metadata: MetadataRequest): Promise<void>;
}

/**
 * What `check` and `diff` of a kind read: its arguments and the names of its computed outputs, nothing of
 * the service. `C` is the kind's checked inputs.
 */
export interface KindPreview<C extends KindInputs> {
  /** The kind's name, as progress lines show it. */
  readonly kind: string;
  /** How progress lines name the service object (`cluster`, `backup`). */
  readonly noun: string;
  readonly arguments: ArgumentTable<ArgumentKey<C>>;
  /** The names of the computed outputs; everything else in state is an argument. */
  readonly computed: readonly string[];
  /**
   * Arguments the table marks `ignore` but that bespoke rules compare; throws for a refused change. It sees
   * the state and the inputs as `diff` does, unknown values included.
   */
  readonly extraChanges?: (olds: Inputs, news: Inputs) => string[];
}

/**
 * What the lifecycle of a kind runs (create, read, update, delete): its service calls, default deadlines, and
 * the hooks for what only it does. `C` is the kind's checked inputs: what its `check` returns, and what every
 * hook and call is handed.
 */
export interface KindLifecycle<R extends ServiceObject, C extends KindInputs> {
  readonly timeouts: DefaultTimeouts;
  readonly calls: KindCalls<R, C>;
  /** Whether an update whose answer was lost is planned again from the live object. */
  readonly planAgainWhenUncertain: boolean;
  /** The existing object `adoptId` names, verified against the declared arguments. */
  adopt(api: VendorContainerClient, inputs: C, adoptId: string, what: string): Promise<R>;
  /** The arguments as the live object has them (refresh, and a new plan after an uncertain update). */
  liveInputs(declared: C, live: R): C;
  /** What an adopted object is converged from. Default: `liveInputs`. */
  adoptedInputs?(declared: C, live: R): C;
  /**
   * Throws when the settled object contradicts a declared argument that the requests cannot carry (a
   * registry's `vpcUri`). Run by create (adopting, `adopt` checks) and by update, so a created object that
   * failed it stays a partial failure until the program agrees with the service.
   */
  verify?(declared: C, live: R, what: string): void;
  /**
   * The arguments, besides the project, that locate an object, in the order an import id names them before
   * the object's id (a backup's `kaasId`: `<projectId>/<kaasId>/<id>`). None for an object of a project.
   */
  readonly parents: readonly string[];
  /**
   * The arguments of a live object, for `pulumi import`: `lookup` (the project and the parents) and every
   * argument the service answers, so that the program the engine prints from them previews with no change.
   * What the service never answers (a secret, a deadline) is left out.
   */
  importedInputs(lookup: ImportLookup, live: R): Inputs;
  /** The requests that take the object from `olds` to `news`, given the live object; none when equal. */
  plan(olds: C, news: C, live: R): UpdateStep[];
  /** What an update does after its planned requests (a password reset); returns the live object. */
  afterUpdate?(context: HookContext<R> & { olds: C; news: C; live: R }): Promise<R>;
  /** The computed outputs of a live object; `previous` is the state (`{}` on create). */
  computedOf(live: R, previous: Inputs): object;
  /** The computed outputs where they need more calls (kubeconfig, engine version). Default: `computedOf`. */
  outputs?(context: {
    api: VendorContainerClient;
    what: string;
    inputs: C;
    live: R;
    previous: Inputs;
  }): Promise<object>;
  /** The progress line of an accepted delete. Default: `deletion of <id> accepted`. */
  deleteAccepted?(props: C, id: string): string;
}

/** One resource kind, described once: its preview part and its lifecycle part. */
export type KindDescriptor<R extends ServiceObject, C extends KindInputs> = KindPreview<C> &
  KindLifecycle<R, C>;

/** `check` of a described kind: see `checkArguments`. */
export function checkKind<R extends ServiceObject, C extends KindInputs>(
  descriptor: KindDescriptor<R, C>,
  olds: Inputs,
  news: Inputs,
  context: CheckContext,
): CheckResult<C> {
  return checkArguments<C>(descriptor.arguments, olds, news, context);
}

/** `diff` of a described kind: see `diffArguments`. */
export function diffKind<R extends ServiceObject, C extends KindInputs>(
  descriptor: KindDescriptor<R, C>,
  olds: Inputs,
  news: Inputs,
): DiffResult {
  return diffArguments(descriptor.arguments, olds, news, descriptor.extraChanges);
}
