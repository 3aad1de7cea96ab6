/**
 * Runs the policy pack's rules the way `@pulumi/policy` runs them in the analyzer: properties behind the
 * library's own unknown-checking proxy (reading an unknown through it throws), URNs of a named stack, property
 * dependencies as resource objects, and the configuration the engine sends (here, what the test gives).
 */
import {
  unknownCheckingProxy,
  type PolicyResource,
  type ReportViolation,
  type ResourceValidationArgs,
  type ResourceValidationPolicy,
  type StackValidationArgs,
  type StackValidationPolicy,
} from "@pulumi/policy";
import * as proxyModule from "@pulumi/policy/proxy";
import type { KindName } from "../../../provider";
import { typeToken } from "../../../policy/values";

/** The unknown markers of `@pulumi/policy` (internal exports of its proxy module), by the type they stand for. */
const sentinels = proxyModule as unknown as Record<string, string>;
export const UNKNOWN = {
  string: sentinels.unknownStringValue,
  boolean: sentinels.unknownBooleanValue,
  number: sentinels.unknownNumberValue,
  array: sentinels.unknownArrayValue,
  object: sentinels.unknownObjectValue,
};
/** Every unknown marker the library defines. */
export const ALL_UNKNOWN_MARKERS = Object.entries(sentinels)
  .filter(([key, value]) => /^unknown\w+Value$/.test(key) && typeof value === "string")
  .map(([, value]) => value);

/** A violation: the message, and the URN given with it (stack rules name the resource that way). */
export interface Reported {
  message: string;
  urn?: string;
}

export const urnOf = (kind: KindName, name: string, stack = "prod") =>
  `urn:pulumi:${stack}::platform::${typeToken(kind)}::${name}`;

const notApplicable = (reason?: string): never => {
  throw new Error(`notApplicable(${reason ?? ""})`);
};

/** Runs a resource rule on one resource; resolves with what it reported. */
export async function runResourcePolicy(
  policy: ResourceValidationPolicy,
  kind: KindName,
  name: string,
  props: Record<string, unknown>,
  options: { stack?: string; config?: Record<string, unknown>; type?: string } = {},
): Promise<Reported[]> {
  const reported: Reported[] = [];
  const report: ReportViolation = (message, urn) => reported.push(urn ? { message, urn } : { message });
  const proxied = unknownCheckingProxy(props) as Record<string, unknown>;
  const args: ResourceValidationArgs = {
    type: options.type ?? typeToken(kind),
    props: proxied,
    urn: urnOf(kind, name, options.stack),
    name,
    opts: {
      protect: false,
      ignoreChanges: [],
      aliases: [],
      customTimeouts: { createSeconds: 0, updateSeconds: 0, deleteSeconds: 0 },
      additionalSecretOutputs: [],
    },
    stackTags: new Map(),
    isType: () => false,
    asType: () => undefined,
    getConfig: <T extends object>() => (options.config ?? {}) as T,
    notApplicable,
  };
  const validations = Array.isArray(policy.validateResource)
    ? policy.validateResource
    : [policy.validateResource!];
  for (const validate of validations) await validate(args, report);
  return reported;
}

/** One resource of a stack for {@link runStackPolicy}. */
export interface StackEntry {
  kind: KindName;
  name: string;
  props: Record<string, unknown>;
  /** Names of the resources each property takes an output of (`{ kaasId: ["cluster"] }`). */
  dependsOn?: Record<string, string[]>;
  /** Its type token; default the kind's dynamic one (`typeToken`). */
  type?: string;
}

/** Runs a stack rule on the resources of stack `stack`; resolves with what it reported. */
export async function runStackPolicy(
  policy: StackValidationPolicy,
  entries: StackEntry[],
  options: { stack?: string; config?: Record<string, unknown> } = {},
): Promise<Reported[]> {
  const reported: Reported[] = [];
  const report: ReportViolation = (message, urn) => reported.push(urn ? { message, urn } : { message });
  const byName = new Map<string, PolicyResource>();
  const resources = entries.map((entry) => {
    const resource: PolicyResource = {
      type: entry.type ?? typeToken(entry.kind),
      props: unknownCheckingProxy(entry.props) as Record<string, unknown>,
      urn: urnOf(entry.kind, entry.name, options.stack),
      name: entry.name,
      opts: {
        protect: false,
        ignoreChanges: [],
        aliases: [],
        customTimeouts: { createSeconds: 0, updateSeconds: 0, deleteSeconds: 0 },
        additionalSecretOutputs: [],
      },
      dependencies: [],
      propertyDependencies: {},
      isType: () => false,
      asType: () => undefined,
    };
    byName.set(entry.name, resource);
    return resource;
  });
  entries.forEach((entry, i) => {
    for (const [property, names] of Object.entries(entry.dependsOn ?? {})) {
      const deps = names.map((n) => byName.get(n)!);
      resources[i].propertyDependencies[property] = deps;
      resources[i].dependencies.push(...deps);
    }
  });
  const args: StackValidationArgs = {
    resources,
    stackTags: new Map(),
    getConfig: <T extends object>() => (options.config ?? {}) as T,
    notApplicable,
  };
  await policy.validateStack(args, report);
  return reported;
}
