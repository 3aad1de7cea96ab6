/**
 * The resource kinds of the emulator, one line each: the composition (store and service, seeding, faults, the
 * state snapshot) and the transport (routes, the control API, the command line) are written once over this
 * list, and everything the emulator knows about one kind lives in its folder (`kinds/<kind>/`; the contract a
 * kind module implements is `generic/kind.ts`). Adding a kind means its folder, its line here and its line in
 * `EMULATED_AS` (and its endpoints in `schemas/endpoints.ts`). The kinds' durations, with the base ones, are the
 * emulator's `Durations` (`composition/config.ts` derives their defaults and the command line's options).
 *
 * The order is the order of the state file's fields, of the state snapshot, and of settling.
 */
import type { KindName } from "../../schemas/kinds";
import type { EmulatorConfigInputOf, EmulatorConfigOf } from "../base/config";
import type { BASE_DURATIONS, DurationsOf } from "../base/durations";
import type { KindModule, UnionToIntersection } from "../generic/kind";
import type { Service } from "../generic/service";
import type { Store } from "../generic/store";
import { kaasKind } from "./kaas/kind";
import { kaasBackupKind } from "./kaasBackup/kind";
import { registryKind } from "./registry/kind";

const KIND_MODULES = {
  kaas: kaasKind,
  backup: kaasBackupKind,
  registry: registryKind,
};

type Modules = typeof KIND_MODULES;

/** Kind names, as used in ids (`kaas-0001`) and in the control API. */
export type Kind = keyof Modules;

/** The emulator's registry of the package's kinds: the emulator's kind of every kind of schemas/kinds.ts. */
export type EmulatedAsRegistry = Record<KindName, Kind>;

/**
 * The emulator's kind that serves each kind of the package (`schemas/kinds.ts`), so that a kind of the package
 * the emulator does not serve does not compile. `VolumeAttachment` is served by the cluster: the service has no
 * attachment objects, an attachment is a state of its cluster (spec §4.1 "Volumes"), so the emulator stores it in
 * the cluster's record and serves it from the cluster's endpoints (`kinds/kaas/volumes.ts`).
 */
export const EMULATED_AS = {
  Kaas: "kaas",
  KaasBackup: "backup",
  Registry: "registry",
  VolumeAttachment: "kaas",
} as const satisfies EmulatedAsRegistry;

/** A kind of the list that serves no kind of the package: none, or this does not compile. */
type Unserved = Exclude<Kind, (typeof EMULATED_AS)[KindName]>;
const everyKindServes: [Unserved] extends [never] ? true : Unserved = true;
void everyKindServes;

/** The parts of the module of kind K. */
type PartsOf<K extends Kind> =
  Modules[K] extends KindModule<
    K,
    infer R,
    infer Response,
    infer StateField,
    infer Endpoint,
    infer _View,
    infer Durations
  >
    ? { record: R; response: Response; stateField: StateField; endpoint: Endpoint; durations: Durations }
    : never;

/** The record of each kind, by kind name. */
export type RecordByKind = { [K in Kind]: PartsOf<K>["record"] };

/** The response object of each kind, by kind name. */
export type ResponseByKind = { [K in Kind]: PartsOf<K>["response"] };

/** The field of the state file that holds each kind's records, by kind name. */
export type StateFieldByKind = { [K in Kind]: PartsOf<K>["stateField"] };

/** The endpoints of each kind, by kind name. */
export type EndpointByKind = { [K in Kind]: PartsOf<K>["endpoint"] };

/** The declarations of each kind's durations (`KindModule.durations`), by kind name. */
export type DurationSpecsByKind = { [K in Kind]: PartsOf<K>["durations"] };

/** Every duration of the emulator: each kind's (`KindModule.durations`) and those that are no kind's own. */
export type EmulatorDurationSpecs = typeof BASE_DURATIONS & UnionToIntersection<DurationSpecsByKind[Kind]>;

/**
 * Durations (milliseconds) of every asynchronous operation, measured on the emulator clock, by the name of the
 * option that sets each (`kaasCreateMs`); each is documented where its kind declares it.
 */
export type Durations = DurationsOf<EmulatorDurationSpecs>;

/** The whole run-time configuration of the emulator. */
export type EmulatorConfig = EmulatorConfigOf<Durations>;

/** Configuration input (`updateConfig`, `PUT /_emulator/config`): versions may be given as plain strings. */
export type EmulatorConfigInput = EmulatorConfigInputOf<Durations>;

/** Any stored resource. */
export type AnyRecord = RecordByKind[Kind];

/** A response object of any kind. */
export type AnyResponse = ResponseByKind[Kind];

/**
 * The module of each kind, by kind name, typed so that the composition can index it with a generic kind. Each
 * module reads only the records it names (its view); every view is a part of `RecordByKind`.
 */
export type KindTable = {
  readonly [K in Kind]: KindModule<
    K,
    RecordByKind[K],
    ResponseByKind[K],
    StateFieldByKind[K],
    EndpointByKind[K],
    RecordByKind,
    DurationSpecsByKind[K]
  >;
};

/** Every kind's module. */
export const KINDS: KindTable = KIND_MODULES;

/** Every endpoint that some kind handles. */
export type HandledEndpoint = EndpointByKind[Kind];

/** The store of the emulator: the records of every kind. */
export type EmulatorStore = Store<RecordByKind, Durations>;

/** The service of the emulator, over the records and the durations of every kind. */
export type EmulatorService = Service<RecordByKind, Durations>;

/** The persisted document: the records of each kind under its state-file field (`KindModule.stateField`). */
export type StateDocument = {
  format: "pulumi-vendor-container-emulator/1";
  clockOffsetMs: number;
  counters: Record<Kind, number>;
} & { [K in Kind as StateFieldByKind[K]]: RecordByKind[K][] };
