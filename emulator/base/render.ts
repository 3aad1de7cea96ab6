/**
 * What the renderers of the kinds share (each kind renders its records in its module: `kaas.ts`,
 * `kaasBackups.ts`, `registries.ts`): the rendering context, and the parts every response has in the
 * reference's spellings from api-notes: `metadata` with its location and category, `status` in the wording of
 * the wire reading `states` (config.ts `WireReadings`, read on every rendering, so `PUT /_emulator/config`
 * applies to the next answer), `data.private.phase`, `billingPlan.billingPeriod` in the lower-case
 * `hourly/monthly/yearly` variant, and the URIs of the provider and of preset networks. The integration tests
 * check every answer against its endpoint's response schema.
 */
import { iso } from "./clock";
import type { EmulatorConfigOf, WireReadings } from "./config";
import type { BaseRecord, LifeState } from "./record";
import { PHASE_NAMES } from "./transitions";

/**
 * What rendering needs besides the record. `M` names the records, by kind, that a response may show something
 * of (the `kaas` summary of a backup): the kind modules say which they read.
 */
export interface RenderContext<M = object> {
  namespace: string;
  now: number;
  config: EmulatorConfigOf;
  /** The records of every kind, for what a response shows of another record (the `kaas` summary of a backup). */
  records: { readonly [K in keyof M]: ReadonlyMap<string, M[K]> };
  /** Fill `data.info.version` of registries (only lists with `loadEngineVersion=true` do). */
  loadEngineVersion?: boolean;
}

const BILLING_PERIODS: Record<string, string> = { Hour: "hourly", Month: "monthly", Year: "yearly" };

/** The lower-case billing period answered for `Hour`, `Month`, `Year` (api-notes "KaaS"). */
export function billingPeriodResponse(period: string | null): string {
  if (period === null) return "hourly";
  return BILLING_PERIODS[period] ?? period.toLowerCase();
}

/** The provider path prefix of a project. */
export function providerPrefix(namespace: string, projectId: string): string {
  return `/projects/${projectId}/providers/${namespace}`;
}

/** The number at the end of an id (`kaas-0007`: 7), 0 for none. */
export function numberOf(id: string): number {
  return Number(/(\d+)$/.exec(id)?.[1] ?? 0);
}

function locationResponse(value: string) {
  const [region, city] = value.split("-", 2);
  return {
    code: value,
    country: /^[A-Za-z]{2}/.test(region) ? region.slice(0, 2).toUpperCase() : null,
    city: city ?? null,
    name: value,
    value,
  };
}

/**
 * The `metadata` and `status` every response opens with: `uri` and the `typology` of the resource are the
 * kind's, the vocabulary of states the configuration's (`wire.states`).
 */
export function objectResponse(
  rec: BaseRecord,
  uri: string,
  ctx: Pick<RenderContext, "namespace" | "config">,
  typology: { id: string; name: string },
) {
  return {
    metadata: metadataResponse(rec, uri, ctx.namespace, typology),
    status: statusResponse(rec, ctx.config.wire.states),
  };
}

/** The `metadata` of a response: `uri` and the `typology` of the resource are the kind's. */
function metadataResponse(
  rec: BaseRecord,
  uri: string,
  namespace: string,
  typology: { id: string; name: string },
) {
  return {
    id: rec.id,
    uri,
    name: rec.name,
    location: locationResponse(rec.location),
    project: { id: rec.projectId },
    tags: [...rec.tags],
    category: { name: "Container", provider: namespace, typology },
    creationDate: iso(rec.createdAt),
    createdBy: "emulator",
    updateDate: iso(rec.updatedAt),
    updatedBy: "emulator",
    version: String(rec.version),
  };
}

/**
 * The `status.state` each lifecycle state answers under each `states` reading (config.ts `WireReadings`). The
 * emulator reasons on its own states; only responses, and so list filters on `status.state`, see these.
 */
export const STATE_VOCABULARIES: {
  readonly [V in WireReadings["states"]]: Readonly<Record<LifeState, string>>;
} = {
  service: {
    InCreation: "InCreation",
    Updating: "Updating",
    Deleting: "Deleting",
    Active: "Active",
    Failed: "Failed",
    Deleted: "Deleted",
  },
  upper: {
    InCreation: "INCREATION",
    Updating: "UPDATING",
    Deleting: "DELETING",
    Active: "ACTIVE",
    Failed: "FAILED",
    Deleted: "DELETED",
  },
  alternate: {
    InCreation: "Starting",
    Updating: "Changing",
    Deleting: "Removing",
    Active: "Ready",
    Failed: "Broken",
    Deleted: "Removed",
  },
};

/** The `status` of a response, its state in the wording of the reading `states`. */
function statusResponse(rec: BaseRecord, states: WireReadings["states"]) {
  const failed = rec.life.state === "Failed";
  const disabledReasons = rec.disabledReasons ?? [];
  return {
    state: STATE_VOCABULARIES[states][rec.life.state],
    creationDate: iso(rec.createdAt),
    failureReason: failed ? rec.life.failureReason : null,
    error: failed ? { reason: null, message: rec.life.failureReason } : null,
    disableStatusInfo: {
      isDisabled: disabledReasons.length > 0,
      reasons: [...disabledReasons],
      previousStatus: null,
    },
  };
}

/** The informational `data.private.phase` of a response. */
export function phase(rec: BaseRecord) {
  return { name: PHASE_NAMES[rec.life.state], startDate: iso(rec.life.since) };
}

/** When provisioning completed, once the resource is usable (`provisioned`); null before, or when it failed. */
export function provisionedAt(rec: BaseRecord): number | null {
  return provisioned(rec) ? rec.provisionedAt : null;
}

/** Whether provisioning has completed and the resource is usable (drives output-only fields). */
export function provisioned(rec: BaseRecord): boolean {
  return rec.provisionedAt !== null && rec.life.state !== "Failed";
}

/** The subnet URI of a cluster or registry: the given one, or the one the preset created. */
export function presetSubnetUri(
  rec: BaseRecord,
  props: { preset: boolean; subnetUri: string | null },
): string | null {
  return (
    props.subnetUri ??
    (props.preset
      ? `/projects/${rec.projectId}/providers/Vendor.Network/vpcs/vpc-${rec.id}/subnets/subnet-${rec.id}`
      : null)
  );
}
