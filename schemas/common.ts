/**
 * Wire schemas shared by every resource kind of the Vendor.Container service.
 *
 * Each schema is written once with TypeBox: the TypeScript types are derived from it (`Static`), the REST
 * client validates request bodies with it before any I/O, and the emulator validates the same bodies with
 * the very same objects, so client and server cannot drift. Request bodies reject unknown properties
 * (spec §2: "All objects reject unknown properties"); response schemas only pin the fields the provider
 * relies on and tolerate extra fields and the known spelling variants (api-notes "Envelopes").
 */
import { Type, type Static, type TSchema } from "@sinclair/typebox";

/** A value that may be `null` on the wire ("nullable" in spec §2). */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** Strict object: the service rejects unknown properties in request bodies (spec §2). */
export const Strict = <P extends Parameters<typeof Type.Object>[0]>(properties: P) =>
  Type.Object(properties, { additionalProperties: false });

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
  tags: Type.Optional(Nullable(Type.Array(Type.String()))),
});
export type MetadataRequest = Static<typeof MetadataRequest>;

/** Input reference to another resource by URI (spec §2.8). */
export const UriRef = Strict({ uri: Type.String({ minLength: 1 }) });

/** Output reference to another resource by URI (spec §2.8): the URI may be null. */
export const UriRefResponse = Type.Object({ uri: Type.Optional(Nullable(Type.String())) });

/** Billing period values the service accepts on input (api-notes "KaaS"). */
export const BillingPeriodRequest = Type.Union([
  Type.Literal("Hour"),
  Type.Literal("Month"),
  Type.Literal("Year"),
]);

/** Billing plan on input: `{billingPeriod}` (spec §2.2 "not shown", filled from the reference). */
export const BillingPlanRequest = Strict({ billingPeriod: Nullable(BillingPeriodRequest) });

/** Billing plan as answered: the period may come back as `hourly/monthly/yearly` (api-notes). */
export const BillingPlanResponse = Type.Object({ billingPeriod: Type.Optional(Nullable(Type.String())) });

/** Response location: `{code, country, city, name, value}`, all optional. */
export const LocationResponse = Type.Object({
  code: Type.Optional(Nullable(Type.String())),
  country: Type.Optional(Nullable(Type.String())),
  city: Type.Optional(Nullable(Type.String())),
  name: Type.Optional(Nullable(Type.String())),
  value: Type.Optional(Nullable(Type.String())),
});

/**
 * Response category: `typology` is the resource's type in the service's catalogue (for a cluster, its cluster
 * type, whose limits the spec lists in §2.8 "Cluster type configuration").
 */
export const CategoryResponse = Type.Object({
  name: Type.Optional(Nullable(Type.String())),
  provider: Type.Optional(Nullable(Type.String())),
  typology: Type.Optional(
    Nullable(
      Type.Object({
        id: Type.Optional(Nullable(Type.String())),
        name: Type.Optional(Nullable(Type.String())),
      }),
    ),
  ),
});

/**
 * A linked resource as responses show it (`LinkedResourceResponseDto` of the published interface: `uri`
 * and `strictCorrelation`). Where the service lists attached volumes this way is unconfirmed (api-notes
 * "What the published interface does not show"); the VolumeAttachment provider reads it when present.
 */
export const LinkedResourceResponse = Type.Object({
  uri: Type.Optional(Nullable(Type.String())),
  strictCorrelation: Type.Optional(Nullable(Type.Boolean())),
});
export type LinkedResourceResponse = Static<typeof LinkedResourceResponse>;

/** Response metadata: the provider relies on `id`; the rest is informational. */
export const MetadataResponse = Type.Object({
  id: Type.String({ minLength: 1 }),
  uri: Type.Optional(Nullable(Type.String())),
  name: Type.Optional(Nullable(Type.String())),
  location: Type.Optional(Nullable(LocationResponse)),
  project: Type.Optional(Nullable(Type.Object({ id: Type.Optional(Nullable(Type.String())) }))),
  tags: Type.Optional(Nullable(Type.Array(Type.String()))),
  category: Type.Optional(Nullable(CategoryResponse)),
  creationDate: Type.Optional(Nullable(Type.String())),
  createdBy: Type.Optional(Nullable(Type.String())),
  updateDate: Type.Optional(Nullable(Type.String())),
  updatedBy: Type.Optional(Nullable(Type.String())),
  version: Type.Optional(Nullable(Type.String())),
  linkedResources: Type.Optional(Nullable(Type.Array(LinkedResourceResponse))),
});
export type MetadataResponse = Static<typeof MetadataResponse>;

/** Response status (`StatusResponseDto`): `state` drives every wait. */
export const StatusResponse = Type.Object({
  state: Type.Optional(Nullable(Type.String())),
  creationDate: Type.Optional(Nullable(Type.String())),
  failureReason: Type.Optional(Nullable(Type.String())),
  error: Type.Optional(
    Nullable(
      Type.Object({
        reason: Type.Optional(Nullable(Type.String())),
        message: Type.Optional(Nullable(Type.String())),
      }),
    ),
  ),
  disableStatusInfo: Type.Optional(
    Nullable(
      Type.Object({
        isDisabled: Type.Optional(Type.Boolean()),
        reasons: Type.Optional(Nullable(Type.Array(Type.String()))),
      }),
    ),
  ),
});
export type StatusResponse = Static<typeof StatusResponse>;

/** `data.private.phase` of KaaS and Backup responses; informational only (api-notes). */
export const Phase = Type.Object({
  name: Type.Optional(Nullable(Type.String())),
  startDate: Type.Optional(Nullable(Type.String())),
});

/** A field-level error in both spellings seen: `{field, message}` (docs) and `{fieldName, errorMessage}` (wire). */
export const FieldError = Type.Object({
  /** The field the service refused (documentation spelling). */
  field: Type.Optional(Nullable(Type.String())),
  /** Why (documentation spelling). */
  message: Type.Optional(Nullable(Type.String())),
  /** The field the service refused (wire spelling). */
  fieldName: Type.Optional(Nullable(Type.String())),
  /** Why (wire spelling). */
  errorMessage: Type.Optional(Nullable(Type.String())),
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
  type: Type.Optional(Nullable(Type.String())),
  /** Short summary of the problem type. */
  title: Type.Optional(Nullable(Type.String())),
  /** HTTP status code the service answered. */
  status: Type.Optional(Nullable(Type.Integer())),
  /** Explanation of this occurrence of the problem. */
  detail: Type.Optional(Nullable(Type.String())),
  /** URI reference that identifies this occurrence. */
  instance: Type.Optional(Nullable(Type.String())),
  /** Field errors: a list of field errors, or a map of field name to messages. */
  errors: Type.Optional(
    Nullable(Type.Union([Type.Array(FieldError), Type.Record(Type.String(), Type.Array(Type.String()))])),
  ),
  /** Trace identifier of the request in the service, for its support. */
  traceId: Type.Optional(Nullable(Type.String())),
});
export type ProblemDetails = Static<typeof ProblemDetails>;

/**
 * List envelope (spec §2.9). The pagination guide calls the count `totalCount`, the schemas `total`: both
 * are accepted.
 */
export const ListEnvelope = <T extends TSchema>(item: T) =>
  Type.Object({
    total: Type.Optional(Nullable(Type.Integer())),
    totalCount: Type.Optional(Nullable(Type.Integer())),
    self: Type.Optional(Nullable(Type.String())),
    prev: Type.Optional(Nullable(Type.String())),
    next: Type.Optional(Nullable(Type.String())),
    first: Type.Optional(Nullable(Type.String())),
    last: Type.Optional(Nullable(Type.String())),
    values: Type.Array(item),
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
