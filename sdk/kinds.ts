/**
 * The SDK by kind: every kind of `KIND_NAMES` (schemas/kinds.ts) has its class and its functions here, so a kind
 * left out does not compile. Not part of the package's entry point (sdk/index.ts exports each by its name).
 */
import type * as pulumi from "@pulumi/pulumi";
import type { KindName } from "../schemas/kinds";
import {
  getKaas,
  getKaasOutput,
  getKubeconfig,
  getKubeconfigOutput,
  Kaas,
  listKaas,
  listKaasOutput,
} from "./kaas";
import { KaasBackup, listBackups, listBackupsOutput } from "./kaasBackup";
import { getRegistry, getRegistryOutput, listRegistries, listRegistriesOutput, Registry } from "./registry";
import { VolumeAttachment } from "./volumeAttachment";

/** The SDK's registry of classes: one for every kind. */
export type ResourceClassRegistry = Record<
  KindName,
  abstract new (...args: never[]) => pulumi.CustomResource
>;

/** The SDK's registry of functions: every kind's, or null for a kind with none. */
export type FunctionRegistry = Record<
  KindName,
  Readonly<Record<string, (...args: never[]) => unknown>> | null
>;

/** The class of each kind; its name is the kind's, as its type token ends (`...:vendor-container:Kaas`). */
export const RESOURCE_CLASSES = {
  Kaas,
  KaasBackup,
  Registry,
  VolumeAttachment,
} as const satisfies ResourceClassRegistry;

/**
 * The functions that read each kind, each with its `...Output` form. A VolumeAttachment has none: it is no
 * object of the service, whose clusters show attachments only where they show them at all (api-notes
 * "Attachments"), so there is nothing of its own to read.
 */
export const FUNCTIONS = {
  Kaas: { getKaas, getKaasOutput, listKaas, listKaasOutput, getKubeconfig, getKubeconfigOutput },
  KaasBackup: { listBackups, listBackupsOutput },
  Registry: { getRegistry, getRegistryOutput, listRegistries, listRegistriesOutput },
  VolumeAttachment: null,
} as const satisfies FunctionRegistry;

/** The name of every function of the SDK but their `...Output` forms: `getKaas`, `listBackups`, ... */
export type FunctionName = {
  [K in KindName]: (typeof FUNCTIONS)[K] extends null
    ? never
    : Exclude<Extract<keyof (typeof FUNCTIONS)[K], string>, `${string}Output`>;
}[KindName];
