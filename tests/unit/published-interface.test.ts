/**
 * What the provider reads from responses, tied to the service's published interface description
 * (`container-api.openapi.json`) through the repository's record of its facts, schemas/published/interface.json
 * (written by scripts/published-interface.mjs; nothing outside the repository is read).
 *
 * The provider reads every response through the TypeBox response schemas of `schemas/`: the REST client
 * validates each answer with them and the mappings (`provider/* /mapping.ts`, `provider.ts`) read the types
 * derived from them, so a field the provider reads is a field of one of these schemas. The test walks those
 * schemas, field by field, alongside the published response schema of every endpoint that answers with them
 * (`$ref`s resolved), and fails when a field is absent from the published one, unless it is a tolerated
 * extra listed below with its reason. A field added to a schema is checked without touching this file.
 *
 * Paths are reported from the nearest named schema (`Kaas: properties.nodesPool`, `Kaas node pool:
 * dataCenter.code`), so one row covers every endpoint and list that carries the object; under an absent
 * field nothing more is reported.
 */
import type { TSchema } from "@sinclair/typebox";
import {
  BackupList,
  BackupResponse,
  KaasList,
  KaasResponse,
  KubeconfigDownload,
  MetadataResponse,
  NodePoolResponse,
  ProblemDetails,
  RegistryList,
  RegistryResponse,
  StatusResponse,
} from "../../schemas";
import * as schemas from "../../schemas";
import { ENDPOINTS, ENDPOINT_NAMES, type Endpoint } from "../../schemas/endpoints";
import { PublishedInterface, isObject, type Json } from "./support/published-interface";

/** The schema objects whose fields are reported under their own name, wherever they appear. */
const NAMED: [string, TSchema][] = [
  ["Kaas", KaasResponse],
  ["Backup", BackupResponse],
  ["Registry", RegistryResponse],
  ["Metadata", MetadataResponse],
  ["Status", StatusResponse],
  ["Kaas node pool", NodePoolResponse],
];

/** Every response schema the client validates answers with, and the published responses it reads. */
const CHECKED: { name: string; schema: TSchema; responses: string[] }[] = [
  {
    name: "Kaas",
    schema: KaasResponse,
    responses: ["POST /kaas 201", "GET /kaas/{id} 200", "PUT /kaas/{id}/nodePools/{nodePoolName} 200"],
  },
  { name: "List", schema: KaasList, responses: ["GET /kaas 200"] },
  { name: "Kubeconfig download", schema: KubeconfigDownload, responses: ["GET /kaas/{id}/download 200"] },
  {
    name: "Backup",
    schema: BackupResponse,
    responses: ["POST /kaas/{kaasId}/backups 201", "GET /kaas/{kaasId}/backups/{id} 200"],
  },
  { name: "List", schema: BackupList, responses: ["GET /kaas/{kaasId}/backups 200"] },
  {
    name: "Registry",
    schema: RegistryResponse,
    responses: ["POST /registries 201", "GET /registries/{id} 200"],
  },
  { name: "List", schema: RegistryList, responses: ["GET /registries 200"] },
  {
    name: "Problem",
    schema: ProblemDetails,
    responses: [
      "POST /kaas 400",
      "GET /kaas/{id} 404",
      "PUT /registries/{id} 400",
      "DELETE /kaas/{kaasId}/backups/{id} 404",
    ],
  },
];

/**
 * Fields the provider reads that the published response schemas do not have, each with the reason it is
 * read anyway. A row whose field the published responses now have fails the test (remove it); a row no
 * schema reads any more is harmless, so that dropping a field from a schema needs no change here.
 */
const TOLERATED: Record<string, string> = {
  "Kaas: properties.nodesPool":
    'a spelling of nodePools one real client reads (api-notes "KaaS"): accepted, nodePools preferred',
  "Kaas: properties.autoscalerProfile":
    "an insert property the response DTO lacks: read when a service echoes it, never required",
  "Kaas: properties.attachedVolumes":
    "only the emulator's default wire reading sends it (api-notes: no response lists attached volumes)",
  "Kaas node pool: dataCenter.code":
    "the published DataCenterResponseDto has `name` only; `code` is read first where a service sends it",
  "List: totalCount": 'how the pagination guide spells `total` (api-notes "Envelopes"): accept either',
  "Kubeconfig download: content":
    "the download's 200 declares no body; api-notes: JSON {name, content} with base64 content, or raw text",
  "Kubeconfig download: name": "the download's 200 declares no body (see content)",
  "Problem: errors":
    "an extension member (the published ProblemDetails allows them): field errors as an array, a map or absent",
  "Problem: traceId": "an extension member the service adds to problem details",
};

/** The record of the published interface (schemas/published/interface.json), with its lookups. */
const published = new PublishedInterface();

/** A TypeBox schema's identity for `NAMED`: its JSON (TypeBox copies schemas when it wraps them). */
const keyOf = (schema: unknown) => JSON.stringify(schema);
const namedByKey = new Map(NAMED.map(([name, schema]) => [keyOf(schema), name]));

/** The fields a walk met: every one read, and those of them the published schema lacks. */
interface Walk {
  read: Set<string>;
  absent: Set<string>;
}

/**
 * Walks a TypeBox response schema alongside the published one, noting `Name: path` of each field read and of
 * each the published schema lacks (nothing below an absent field). `publishedSchema` is undefined when the
 * published side has no schema at this point.
 */
function walk(schema: TSchema, publishedSchema: Json | undefined, name: string, at: string, out: Walk): void {
  const named = namedByKey.get(keyOf(schema));
  if (named !== undefined && named !== name) return walk(schema, publishedSchema, named, "", out);
  for (const key of ["anyOf", "oneOf", "allOf"] as const) {
    for (const member of (schema[key] as TSchema[] | undefined) ?? []) {
      if (member.type !== "null") walk(member, publishedSchema, name, at, out);
    }
  }
  if (schema.type === "object" && isObject(schema.properties)) {
    for (const [field, sub] of Object.entries(schema.properties as Record<string, TSchema>)) {
      const here = at === "" ? field : `${at}.${field}`;
      out.read.add(`${name}: ${here}`);
      const match = publishedSchema && published.property(publishedSchema, field);
      if (!match) out.absent.add(`${name}: ${here}`);
      else walk(sub, match, name, here, out);
    }
  }
  if (schema.type === "array" && schema.items) {
    const items = publishedSchema && published.items(publishedSchema);
    walk(schema.items as TSchema, items, name, `${at}[]`, out);
  }
}

/** The walk of every checked schema against every published response it answers. */
function walkAll(): Walk {
  const out: Walk = { read: new Set(), absent: new Set() };
  for (const check of CHECKED) {
    for (const response of check.responses)
      walk(check.schema, published.response(response), check.name, "", out);
  }
  return out;
}

describe("the fields the provider reads, against the published response schemas", () => {
  const { read, absent } = walkAll();

  it("reads no field the published responses lack, except the tolerated extras", () => {
    // The offending paths, as `Name: field.path`: read the published field instead, or add a row with a reason.
    expect([...absent].filter((at) => !(at in TOLERATED)).sort()).toEqual([]);
  });

  it("tolerates no extra the published responses have, and gives each a reason", () => {
    // A row listed here is read and published: it is no extra any more, remove it.
    expect(Object.keys(TOLERATED).filter((at) => read.has(at) && !absent.has(at))).toEqual([]);
    expect(Object.entries(TOLERATED).filter(([, reason]) => reason.trim().length < 20)).toEqual([]);
  });

  it("walks every part of every checked schema (the walk is not vacuous)", () => {
    for (const at of [
      "Kaas: properties.nodecidr.address",
      "Kaas node pool: instance.diskSizeGb",
      "Metadata: id",
      "Status: error.message",
      "Backup: data.info.sizeBytes",
      "Registry: data.private.adminPasswordLastSetDate",
      "List: values",
      "Problem: detail",
    ]) {
      expect([at, read.has(at), absent.has(at)]).toEqual([at, true, false]);
    }
  });

  it("checks every response schema the REST client validates answers with", () => {
    // The client validates each answer against its endpoint's `response` schema (schemas/endpoints.ts).
    const used = [...new Set(ENDPOINT_NAMES.map((name) => (ENDPOINTS[name] as Endpoint).response))]
      .filter((name) => name !== undefined)
      .map((name): TSchema => schemas.WIRE_SCHEMAS[name]);
    const checked = new Set(CHECKED.map((c) => c.schema));
    const exported = Object.entries(schemas as unknown as Record<string, TSchema>);
    const nameOf = (schema: TSchema) => exported.find(([, s]) => s === schema)?.[0] ?? "(unnamed)";
    expect(used.filter((schema) => !checked.has(schema)).map(nameOf)).toEqual([]);
    expect(used.length).toBeGreaterThanOrEqual(6);
  });

  it("finds a field the published responses lack (the check can fail)", () => {
    const out: Walk = { read: new Set(), absent: new Set() };
    const probe = {
      type: "object",
      properties: {
        metadata: { type: "object", properties: { id: { type: "string" }, colour: { type: "string" } } },
        properties: {
          type: "object",
          properties: {
            nodePools: {
              type: "array",
              items: { type: "object", properties: { name: { type: "string" }, labels: { type: "object" } } },
            },
            nodecidr: {
              type: "object",
              properties: { address: { type: "string" }, gateway: { type: "string" } },
            },
          },
        },
      },
    } as unknown as TSchema;
    walk(probe, published.response("GET /kaas/{id} 200"), "Probe", "", out);
    expect([...out.absent].sort()).toEqual([
      "Probe: metadata.colour",
      "Probe: properties.nodePools[].labels",
      "Probe: properties.nodecidr.gateway",
    ]);
  });
});
