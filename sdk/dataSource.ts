/**
 * What every data source shares. Data sources are functions that read the service with the same configuration
 * as the resources (stack config `vendor:*`, then `VENDOR_*`); they run in the Pulumi program, not in the
 * provider. As in every Pulumi package, each comes in two forms: `getKaas` takes plain values and returns a
 * Promise; `getKaasOutput` takes Inputs (an Output of another resource, such as a cluster's `kaasId`) and
 * returns an Output. Each kind's functions sit with its class (`getKaas` in sdk/kaas.ts, ...).
 */
import * as pulumi from "@pulumi/pulumi";
import type {
  EndpointParams,
  ItemOf,
  ListEndpoint,
  ListQueryOf,
  VendorContainerClient,
} from "../rest/client";
import { collect } from "../rest/paginate";
import type { VendorSettings } from "../rest/settings";
import type { Projected } from "../schemas/projection";
import { programClient } from "./programClient";

/** Where a function finds its settings. Tests pass their own; programs use the stack configuration. */
export interface FunctionOptions {
  /** Overrides of the settings resolved from stack config and environment. */
  settings?: Partial<VendorSettings>;
}

/**
 * The arguments of a function's `...Output` form: each property of `T` may be a `pulumi.Input` (a plain
 * value, a Promise or an Output of another resource).
 */
export type FunctionInputs<T> = { [K in keyof T]: pulumi.Input<T[K]> };

/** Query of a list function; every page is read. */
export interface ListArgs {
  /** Project to list; default `vendor:projectId` (or `VENDOR_PROJECT_ID`). */
  projectId?: string;
  /** Filter in the service grammar, e.g. `metadata.name:eq("prod")` or `status.state:in("Active","Updating")`. */
  filter?: string;
  /** Sort order in the service grammar, e.g. `-metadata.name` for descending names. */
  sort?: string;
  /**
   * Projection in the service grammar: the fields the service should return, e.g. `status`. Passed as is;
   * with it, the function answers the service's objects as projected ({@link Projected}), not the described
   * shape.
   */
  projection?: string;
}

/** The arguments of a list with a projection. */
export type Projecting<A> = A & {
  /** Projection in the service grammar, passed as is, e.g. `status`. */
  projection: string;
};

/** The arguments of a list without a projection. */
export type NotProjecting<A> = A & {
  /** No projection: the function answers the described shapes. */
  projection?: undefined;
};

/**
 * Where the list functions report an item they skip because the client cannot read it (the wording is the
 * REST client's, `rest/paginate.ts`): the program's warnings, as the engine shows them.
 */
export function warnSkipped(fn: string): (line: string) => void {
  return (line) => void pulumi.log.warn(`${fn}: ${line}`);
}

/**
 * Calls `read` once every input is known, with the plain values. While an input is unknown (the preview of a
 * resource not created yet) the result is unknown and the service is not called; a secret input makes the
 * result secret.
 */
export function outputOf<A, R>(args: FunctionInputs<A>, read: (plain: A) => Promise<R>): pulumi.Output<R> {
  // `pulumi.output` unwraps every input to its plain value: the arguments `A`.
  return pulumi.output(args).apply((plain) => read(plain as A));
}

/** The settings of a call and the process's shared client for them (sdk/programClient.ts). */
export function api(options: FunctionOptions = {}): {
  client: VendorContainerClient;
  settings: VendorSettings;
} {
  return programClient(options.settings);
}

/** The project a call reads: `projectId`, or the configured one; throws when there is neither. */
export function project(projectId: string | undefined, settings: VendorSettings): string {
  const id = projectId ?? settings.projectId;
  if (!id)
    throw new Error(
      "projectId is required: pass it, or set stack config vendor:projectId or VENDOR_PROJECT_ID",
    );
  return id;
}

/**
 * The list function named after list endpoint `name` (`listKaas`, `listBackups`, `listRegistries`): every
 * item across all pages, in the project of `args` (or the configured one) and the rest of the path
 * parameters `scope`, as the service projected it when `args.projection` is set, else described by
 * `describe`. An item the client cannot read is left out with a warning naming the function.
 */
export async function listEvery<N extends ListEndpoint, Info>(
  name: N,
  args: ListArgs & Omit<ListQueryOf<N>, keyof ListArgs>,
  options: FunctionOptions | undefined,
  scope: Omit<EndpointParams<N>, "projectId">,
  describe: (item: ItemOf<N>) => Info,
): Promise<Info[] | Projected<ItemOf<N>>[]> {
  const { client, settings } = api(options);
  const { projectId, projection, ...query } = args;
  const params = { ...scope, projectId: project(projectId, settings) } as EndpointParams<N>;
  const onUnreadable = warnSkipped(name);
  // The items are what `ListedAs` says a query with and without a projection holds; the compiler cannot work
  // that out for a generic endpoint.
  if (typeof projection === "string")
    return (await collect(client.iterate(name, params, { ...query, projection, onUnreadable }))) as Projected<
      ItemOf<N>
    >[];
  return ((await collect(client.iterate(name, params, { ...query, onUnreadable }))) as ItemOf<N>[]).map(
    describe,
  );
}
