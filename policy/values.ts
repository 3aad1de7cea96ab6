/**
 * What every rule of the policy pack reads: the plain values of a resource's properties (unknowns kept as
 * markers), the stack a resource belongs to, stack-name patterns, and how a rule names a resource's property.
 */
import type { PolicyResource } from "@pulumi/policy";
import type { KindName } from "../provider";
import { dynamicTypeToken, pluginTypeToken } from "../provider/kinds";

/** The engine's type token of a kind's dynamic resources: `pulumi-nodejs:dynamic/vendor-container:<Kind>`. */
export const typeToken = (kind: KindName): string => dynamicTypeToken(kind);

/**
 * Whether `type` is a resource of `kind`: the dynamic resources' type, or the provider plugin's
 * (`vendor-container:index:<Kind>`, the resources of programs in any language), whose inputs are the same.
 */
export const isKindType = (type: string, kind: KindName): boolean =>
  type === dynamicTypeToken(kind) || type === pluginTypeToken(kind);

/**
 * The strings `@pulumi/policy` puts where the engine sent an unknown value (a value that depends on a resource
 * not created yet, at preview), one per type the engine gave the unknown (string, boolean, number, array,
 * asset, archive, object).
 */
const UNKNOWN_SENTINELS: ReadonlySet<unknown> = new Set([
  "04da6b54-80e4-46f7-96ec-b56ff0331ba9",
  "1c4a061d-8072-4f0a-a4cb-0ff528b18fe7",
  "3eeb2bf0-c639-47a8-9e75-3b44932eb421",
  "6a19a0b0-7e62-4c92-b797-7f8e31da9cc2",
  "030794c1-ac77-496b-92df-f27374a8bd58",
  "e48ece36-62e2-4504-bad9-02848725956a",
  "dd056dcd-154b-4c76-9bd3-c8f88648b5ff",
]);

/** True for a value that is not known yet (at preview): the rules never judge it. */
export const isUnknown = (value: unknown): boolean => UNKNOWN_SENTINELS.has(value);

/** Plain JSON values of a resource's properties. */
export type Props = Record<string, unknown>;

/**
 * The properties as plain values, unknowns left as their markers. `@pulumi/policy` hands rules a proxy that
 * throws when an unknown value is read, which turns the whole rule into an advisory "can't run during preview"
 * note; reading each property's own descriptor bypasses the proxy, so a rule can skip just the unknown values
 * and still judge the known ones.
 */
export function plainProps(props: Props): Props {
  const out: Props = {};
  for (const key of Object.keys(props)) out[key] = Object.getOwnPropertyDescriptor(props, key)?.value;
  return out;
}

/** The stack of a URN (`urn:pulumi:<stack>::<project>::<type>::<name>`). */
export function stackOfUrn(urn: string): string {
  const head = urn.split("::")[0];
  return head.startsWith("urn:pulumi:") ? head.slice("urn:pulumi:".length) : head;
}

/** True when `name` matches one of `patterns`, where `*` stands for any run of characters. */
export function matchesAny(patterns: readonly string[], name: string): boolean {
  return patterns.some((pattern) => {
    const source = pattern
      .split("*")
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
      .join(".*");
    return new RegExp(`^${source}$`).test(name);
  });
}

/** `Kaas "cluster"`: how every message names the resource it is about. */
export const named = (kind: KindName, name: string): string => `${kind} "${name}"`;

/** A stack's resource of one kind, with plain properties. */
export interface StackResource {
  urn: string;
  name: string;
  props: Props;
  /** URNs each property depends on (`kaasId: [<the cluster's URN>]` for `kaasId: cluster.kaasId`). */
  dependsOn: Record<string, string[]>;
}

/** The resources of `kind` among a stack's resources. */
export function resourcesOfKind(resources: PolicyResource[], kind: KindName): StackResource[] {
  return resources
    .filter((r) => isKindType(r.type, kind))
    .map((r) => ({
      urn: r.urn,
      name: r.name,
      props: plainProps(r.props),
      dependsOn: Object.fromEntries(
        Object.entries(r.propertyDependencies ?? {}).map(([key, deps]) => [key, deps.map((d) => d.urn)]),
      ),
    }));
}

/**
 * The clusters of `clusters` that the `kaasId` of `dependent` (a backup or an attachment) designates: the
 * cluster whose `kaasId` output it was taken from (a property dependency, the only link while the cluster is
 * not created yet), or the cluster whose known `kaasId` equals it.
 */
export function clusterOf(dependent: StackResource, clusters: StackResource[]): StackResource | undefined {
  const fromOutput = dependent.dependsOn.kaasId ?? [];
  const kaasId = dependent.props.kaasId;
  return clusters.find(
    (c) =>
      fromOutput.includes(c.urn) ||
      (typeof kaasId === "string" && !isUnknown(kaasId) && c.props.kaasId === kaasId),
  );
}

/** Settings of a policy: what the user configured over the defaults. */
// The copy of `defaults` takes values of `configured` only for keys `defaults` has: it is still a `T`. The
// signature says so once.
export function settings<T extends object>(defaults: T, configured: Partial<T>): T;
export function settings(defaults: object, configured: object): Record<string, unknown> {
  const out: Record<string, unknown> = { ...defaults };
  for (const [key, value] of Object.entries(configured)) {
    if (value !== undefined && key in defaults) out[key] = value;
  }
  return out;
}

/** `2026-06-30` from an ISO date-time. */
export const day = (date: Date): string => date.toISOString().slice(0, 10);
