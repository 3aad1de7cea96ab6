/**
 * The resource kinds of the emulator, one line each: the shared code (store, service, the list, get and delete
 * of `resources.ts`, routes, seeding, the control API) is written once over this list, and everything the
 * emulator knows about one kind lives in its module (`kind.ts` says what a module holds). Adding a kind means
 * its module and its line here (and its endpoints in `schemas/endpoints.ts`).
 *
 * The order is the order of the state file's fields, of the state snapshot, and of settling.
 *
 * Kind modules import nothing from here at run time: the store is given the list when it is built
 * (`core.ts`), and the shared modules that kind modules import (`service.ts`, `store.ts`, `render.ts`,
 * `resources.ts`) reach it through the store, so no import cycle runs through a kind module.
 */
import type { KindModule } from "../generic/kind";
import { kaasKind } from "./kaas/kind";
import { backupKind } from "./kaasBackup/kind";
import { registryKind } from "./registry/kind";

const KIND_MODULES = {
  kaas: kaasKind,
  backup: backupKind,
  registry: registryKind,
};

type Modules = typeof KIND_MODULES;

/** Kind names, as used in ids (`kaas-0001`) and in the control API. */
export type Kind = keyof Modules;

/** The parts of the module of kind K. */
type PartsOf<K extends Kind> =
  Modules[K] extends KindModule<infer R, infer Response, infer StateField, infer Endpoint>
    ? { record: R; response: Response; stateField: StateField; endpoint: Endpoint }
    : never;

/** The record of each kind, by kind name. */
export type RecordByKind = { [K in Kind]: PartsOf<K>["record"] };

/** The response object of each kind, by kind name. */
export type ResponseByKind = { [K in Kind]: PartsOf<K>["response"] };

/** The field of the state file that holds each kind's records, by kind name. */
export type StateFieldByKind = { [K in Kind]: PartsOf<K>["stateField"] };

/** The endpoints of each kind, by kind name. */
export type EndpointByKind = { [K in Kind]: PartsOf<K>["endpoint"] };

/** Any stored resource. */
export type AnyRecord = RecordByKind[Kind];

/** A response object of any kind. */
export type AnyResponse = ResponseByKind[Kind];

/** The module of each kind, by kind name, typed so that the shared code can index it with a generic kind. */
export type KindTable = {
  readonly [K in Kind]: KindModule<
    RecordByKind[K],
    ResponseByKind[K],
    StateFieldByKind[K],
    EndpointByKind[K]
  >;
};

/** Every kind's module. */
export const KINDS: KindTable = KIND_MODULES;

/** Every endpoint that some kind handles. */
export type HandledEndpoint = EndpointByKind[Kind];
