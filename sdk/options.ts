/**
 * Resource options as the classes honour them. A dynamic provider never receives the engine's resource options
 * (dynamic-provider notes: `customTimeouts` never reach it, and its diff carries no changed-property list for
 * `replaceOnChanges`), so each class constructor turns the options its provider must know into inputs, and
 * refuses the ones that cannot work before anything reaches the service.
 */
import * as pulumi from "@pulumi/pulumi";
import type { Timeouts } from "../provider/common/timeouts";
import type { KindName } from "../provider";

/** The operations of `timeouts` and of Pulumi's `customTimeouts`. */
const OPERATIONS = ["create", "update", "delete"] as const;

/** A duration as `timeouts` accepts it: hours, minutes and seconds, in that order, each optional. */
const DURATION = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/;

/**
 * Milliseconds of a duration written like Pulumi's `customTimeouts` (`"30m"`, `"1h"`, `"90s"`, `"1h30m"`), or
 * undefined when `text` is not one (or is zero).
 */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim();
  const match = DURATION.exec(trimmed);
  if (!match || trimmed === "") return undefined;
  const ms = (Number(match[1] ?? 0) * 3600 + Number(match[2] ?? 0) * 60 + Number(match[3] ?? 0)) * 1000;
  return ms > 0 ? ms : undefined;
}

/** How a constructor's errors name the resource: `Registry "images"`. */
const subject = (kind: KindName, name: string) => `${kind} "${name}"`;

/**
 * The `timeouts` entries that `customTimeouts` sets, each checked. Throws naming the option and the value for
 * an entry that is not a duration.
 */
export function timeoutsFromCustomTimeouts(
  kind: KindName,
  name: string,
  custom: pulumi.CustomTimeouts | undefined,
): Timeouts {
  const out: Timeouts = {};
  for (const op of OPERATIONS) {
    const value = custom?.[op];
    if (value === undefined) continue;
    if (typeof value !== "string" || parseDuration(value) === undefined) {
      throw new Error(
        `${subject(kind, name)}: customTimeouts.${op} must be a duration like "30m", "1h", "90s" or ` +
          `"1h30m", got ${JSON.stringify(value)}`,
      );
    }
    out[op] = value.trim();
  }
  return out;
}

/**
 * `timeouts` and `customTimeouts` merged: an operation set by one only takes that value; an operation both
 * set to the same duration takes it; one they set to different durations is refused, naming both, since
 * either choice would silently ignore the other.
 */
export function mergeTimeouts(
  kind: KindName,
  name: string,
  declared: Timeouts | undefined,
  custom: Timeouts,
): Timeouts | undefined {
  if (Object.keys(custom).length === 0) return declared;
  const merged: Timeouts = { ...(declared ?? {}) };
  for (const op of OPERATIONS) {
    const extra = custom[op];
    if (extra === undefined) continue;
    const own = declared?.[op];
    if (own === undefined || own === null) {
      merged[op] = extra;
    } else if (typeof own === "string" && parseDuration(own) !== parseDuration(extra)) {
      throw new Error(
        `${subject(kind, name)}: timeouts.${op} is "${own}" but the customTimeouts option sets ${op} to ` +
          `"${extra}"; set it in one place only`,
      );
    }
  }
  return merged;
}

/** True when `value` holds an Output or a Promise at its top level or in one of its entries. */
function isDeferred(value: unknown): boolean {
  const deferred = (v: unknown) => pulumi.Output.isInstance(v) || v instanceof Promise;
  if (deferred(value)) return true;
  return value !== null && typeof value === "object" && Object.values(value).some(deferred);
}

/**
 * The `timeouts` input a class sends: the `timeouts` argument with `customTimeouts` merged in
 * (`mergeTimeouts`). A plain argument is merged at once, so a conflict fails the constructor; one that is an
 * Output is merged when it resolves.
 */
export function timeoutsInput(
  kind: KindName,
  name: string,
  declared: pulumi.Input<unknown>,
  opts: pulumi.CustomResourceOptions | undefined,
): pulumi.Input<unknown> {
  const custom = timeoutsFromCustomTimeouts(kind, name, opts?.customTimeouts);
  if (Object.keys(custom).length === 0) return declared;
  // The class's `timeouts` argument, which the class's arguments type as `Timeouts`.
  if (!isDeferred(declared)) return mergeTimeouts(kind, name, declared as Timeouts | undefined, custom);
  return (
    pulumi
      // As above, while some of it is still to be resolved.
      .output(declared as pulumi.Input<Timeouts | undefined>)
      .apply((value) => mergeTimeouts(kind, name, value, custom))
  );
}

/**
 * Refuses the `import` resource option: the engine's import reads the object through a dynamic provider
 * whose code it does not have yet, and fails with a gRPC error that does not say what to do (#16175). The
 * `adoptId` argument takes an existing object over instead, checked against the declared arguments.
 */
export function refuseImport(
  kind: KindName,
  name: string,
  opts: pulumi.CustomResourceOptions | undefined,
): void {
  if (opts?.import === undefined) return;
  // Typed as a string, but a JavaScript program may pass anything: only a string is quoted back.
  const id = typeof opts.import === "string" ? opts.import : "<id>";
  throw new Error(
    `${subject(kind, name)}: the "import" resource option does not work for this package's resources ` +
      `(Pulumi cannot import into a dynamic resource). To take over the existing object, remove "import" ` +
      `and set the argument adoptId instead: new ${kind}("${name}", { ...args, adoptId: "${id}" })`,
  );
}

/**
 * The inputs a class sends for the options its provider honours: `timeouts` with `customTimeouts` merged in,
 * and `replaceOnChanges` (the provider's diff replaces the resource when one of the named arguments
 * changes). Refuses the `import` option first.
 */
export function optionInputs(
  kind: KindName,
  name: string,
  declaredTimeouts: pulumi.Input<unknown>,
  opts: pulumi.CustomResourceOptions | undefined,
): { timeouts?: pulumi.Input<unknown>; replaceOnChanges?: string[] } {
  refuseImport(kind, name, opts);
  const inputs: { timeouts?: pulumi.Input<unknown>; replaceOnChanges?: string[] } = {
    timeouts: timeoutsInput(kind, name, declaredTimeouts, opts),
  };
  if (opts?.replaceOnChanges !== undefined) inputs.replaceOnChanges = [...opts.replaceOnChanges];
  return inputs;
}

/**
 * The props of a read-only resource (`get`): the bookkeeping its provider's `read` needs, and `readOnly`, by
 * which `read` tells a `get` of a missing object (an error) from a refresh of a deleted one (dropped from the
 * state). Every other input stays unset: `read` fills them from the live object.
 */
export function readOnlyProps(scope: string, lookup: Record<string, pulumi.Input<string | undefined>> = {}) {
  return { ...lookup, creationScope: scope, readOnly: true };
}
