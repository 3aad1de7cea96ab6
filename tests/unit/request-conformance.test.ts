/**
 * What the client sends, held against the service's published request schemas (requests were never
 * held against them; the emulator validates bodies with the client's own schemas, so a drift could not show).
 * The published side is the repository's record of the published interface, schemas/published/interface.json
 * (scripts/published-interface.mjs); nothing outside the repository is read.
 *
 * Two walks, one rule. Every property the client can send must exist in the published schema at that path with
 * a compatible type (JSON type, `null` only where nullable, the `int32` range, the format and enum where the
 * published schema has them); every field the published schema requires must be sent; every query parameter
 * must be published for its operation.
 *   1. The schemas: each body schema of the endpoint table (`schemas/endpoints.ts`), walked field by field
 *      alongside the published request body of its operation (`$ref`s resolved). A field added to a body
 *      schema is checked without touching this file.
 *   2. The requests: real bodies and queries, captured where the REST client hands them to its transport (after the
 *      choke point's own validation and `api-version`), from the provider mappings and descriptors run on
 *      representative checked inputs with every optional argument set (create, each kind of update, the node
 *      pool update, the password reset, delete) and from every client method with every query option.
 * A difference the client keeps on purpose is listed in `TOLERATED` with its reason; a row whose field is still
 * sent but no longer differs fails the test (remove it).
 */
import type { TSchema } from "@sinclair/typebox";
import type { WireRequest } from "../../rest/transport";
import type { Inputs } from "../../provider/common/check";
import { checkKind } from "../../provider/common/describedProvider";
import { KAAS_BACKUP } from "../../provider/kaasBackup/descriptor";
import { KAAS } from "../../provider/kaas/descriptor";
import { REGISTRY } from "../../provider/registry/descriptor";
import { updateMetadata } from "../../provider/common/resource";
import { StaticTokenSource } from "../../rest/auth";
import { VendorContainerClient } from "../../rest/client";
import { DEFAULT_RETRY_POLICY } from "../../rest/retry";
import { resolveSettings } from "../../rest/settings";
import { WIRE_SCHEMAS, type BackupResponse, type RegistryResponse } from "../../schemas";
import { UriRef } from "../../schemas/common";
import { ENDPOINTS, ENDPOINT_NAMES, type Endpoint, type EndpointName } from "../../schemas/endpoints";
import { CHECK_CONTEXT, baselineInputs, checked, fullInputs, responseFor } from "./support/kaas-fixtures";
import { PublishedInterface, isObject, type Json } from "./support/published-interface";
import { volumeAction } from "../../schemas/volumeAction";

/**
 * Differences the client keeps, each with its reason, keyed by the exact finding (`OPERATION: field: problem`).
 * Only a difference that puts nothing on the wire the published interface refuses belongs here (a client schema
 * looser than what its mappings send, which the walk of sent values then checks), or one where the published
 * interface says less than the service does (docs/wire.md). A field the published schema lacks is fixed in the
 * client, never tolerated: the service rejects unknown properties.
 */
const TOLERATED: Record<string, string> = {
  "POST /kaas: properties.nodePools[].autoscaling: may be null; not nullable in the published NodePoolsDto":
    "the pool schema accepts null as the pool update's NodePoolPropertiesDto does; poolRequest sends true or " +
    "false only, and a null sent would fail the walk of sent values",
  "PUT /kaas/{id}: properties.nodePools[].autoscaling: may be null; not nullable in the published UpdateNodePoolsDto":
    "the same pool schema as the insert's (see above): poolRequest sends true or false only",
};

/** The record of the published interface, with its lookups. */
const published = new PublishedInterface();

/** One difference: the field (`OPERATION: path`, or `OPERATION: query name`) and what is wrong with it. */
interface Finding {
  field: string;
  problem: string;
}

/** What a walk met: every field it walked and every difference. */
interface Walk {
  walked: Set<string>;
  findings: Finding[];
}

const newWalk = (): Walk => ({ walked: new Set(), findings: [] });
const messages = (walk: Walk) => [...new Set(walk.findings.map((f) => `${f.field}: ${f.problem}`))].sort();

const INT32 = { min: -2147483648, max: 2147483647 };
/** RFC 3339 date-time, as the published `date-time` format means it. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** What the published schema at one point says, over its variants (`$ref`s resolved). */
interface PublishedFacts {
  /** The JSON types it allows; undefined when it declares none (any value). */
  types?: Set<string>;
  nullable: boolean;
  format?: string;
  enum?: unknown[];
  closed: boolean;
  required: string[];
}

function factsOf(pub: PublishedInterface, schema: Json): PublishedFacts {
  const variants = pub.variants(schema);
  const types = variants.map((v) => v.type).filter((t): t is string => typeof t === "string");
  return {
    types: types.length > 0 ? new Set(types) : undefined,
    nullable: variants.some((v) => v.nullable === true),
    format: variants.map((v) => v.format).find((f): f is string => typeof f === "string"),
    enum: variants.map((v) => v.enum).find((e): e is unknown[] => Array.isArray(e)),
    closed: variants.some((v) => v.additionalProperties === false),
    required: variants.flatMap((v) => (Array.isArray(v.required) ? (v.required as string[]) : [])),
  };
}

const typeAllowed = (facts: PublishedFacts, type: string) =>
  facts.types === undefined || facts.types.has(type) || (type === "integer" && facts.types.has("number"));
const typesText = (facts: PublishedFacts) => [...(facts.types ?? [])].sort().join(" or ");
const join = (at: string, name: string) => (at === "" ? name : `${at}.${name}`);

/**
 * Whether the published schema says which properties an object has: it declares some, or rejects unknown
 * ones. An open object without declared properties (`autoscalerProfile`) takes any.
 */
const describesProperties = (pub: PublishedInterface, schema: Json) =>
  pub.variants(schema).some((v) => isObject(v.properties) || v.additionalProperties === false);

/** The alternatives of a TypeBox schema: its `anyOf`/`oneOf` members, flattened (`Nullable`, literal unions). */
function alternatives(schema: TSchema): TSchema[] {
  const members = (schema.anyOf ?? schema.oneOf) as TSchema[] | undefined;
  return members ? members.flatMap(alternatives) : [schema];
}

/**
 * Walks a TypeBox request schema alongside the published one. `op` is `METHOD /route`, `at` the field path
 * (`properties.nodePools[].name`), `container` the name of the published schema that declares the field.
 */
function walkSchema(
  pub: PublishedInterface,
  schema: TSchema,
  target: Json,
  op: string,
  at: string,
  container: string,
  out: Walk,
): void {
  const field = `${op}: ${at === "" ? "(body)" : at}`;
  const facts = factsOf(pub, target);
  const report = (problem: string): void => {
    out.findings.push({ field, problem });
  };
  const options = alternatives(schema);
  if (options.some((option) => option.type === "null") && !facts.nullable)
    report(`may be null; not nullable in the published ${container}`);
  const literals = options.filter((option) => option.const !== undefined).map((option) => option.const);
  for (const option of options) {
    if (option.type === "null") continue;
    const type =
      (option.type as string | undefined) ?? (option.const !== undefined ? typeof option.const : undefined);
    if (type === undefined) {
      if (facts.types !== undefined)
        report(`may be any JSON value; ${typesText(facts)} in the published ${container}`);
      continue;
    }
    if (!typeAllowed(facts, type)) {
      report(`${type}; ${typesText(facts)} in the published ${container}`);
      continue;
    }
    if (type === "string") {
      if (facts.enum && option.const === undefined)
        report(`any string; the published ${container} has an enum`);
      if (facts.format && option.format !== facts.format)
        report(`${option.format ?? "any"} string; ${facts.format} in the published ${container}`);
    }
    if (type === "integer" && facts.format === "int32") {
      const within =
        typeof option.minimum === "number" &&
        typeof option.maximum === "number" &&
        option.minimum >= INT32.min &&
        option.maximum <= INT32.max;
      if (!within) report(`integer beyond int32; int32 in the published ${container}`);
    }
    if (type === "object") walkObjectSchema(pub, option, target, op, at, container, out);
    if (type === "array" && option.items) {
      const items = pub.items(target);
      if (items)
        walkSchema(
          pub,
          option.items as TSchema,
          items,
          op,
          `${at}[]`,
          PublishedInterface.refName(items) ?? container,
          out,
        );
    }
  }
  if (facts.enum) {
    const outside = literals.filter((value) => !facts.enum!.includes(value));
    if (outside.length > 0) report(`${JSON.stringify(outside)} outside the published ${container} enum`);
  }
}

function walkObjectSchema(
  pub: PublishedInterface,
  schema: TSchema,
  target: Json,
  op: string,
  at: string,
  container: string,
  out: Walk,
): void {
  const facts = factsOf(pub, target);
  const name = PublishedInterface.refName(target) ?? container;
  if (schema.additionalProperties !== false && facts.closed)
    out.findings.push({
      field: `${op}: ${at === "" ? "(body)" : at}`,
      problem: `open object; the published ${name} rejects unknown properties`,
    });
  if (!describesProperties(pub, target)) return;
  const properties = (schema.properties ?? {}) as Record<string, TSchema>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  for (const [key, sub] of Object.entries(properties)) {
    const here = join(at, key);
    out.walked.add(`${op}: ${here}`);
    const match = pub.property(target, key);
    if (!match) out.findings.push({ field: `${op}: ${here}`, problem: `not in the published ${name}` });
    else walkSchema(pub, sub, match, op, here, PublishedInterface.refName(match) ?? name, out);
  }
  for (const key of facts.required)
    if (!required.has(key))
      out.findings.push({
        field: `${op}: ${join(at, key)}`,
        problem: `required by the published ${name}; may be left out`,
      });
}

/**
 * Walks a value the client sent alongside the published schema, with the same findings as `walkSchema` where
 * the fact is the same (`not in the published ...`).
 */
function walkValue(
  pub: PublishedInterface,
  value: unknown,
  target: Json,
  op: string,
  at: string,
  container: string,
  out: Walk,
): void {
  const field = `${op}: ${at === "" ? "(body)" : at}`;
  const facts = factsOf(pub, target);
  const report = (problem: string): void => {
    out.findings.push({ field, problem });
  };
  if (value === null) {
    if (!facts.nullable) report(`sent null; not nullable in the published ${container}`);
    return;
  }
  const type = Array.isArray(value)
    ? "array"
    : Number.isInteger(value)
      ? "integer"
      : typeof value === "object"
        ? "object"
        : typeof value;
  if (!typeAllowed(facts, type)) {
    report(`sent ${type}; ${typesText(facts)} in the published ${container}`);
    return;
  }
  if (facts.enum && !facts.enum.includes(value))
    report(`sent ${JSON.stringify(value)}, outside the published ${container} enum`);
  if (type === "string" && facts.format === "date-time" && !DATE_TIME.test(value as string))
    report(`sent ${JSON.stringify(value)}, not a date-time`);
  if (
    type === "integer" &&
    facts.format === "int32" &&
    ((value as number) < INT32.min || (value as number) > INT32.max)
  )
    report(`sent ${String(value)}, beyond int32`);
  if (type === "array") {
    const items = pub.items(target);
    if (items)
      for (const item of value as unknown[])
        walkValue(pub, item, items, op, `${at}[]`, PublishedInterface.refName(items) ?? container, out);
  }
  if (type === "object" && describesProperties(pub, target)) {
    const name = PublishedInterface.refName(target) ?? container;
    for (const [key, sub] of Object.entries(value as Json)) {
      const here = join(at, key);
      out.walked.add(`${op}: ${here}`);
      const match = pub.property(target, key);
      if (!match) out.findings.push({ field: `${op}: ${here}`, problem: `not in the published ${name}` });
      else walkValue(pub, sub, match, op, here, PublishedInterface.refName(match) ?? name, out);
    }
    for (const key of facts.required)
      if (!(key in (value as Json)))
        out.findings.push({
          field: `${op}: ${join(at, key)}`,
          problem: `required by the published ${name}; not sent`,
        });
  }
}

/**
 * The published route of a path: a pattern of the endpoint table (`:name` segments match any `{name}` segment)
 * or a concrete path as sent (a `{name}` segment matches any one segment).
 */
function publishedRoute(pub: PublishedInterface, method: string, path: string): string {
  const segments = (route: string) => route.split("/");
  const parameter = (segment: string) => /^\{[^}]+\}$/.test(segment);
  const matches = pub.routes(method).filter((route) => {
    const [want, have] = [segments(route), segments(path)];
    return (
      want.length === have.length &&
      want.every((segment, i) => (parameter(segment) ? have[i] !== "" : segment === have[i]))
    );
  });
  if (matches.length !== 1) throw new Error(`${method} ${path}: ${matches.length} published routes match`);
  return matches[0];
}

/** An endpoint with its body schema itself rather than its name, so a test can walk a modified copy. */
type RouteWithBody = Pick<Endpoint, "method" | "path"> & { body?: TSchema };

/** `table` with each body schema name replaced by the table's schema of that name (`WIRE_SCHEMAS`). */
const withSchemas = (table: Record<string, Endpoint>): Record<string, RouteWithBody> =>
  Object.fromEntries(
    Object.entries(table).map(([name, e]) => [
      name,
      { method: e.method, path: e.path, body: e.body && WIRE_SCHEMAS[e.body] },
    ]),
  );

/** The walk of every body schema of an endpoint table against the published request bodies. */
function schemaWalk(table: Record<string, RouteWithBody>, pub: PublishedInterface = published): Walk {
  const out = newWalk();
  for (const endpoint of Object.values(table)) {
    if (!endpoint.body) continue;
    const route = publishedRoute(pub, endpoint.method, endpoint.path);
    const op = `${endpoint.method} ${route}`;
    const body = pub.requestBody(endpoint.method, route);
    if (!body)
      out.findings.push({ field: `${op}: (body)`, problem: "a body; the published operation takes none" });
    else
      walkSchema(pub, endpoint.body, body, op, "", PublishedInterface.refName(body) ?? "request body", out);
  }
  return out;
}

/** One request as it reached the transport. */
interface SentRequest {
  method: string;
  route: string;
  query: Record<string, string>;
  body: unknown;
}

/** The walk of sent requests: bodies against the published request bodies, queries against the parameters. */
function requestWalk(requests: SentRequest[], pub: PublishedInterface = published): Walk {
  const out = newWalk();
  for (const request of requests) {
    const op = `${request.method} ${request.route}`;
    const parameters = pub.queryParameters(request.method, request.route);
    for (const [name, value] of Object.entries(request.query)) {
      const field = `${op}: query ${name}`;
      out.walked.add(field);
      const parameter = parameters.get(name);
      if (!parameter) {
        out.findings.push({ field, problem: "not a published query parameter" });
        continue;
      }
      const type = isObject(parameter.schema) ? parameter.schema.type : undefined;
      const fits =
        type === "boolean"
          ? /^(true|false)$/.test(value)
          : type === "integer"
            ? /^-?\d+$/.test(value) && Number(value) >= INT32.min && Number(value) <= INT32.max
            : true;
      if (!fits)
        out.findings.push({
          field,
          problem: `sent ${JSON.stringify(value)}; ${String(type)} in the published parameter`,
        });
    }
    for (const [name, parameter] of parameters)
      if (parameter.required === true && !(name in request.query))
        out.findings.push({
          field: `${op}: query ${name}`,
          problem: "required by the published operation; not sent",
        });
    if (request.body === undefined) continue;
    const body = pub.requestBody(request.method, request.route);
    if (!body)
      out.findings.push({ field: `${op}: (body)`, problem: "a body; the published operation takes none" });
    else walkValue(pub, request.body, body, op, "", PublishedInterface.refName(body) ?? "request body", out);
  }
  return out;
}

// ---- The requests the client sends ----

const PROJECT = "proj-1";
const NETWORK = "/projects/proj-1/providers/Vendor.Network";
const VOLUME = "/projects/proj-1/providers/Vendor.Storage/blockStorages/volume-1";

/**
 * The capturing client's answer: an empty page for a list, a bare object for a read, a create and a node
 * pool update (the endpoints whose table entry has a response), no body otherwise.
 */
function answerOf(method: string, route: string): string {
  const object = '{"metadata":{"id":"answered"},"status":{"state":"Active"},"properties":{}}';
  const collection = /\/(kaas|backups|registries)$/.test(route);
  if (method === "POST") return collection ? object : "";
  if (method === "PUT") return /\/nodePools\/[^/]+$/.test(route) ? object : "";
  if (method !== "GET") return "";
  if (collection) return '{"values":[]}';
  if (route.endsWith("/download")) return "apiVersion: v1\n";
  return object;
}

/** A client whose transport records each request and answers it at once (a list: an empty page). */
function capturingClient(): { api: VendorContainerClient; sent: SentRequest[] } {
  const settings = resolveSettings(() => undefined, {
    VENDOR_BASE_URL: "http://127.0.0.1:1",
    VENDOR_TOKEN: "conformance-token",
  });
  // One attempt, no waiting: an answer the adapter cannot give fails the scenario at once.
  const sent: SentRequest[] = [];
  const transport = async (request: WireRequest) => {
    const method = request.method;
    const prefix = `/projects/${PROJECT}/providers/Vendor.Container`;
    const url = new URL(request.url);
    if (!url.pathname.startsWith(prefix)) throw new Error(`unexpected URL ${request.url}`);
    const route = publishedRoute(published, method, url.pathname.slice(prefix.length));
    const query = Object.fromEntries(url.searchParams);
    const body = request.body === undefined ? undefined : (JSON.parse(request.body) as unknown);
    sent.push({ method, route, query, body });
    return { status: 200, statusText: "OK", headers: {}, text: answerOf(method, route) };
  };
  // One attempt, no waiting: an answer the transport cannot give fails the scenario at once.
  const options = {
    retry: { ...DEFAULT_RETRY_POLICY, maxAttempts: 1 },
    sleep: async () => undefined,
    transport,
  };
  const api = new VendorContainerClient(settings, options, new StaticTokenSource("conformance-token"));
  return { api, sent };
}

/** `raw` checked by its kind's own `check`; throws when check reports any problem. */
function checkedBy<C>(descriptor: Parameters<typeof checkKind>[0], raw: Inputs, olds: Inputs = {}): C {
  const { inputs, failures } = checkKind(descriptor, olds, raw, CHECK_CONTEXT);
  if (failures.length > 0) throw new Error(`fixture is invalid: ${JSON.stringify(failures)}`);
  return inputs as C;
}

/** Runs each planned update step of a kind against the capturing client. */
async function sendPlan<C, R>(
  descriptor: {
    plan(olds: C, news: C, live: R): { send: (api: VendorContainerClient) => Promise<unknown> }[];
  },
  api: VendorContainerClient,
  olds: C,
  news: C,
  live: R,
): Promise<number> {
  const steps = descriptor.plan(olds, news, live);
  for (const step of steps) await step.send(api);
  return steps.length;
}

/** Kaas: create with every argument, each kind of update, metadata, delete, reads and lists. */
async function kaasRequests(api: VendorContainerClient): Promise<void> {
  const full = checked(fullInputs());
  await KAAS.calls.create(api, full);
  await KAAS.calls.create(api, checked({ ...baselineInputs(), preset: true }));
  await KAAS.calls.updateMetadata(api, full, "kaas-1", updateMetadata(full));
  await KAAS.calls.remove(api, full, "kaas-1");
  await KAAS.calls.find(api, full, "kaas-1");
  for await (const _ of KAAS.calls.list(api, full)("metadata.tags:eq(x)")) break;

  const olds = checked(baselineInputs());
  const live = responseFor(olds);
  const pools = olds.nodePools;
  // Everything the cluster update carries changes; the pools keep their names and zones (pool endpoint).
  const inPlace = checked(
    {
      ...baselineInputs(),
      name: "prod-renamed",
      tags: ["team-b"],
      kubernetesVersion: "1.34.1",
      upgradeDate: "2026-07-01T02:00:00Z",
      ha: true,
      maxCumulativeVolumeSize: 800,
      billingPeriod: "Year",
      authorizedIpRanges: ["198.51.100.0/24"],
      enablePrivateCluster: true,
      nodePools: [
        { ...pools[0], nodes: 5, instance: "K8A16", autoscaling: true, minCount: 3, maxCount: 6 },
        { ...pools[1], autoscaling: false, minCount: undefined, maxCount: undefined, nodes: 6 },
      ],
    },
    olds,
  );
  expect(await sendPlan(KAAS, api, olds, inPlace, live)).toBe(3);
  // A pool added and one moved: the full list in the cluster update.
  const relisted = checked(
    {
      ...baselineInputs(),
      nodePools: [
        { ...pools[0], dataCenter: "ITBG-3" },
        pools[1],
        {
          name: "batch",
          nodes: 2,
          instance: "K4A8",
          dataCenter: "ITBG-1",
          autoscaling: true,
          minCount: 1,
          maxCount: 4,
        },
      ],
    },
    olds,
  );
  expect(await sendPlan(KAAS, api, olds, relisted, live)).toBe(1);
  // Optional arguments removed: the cap and the ranges are cleared with null.
  const { maxCumulativeVolumeSize: _cap, authorizedIpRanges: _ranges, ...fewer } = baselineInputs();
  expect(await sendPlan(KAAS, api, olds, checked(fewer, olds), live)).toBe(1);
}

const REGISTRY_INPUTS: Inputs = {
  projectId: PROJECT,
  name: "images",
  location: "ITBG-Bergamo",
  tags: ["team-a"],
  preset: false,
  vpcUri: `${NETWORK}/vpcs/vpc-1`,
  subnetUri: `${NETWORK}/vpcs/vpc-1/subnets/subnet-1`,
  securityGroupUri: `${NETWORK}/securityGroups/sg-1`,
  publicIpUri: `${NETWORK}/elasticIps/eip-1`,
  blockStorageUri: "/projects/proj-1/providers/Vendor.Storage/blockStorages/bs-1",
  size: "Medium",
  adminUsername: "ops",
  billingPeriod: "Month",
  adminPasswordResetTrigger: "first",
  creationScope: "shop/dev/images",
};

/** Registry: create with every argument, the update, the password reset, metadata, delete, reads and lists. */
async function registryRequests(api: VendorContainerClient): Promise<void> {
  type C = Parameters<typeof REGISTRY.calls.create>[1];
  const olds = checkedBy<C>(REGISTRY, REGISTRY_INPUTS);
  await REGISTRY.calls.create(api, olds);
  await REGISTRY.calls.updateMetadata(api, olds, "registry-1", updateMetadata(olds));
  await REGISTRY.calls.remove(api, olds, "registry-1");
  await REGISTRY.calls.find(api, olds, "registry-1");
  for await (const _ of REGISTRY.calls.list(api, olds)("metadata.name:eq(images)")) break;
  const live: RegistryResponse = {
    metadata: { id: "registry-1" },
    status: { state: "Active" },
    properties: {},
  };
  const news = checkedBy<C>(
    REGISTRY,
    {
      ...REGISTRY_INPUTS,
      name: "images-2",
      tags: ["team-b"],
      billingPeriod: "Year",
      publicIpUri: `${NETWORK}/elasticIps/eip-2`,
      adminPasswordResetTrigger: "second",
    },
    olds,
  );
  expect(await sendPlan(REGISTRY, api, olds, news, live)).toBe(1);
  await REGISTRY.afterUpdate!({
    api,
    what: "Registry images",
    id: "registry-1",
    settle: async () => live,
    olds,
    news,
    live,
  } as Parameters<NonNullable<typeof REGISTRY.afterUpdate>>[0]);
}

const BACKUP_INPUTS: Inputs = {
  projectId: PROJECT,
  kaasId: "kaas-1",
  name: "nightly",
  location: "ITBG-Bergamo",
  tags: ["team-a"],
  type: "Full",
  retentionDays: 7,
  billingPeriod: "Month",
  creationScope: "shop/dev/nightly",
};

/** KaasBackup: create with every argument, the update (a period set and one cleared), metadata, delete. */
async function backupRequests(api: VendorContainerClient): Promise<void> {
  type C = Parameters<typeof KAAS_BACKUP.calls.create>[1];
  const olds = checkedBy<C>(KAAS_BACKUP, BACKUP_INPUTS);
  await KAAS_BACKUP.calls.create(api, olds);
  await KAAS_BACKUP.calls.updateMetadata(api, olds, "backup-1", updateMetadata(olds));
  await KAAS_BACKUP.calls.remove(api, olds, "backup-1");
  await KAAS_BACKUP.calls.find(api, olds, "backup-1");
  for await (const _ of KAAS_BACKUP.calls.list(api, olds)("metadata.name:eq(nightly)")) break;
  const live: BackupResponse = { metadata: { id: "backup-1" }, properties: {} };
  const renamed = checkedBy<C>(
    KAAS_BACKUP,
    { ...BACKUP_INPUTS, name: "nightly-2", billingPeriod: "Year" },
    olds,
  );
  expect(await sendPlan(KAAS_BACKUP, api, olds, renamed, live)).toBe(1);
  const { billingPeriod: _period, ...cleared } = BACKUP_INPUTS;
  expect(await sendPlan(KAAS_BACKUP, api, olds, checkedBy<C>(KAAS_BACKUP, cleared, olds), live)).toBe(1);
}

/** The volume actions, and every client method with every query option it takes. */
async function clientRequests(api: VendorContainerClient): Promise<void> {
  await api.call(
    "attachVolume",
    { projectId: PROJECT, id: "kaas-1", pool: "workers", node: "node-1" },
    volumeAction(VOLUME),
  );
  await api.call(
    "detachVolumeFromNode",
    { projectId: PROJECT, id: "kaas-1", pool: "workers", node: "node-1" },
    volumeAction(VOLUME),
  );
  await api.call("detachVolumeFromCluster", { projectId: PROJECT, id: "kaas-1" }, volumeAction(VOLUME));
  const list = {
    filter: "metadata.name:eq(x)",
    sort: "metadata.name",
    projection: "metadata",
    offset: 20,
    limit: 10,
  };
  await api.list("listKaas", { projectId: PROJECT }, list);
  await api.list("listBackups", { projectId: PROJECT, kaasId: "kaas-1" }, list);
  await api.list("listRegistries", { projectId: PROJECT }, { ...list, loadEngineVersion: true });
  await api.call("getKaas", { projectId: PROJECT, id: "kaas-1" }, undefined, { ignoreDeletedStatus: true });
  await api.call("getBackup", { projectId: PROJECT, kaasId: "kaas-1", id: "backup-1" }, undefined, {
    ignoreDeletedStatus: true,
  });
  await api.call("getRegistry", { projectId: PROJECT, id: "registry-1" }, undefined, {
    ignoreDeletedStatus: true,
  });
  await api.call("deleteKaas", { projectId: PROJECT, id: "kaas-1" }, undefined, { deleteOnCascade: true });
  await api.downloadKubeconfig(PROJECT, "kaas-1");
  await api.call("resetAdminPassword", { projectId: PROJECT, id: "registry-1" }, {});
}

/** Every request of the scenarios above, as it reached the transport. */
async function sentRequests(): Promise<SentRequest[]> {
  const { api, sent } = capturingClient();
  const log = jest.spyOn(console, "log").mockImplementation(() => undefined);
  try {
    await kaasRequests(api);
    await registryRequests(api);
    await backupRequests(api);
    await clientRequests(api);
  } finally {
    log.mockRestore();
  }
  return sent;
}

/**
 * Fields of the body schemas that no provider code sends (each row with everything below it), each with why:
 * the walk of real bodies must reach every other field, so that the representative inputs really set every
 * optional argument.
 */
const NEVER_SENT: Record<string, string> = {
  "PUT /kaas/{id}/nodePools/{nodePoolName}: metadata":
    "a pool update sends the pool's properties only; the cluster's name and tags go with the cluster update",
  "PUT /registries/{id}/resetAdminPassword: metadata.location":
    "the reset names the registry only (metadata.name); its location never changes",
  "PUT /registries/{id}/resetAdminPassword: metadata.tags":
    "the reset names the registry only (metadata.name); tags go with the registry update",
};

describe("what the client sends, against the published request schemas", () => {
  const schemas = schemaWalk(withSchemas(ENDPOINTS));
  let requests: SentRequest[] = [];
  let sent: Walk = newWalk();
  beforeAll(async () => {
    requests = await sentRequests();
    sent = requestWalk(requests);
  });
  const tolerated = (message: string) => message in TOLERATED;

  it("declares no body field the published request schemas lack or type otherwise, except the tolerated", () => {
    // `OPERATION: field: problem`: send the published field instead, or add a row with its reason.
    expect(messages(schemas).filter((message) => !tolerated(message))).toEqual([]);
  });

  it("sends no body field or query parameter the published interface lacks or types otherwise, except the tolerated", () => {
    expect(messages(sent).filter((message) => !tolerated(message))).toEqual([]);
  });

  it("tolerates only differences that still occur, each with a reason", () => {
    // A row whose field is still sent but no longer differs: remove it. A field no longer sent is harmless.
    const found = new Set([...messages(schemas), ...messages(sent)]);
    const walked = new Set([...schemas.walked, ...sent.walked]);
    const stale = Object.keys(TOLERATED).filter((message) => {
      const field = message.split(": ").slice(0, 2).join(": ");
      return walked.has(field) && !found.has(message);
    });
    expect(stale).toEqual([]);
    expect(Object.entries(TOLERATED).filter(([, reason]) => reason.trim().length < 20)).toEqual([]);
  });

  it("sends a real body for every endpoint of the table that takes one, and calls every endpoint", () => {
    const operations = (filter: (r: SentRequest) => boolean) =>
      [...new Set(requests.filter(filter).map((r) => `${r.method} ${r.route}`))].sort();
    const table = (names: EndpointName[]) =>
      [
        ...new Set(
          names.map(
            (name) =>
              `${ENDPOINTS[name].method} ${publishedRoute(published, ENDPOINTS[name].method, ENDPOINTS[name].path)}`,
          ),
        ),
      ].sort();
    expect(operations(() => true)).toEqual(table(ENDPOINT_NAMES));
    expect(operations((r) => r.body !== undefined)).toEqual(
      table(ENDPOINT_NAMES.filter((name) => (ENDPOINTS[name] as Endpoint).body !== undefined)),
    );
  });

  it("sets every field of every body schema in some real request, except those no provider code sends", () => {
    const coveredBy = (field: string) =>
      Object.keys(NEVER_SENT).find((row) => field === row || field.startsWith(`${row}.`));
    const missing = [...schemas.walked].filter((field) => !sent.walked.has(field));
    expect(missing.filter((field) => coveredBy(field) === undefined).sort()).toEqual([]);
    // A row some request now sends: remove it.
    expect(Object.keys(NEVER_SENT).filter((row) => !missing.includes(row))).toEqual([]);
  });

  it("walks every kind of body and query (the walks are not vacuous)", () => {
    for (const field of [
      "POST /kaas: properties.nodePools[].maxCount",
      "POST /kaas: properties.identity.clientSecret",
      "PUT /kaas/{id}: properties.kubernetesVersion.upgradeDate",
      "PUT /kaas/{id}/nodePools/{nodePoolName}: properties.maxNode",
      "POST /kaas/{id}/nodePools/{nodePoolId}/nodes/{nodeId}/attach: volume.uri",
      "POST /kaas/{id}/detach: volume.uri",
      "POST /kaas/{kaasId}/backups: properties.retentionDays",
      "PUT /kaas/{kaasId}/backups/{id}: properties.billingPeriod",
      "POST /registries: properties.adminUser.username",
      "PUT /registries/{id}: properties.publicIp.uri",
      "PUT /registries/{id}/resetAdminPassword: metadata.name",
    ]) {
      expect([field, schemas.walked.has(field), sent.walked.has(field)]).toEqual([field, true, true]);
    }
    for (const field of [
      "GET /registries: query loadEngineVersion",
      "DELETE /kaas/{id}: query deleteOnCascade",
    ])
      expect([field, sent.walked.has(field)]).toEqual([field, true]);
  });

  it("sends every query parameter the client has, with api-version on every request", () => {
    const names = [...new Set(requests.flatMap((r) => Object.keys(r.query)))].sort();
    expect(names).toEqual([
      "api-version",
      "deleteOnCascade",
      "filter",
      "ignoreDeletedStatus",
      "limit",
      "loadEngineVersion",
      "offset",
      "projection",
      "sort",
    ]);
    expect(requests.filter((r) => r.query["api-version"] !== "1")).toEqual([]);
  });
});

describe("the request conformance walks on modified copies (the checks can fail)", () => {
  /** A JSON copy of a TypeBox schema (the walk reads only its JSON keywords). */
  const copy = (schema: TSchema): Json => JSON.parse(JSON.stringify(schema)) as Json;
  const tableWith = (name: EndpointName, body: Json): Record<string, RouteWithBody> => {
    const table = withSchemas(ENDPOINTS);
    return { ...table, [name]: { ...table[name], body: body as unknown as TSchema } };
  };

  it("fails when a field the published schema lacks is added to a request schema", () => {
    const body = copy(WIRE_SCHEMAS[ENDPOINTS.updateRegistry.body]);
    const properties = (body.properties as Json).properties as Json;
    (properties.properties as Json).colour = { type: "string" };
    const untolerated = messages(schemaWalk(tableWith("updateRegistry", body))).filter(
      (m) => !(m in TOLERATED),
    );
    expect(untolerated).toEqual([
      "PUT /registries/{id}: properties.colour: not in the published RegistryUpdatePropertiesDto",
    ]);
  });

  it("fails on the registry insert's vpc, which the published RegistryInsertPropertiesDto lacks", () => {
    const body = copy(WIRE_SCHEMAS[ENDPOINTS.createRegistry.body]);
    const properties = (body.properties as Json).properties as Json;
    (properties.properties as Json).vpc = copy(UriRef);
    const message = "POST /registries: properties.vpc: not in the published RegistryInsertPropertiesDto";
    expect(messages(schemaWalk(tableWith("createRegistry", body))).filter((m) => !(m in TOLERATED))).toEqual([
      message,
    ]);
    const sent = {
      method: "POST",
      route: "/registries",
      query: { "api-version": "1" },
      body: {
        metadata: { name: "images" },
        properties: { adminUser: { username: "ops" }, vpc: { uri: "/vpcs/v" } },
      },
    };
    expect(messages(requestWalk([sent]))).toEqual([message]);
  });

  it("fails on a type, a null, an open object and an unbounded integer the published schema does not allow", () => {
    const body = copy(WIRE_SCHEMAS[ENDPOINTS.createBackup.body]);
    const properties = ((body.properties as Json).properties as Json).properties as Json;
    properties.type = { type: "integer", minimum: 0, maximum: 9 };
    properties.retentionDays = { type: "integer" };
    (body.properties as Json).metadata = {
      type: "object",
      properties: { name: { anyOf: [{ type: "string" }, { type: "null" }] } },
    };
    const untolerated = messages(schemaWalk(tableWith("createBackup", body))).filter(
      (m) => !(m in TOLERATED),
    );
    expect(untolerated).toEqual([
      "POST /kaas/{kaasId}/backups: metadata.name: may be null; not nullable in the published MetadataDto",
      "POST /kaas/{kaasId}/backups: metadata: open object; the published MetadataDto rejects unknown properties",
      "POST /kaas/{kaasId}/backups: properties.retentionDays: integer beyond int32; int32 in the published BackupInsertPropertiesDto",
      "POST /kaas/{kaasId}/backups: properties.type: integer; string in the published BackupInsertPropertiesDto",
    ]);
  });

  it("fails on a sent field, value or query parameter the published interface lacks", () => {
    const walk = requestWalk([
      {
        method: "PUT",
        route: "/kaas/{id}/nodePools/{nodePoolName}",
        query: { "api-version": "1", force: "true" },
        body: { properties: { nodes: 2147483648, minCount: 1, autoscaling: null, instance: 4 } },
      },
      { method: "GET", route: "/kaas", query: { limit: "ten" }, body: undefined },
      { method: "GET", route: "/kaas/{id}/download", query: {}, body: { volume: { uri: VOLUME } } },
    ]);
    expect(messages(walk)).toEqual([
      "GET /kaas/{id}/download: (body): a body; the published operation takes none",
      'GET /kaas: query limit: sent "ten"; integer in the published parameter',
      "PUT /kaas/{id}/nodePools/{nodePoolName}: properties.instance: sent integer; string in the published NodePoolPropertiesDto",
      "PUT /kaas/{id}/nodePools/{nodePoolName}: properties.minCount: not in the published NodePoolPropertiesDto",
      "PUT /kaas/{id}/nodePools/{nodePoolName}: properties.nodes: sent 2147483648, beyond int32",
      "PUT /kaas/{id}/nodePools/{nodePoolName}: query force: not a published query parameter",
    ]);
  });

  it("fails when a field the published schema requires is left out, from the schema and from a request", () => {
    const record = JSON.parse(JSON.stringify(published.record)) as Json;
    const schemas = (record.components as Json).schemas as Json;
    const dto = schemas[
      "Vendor.CmpService.ContainerProvider.Dtos.Resources.BackupUpdatePropertiesDto"
    ] as Json;
    dto.required = ["billingPeriod"];
    const strict = new PublishedInterface(record);
    expect(messages(schemaWalk(withSchemas({ updateBackup: ENDPOINTS.updateBackup }), strict))).toEqual([
      "PUT /kaas/{kaasId}/backups/{id}: properties.billingPeriod: required by the published BackupUpdatePropertiesDto; may be left out",
    ]);
    const request = { method: "PUT", route: "/kaas/{kaasId}/backups/{id}", query: { "api-version": "1" } };
    const body = { metadata: { name: "nightly" }, properties: {} };
    expect(messages(requestWalk([{ ...request, body }], strict))).toEqual([
      "PUT /kaas/{kaasId}/backups/{id}: properties.billingPeriod: required by the published BackupUpdatePropertiesDto; not sent",
    ]);
  });
});
