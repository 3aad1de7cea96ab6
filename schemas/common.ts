/**
 * Wire schemas shared by every resource kind of the Vendor.Container service.
 *
 * Each schema is written once with TypeBox: the TypeScript types are derived from it (`Static`), the REST
 * client validates request bodies with it before any I/O, and the emulator validates the same bodies with
 * the very same objects, so client and server cannot drift. Request bodies reject unknown properties
 * (spec §2: "All objects reject unknown properties"); response schemas only pin the fields the provider
 * relies on and tolerate extra fields and the known spelling variants (api-notes "Envelopes").
 */
import { Type, type Static, type TProperties, type TSchema } from "@sinclair/typebox";

/** A value that may be `null` on the wire ("nullable" in spec §2). */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** Strict object: the service rejects unknown properties in request bodies (spec §2). */
export const Strict = <P extends Parameters<typeof Type.Object>[0]>(properties: P) =>
  Type.Object(properties, { additionalProperties: false });

/** A field that may be absent or `null`. */
export const Maybe = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));

/** A response object that may be absent or `null`. */
export const MaybeObject = <P extends TProperties>(properties: P) => Maybe(Type.Object(properties));

/** A string field that may be absent or `null`. */
const maybeString = () => Maybe(Type.String());

/** Whether `fields` holds a field under each of `names`. */
function hasEvery<K extends string, V>(
  fields: Partial<Record<K, V>>,
  names: readonly K[],
): fields is Record<K, V> {
  return names.every((name) => fields[name] !== undefined);
}

/** A run of string fields that may each be absent or `null`, in the order `names` gives them. */
export function MaybeStrings<K extends string>(...names: K[]): Record<K, ReturnType<typeof maybeString>> {
  const fields: Partial<Record<K, ReturnType<typeof maybeString>>> = {};
  for (const name of names) fields[name] = maybeString();
  if (!hasEvery(fields, names)) throw new Error("MaybeStrings: a field is missing");
  return fields;
}

/** ISO 8601 date-time string (spec §2 types). */
export const DateTime = Type.String({ format: "date-time" });

/** int32 as the service declares it. */
export const Int32 = Type.Integer({ minimum: -2147483648, maximum: 2147483647 });

/** `{value}` location reference of request metadata. Location never changes after create. */
export const LocationRequest = Strict({ value: Type.String({ minLength: 1 }) });

/**
 * Request metadata (`MetadataDto`, spec §2.1, filled from the reference): `{name, location: {value}, tags?}`.
 * `location` is optional because an update must omit it entirely when no region is set (spec §9).
 */
export const MetadataRequest = Strict({
  name: Type.String({ minLength: 1 }),
  location: Type.Optional(LocationRequest),
  tags: Maybe(Type.Array(Type.String())),
});
export type MetadataRequest = Static<typeof MetadataRequest>;

/** Input reference to another resource by URI (spec §2.8). */
export const UriRef = Strict({ uri: Type.String({ minLength: 1 }) });

/** Output reference to another resource by URI (spec §2.8): the URI may be null. */
export const UriRefResponse = Type.Object({ uri: Maybe(Type.String()) });

/**
 * The network of an answer whose object may live in a network the service made for it (`preset`): its VPC and
 * subnet, as clusters and registries answer them.
 */
export const PresetNetworkResponse = {
  preset: Maybe(Type.Boolean()),
  vpc: Maybe(UriRefResponse),
  subnet: Maybe(UriRefResponse),
};

/** Billing period values the service accepts on input (api-notes "KaaS"). */
export const BillingPeriodRequest = Type.Union([
  Type.Literal("Hour"),
  Type.Literal("Month"),
  Type.Literal("Year"),
]);

/** Billing plan on input: `{billingPeriod}` (spec §2.2 "not shown", filled from the reference). */
export const BillingPlanRequest = Strict({ billingPeriod: Nullable(BillingPeriodRequest) });

/** Billing plan as answered: the period may come back as `hourly/monthly/yearly` (api-notes). */
export const BillingPlanResponse = Type.Object({ billingPeriod: Maybe(Type.String()) });

/** Response location: `{code, country, city, name, value}`, all optional. */
export const LocationResponse = Type.Object(MaybeStrings("code", "country", "city", "name", "value"));

/**
 * Response category: `typology` is the resource's type in the service's catalogue (for a cluster, its cluster
 * type, whose limits the spec lists in §2.8 "Cluster type configuration").
 */
export const CategoryResponse = Type.Object({
  ...MaybeStrings("name", "provider"),
  typology: MaybeObject(MaybeStrings("id", "name")),
});

/**
 * A linked resource as responses show it (`LinkedResourceResponseDto` of the published interface: `uri`
 * and `strictCorrelation`). Where the service lists attached volumes this way is unconfirmed (api-notes
 * "What the published interface does not show"); the VolumeAttachment provider reads it when present.
 */
export const LinkedResourceResponse = Type.Object({
  uri: Maybe(Type.String()),
  strictCorrelation: Maybe(Type.Boolean()),
});
export type LinkedResourceResponse = Static<typeof LinkedResourceResponse>;

/** Response metadata: the provider relies on `id`; the rest is informational. */
export const MetadataResponse = Type.Object({
  id: Type.String({ minLength: 1 }),
  ...MaybeStrings("uri", "name"),
  location: Maybe(LocationResponse),
  project: MaybeObject({ id: Maybe(Type.String()) }),
  tags: Maybe(Type.Array(Type.String())),
  category: Maybe(CategoryResponse),
  ...MaybeStrings("creationDate", "createdBy", "updateDate", "updatedBy", "version"),
  linkedResources: Maybe(Type.Array(LinkedResourceResponse)),
});
export type MetadataResponse = Static<typeof MetadataResponse>;

/** Response status (`StatusResponseDto`): `state` drives every wait. */
export const StatusResponse = Type.Object({
  ...MaybeStrings("state", "creationDate", "failureReason"),
  error: MaybeObject(MaybeStrings("reason", "message")),
  disableStatusInfo: MaybeObject({
    isDisabled: Type.Optional(Type.Boolean()),
    reasons: Maybe(Type.Array(Type.String())),
  }),
});
export type StatusResponse = Static<typeof StatusResponse>;

/** `data.private.phase` of KaaS and Backup responses; informational only (api-notes). */
export const Phase = Type.Object(MaybeStrings("name", "startDate"));

/** A field-level error in both spellings seen: `{field, message}` (docs) and `{fieldName, errorMessage}` (wire). */
export const FieldError = Type.Object({
  /** The field the service refused (documentation spelling). */
  field: Maybe(Type.String()),
  /** Why (documentation spelling). */
  message: Maybe(Type.String()),
  /** The field the service refused (wire spelling). */
  fieldName: Maybe(Type.String()),
  /** Why (wire spelling). */
  errorMessage: Maybe(Type.String()),
});
export type FieldError = Static<typeof FieldError>;

/**
 * Problem details (spec §7, fields from the reference), all nullable. The published schema has `type, title,
 * status, detail, instance` and allows extension members; `errors` is one of those, seen as an array of field
 * errors (either spelling), as a map of field name to messages (the ASP.NET shape), or absent with the
 * messages in `detail` (api-notes "What the published interface does not show"). The client reads it with
 * `fieldProblemsOf`, which accepts any value.
 */
export const ProblemDetails = Type.Object({
  /** URI reference that identifies the problem type. */
  type: Maybe(Type.String()),
  /** Short summary of the problem type. */
  title: Maybe(Type.String()),
  /** HTTP status code the service answered. */
  status: Maybe(Type.Integer()),
  /** Explanation of this occurrence of the problem. */
  detail: Maybe(Type.String()),
  /** URI reference that identifies this occurrence. */
  instance: Maybe(Type.String()),
  /** Field errors: a list of field errors, or a map of field name to messages. */
  errors: Maybe(Type.Union([Type.Array(FieldError), Type.Record(Type.String(), Type.Array(Type.String()))])),
  /** Trace identifier of the request in the service, for its support. */
  traceId: Maybe(Type.String()),
});
export type ProblemDetails = Static<typeof ProblemDetails>;

/**
 * List envelope (spec §2.9). The pagination guide calls the count `totalCount`, the schemas `total`: both
 * are accepted.
 */
export const ListEnvelope = <T extends TSchema>(item: T) =>
  Type.Object({
    total: Maybe(Type.Integer()),
    totalCount: Maybe(Type.Integer()),
    ...MaybeStrings("self", "prev", "next", "first", "last"),
    values: Type.Array(item),
  });
/** Insert or update body of a resource: strict `{metadata, properties}` with the kind's properties. */
export const ResourceRequest = <P extends TProperties>(properties: P) =>
  Strict({ metadata: MetadataRequest, properties: Strict(properties) });

/** Response of a resource: metadata, status, the kind's `properties` and its optional `data`. */
export const ResourceResponse = <P extends TProperties, D extends TProperties>(properties: P, data: D) =>
  Type.Object({
    metadata: MetadataResponse,
    status: Maybe(StatusResponse),
    properties: Type.Object(properties),
    data: MaybeObject(data),
  });

/** Query of the list endpoints (spec §4.1); `filter` uses the `field:op(args)` grammar (api-notes). */
export const ListQuery = Type.Object({
  filter: Type.Optional(Type.String()),
  sort: Type.Optional(Type.String()),
  projection: Type.Optional(Type.String()),
  offset: Type.Optional(Int32),
  limit: Type.Optional(Int32),
});
export type ListQuery = Static<typeof ListQuery>;

/** Query of a read by id: `ignoreDeletedStatus` answers a deleted object instead of a 404. */
export const GetQuery = Type.Object({ ignoreDeletedStatus: Type.Optional(Type.Boolean()) });

export interface ListPage<T> {
  total?: number | null;
  totalCount?: number | null;
  self?: string | null;
  prev?: string | null;
  next?: string | null;
  first?: string | null;
  last?: string | null;
  values: T[];
}
