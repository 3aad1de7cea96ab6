/**
 * The repository's record of the service's published interface (schemas/published/interface.json, written
 * by scripts/published-interface.mjs from `container-api.openapi.json`): loading it and looking things up in
 * it, for the response and request conformance tests. The record keeps the published document's shape
 * (`paths`, `components.schemas`, `$ref`s), so a lookup here is a lookup in the published description.
 */
import fs from "node:fs";
import path from "node:path";

/** A JSON object of the record. */
export type Json = Record<string, unknown>;

/** The record, kept in the repository: nothing outside it is read. */
export const PUBLISHED_RECORD_PATH = path.resolve(__dirname, "../../../schemas/published/interface.json");

/** Every published path starts here; the endpoint table's paths are below it (spec §4: `P`). */
export const PUBLISHED_PREFIX = "/projects/{projectId}/providers/Vendor.Container";

export const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The record, parsed. */
export function loadPublishedRecord(): Json {
  if (!fs.existsSync(PUBLISHED_RECORD_PATH)) {
    throw new Error(`the record of the published interface is missing at ${PUBLISHED_RECORD_PATH}`);
  }
  return JSON.parse(fs.readFileSync(PUBLISHED_RECORD_PATH, "utf8")) as Json;
}

/** Lookups in one parsed record (or a modified copy of it, for the tests that show a check can fail). */
export class PublishedInterface {
  constructor(readonly record: Json = loadPublishedRecord()) {}

  /** Follows `$ref`s (`#/components/schemas/...`) to the schema they name. */
  deref(schema: Json): Json {
    const seen = new Set<string>();
    let current = schema;
    while (typeof current.$ref === "string") {
      const ref = current.$ref;
      if (seen.has(ref)) throw new Error(`circular $ref ${ref}`);
      seen.add(ref);
      if (!ref.startsWith("#/")) throw new Error(`external $ref ${ref} is not supported`);
      let target: unknown = this.record;
      for (const part of ref.slice(2).split("/")) {
        target = isObject(target) ? target[part.replace(/~1/g, "/").replace(/~0/g, "~")] : undefined;
      }
      if (!isObject(target)) throw new Error(`unresolved $ref ${ref}`);
      current = target;
    }
    return current;
  }

  /** The schema and its alternatives and parts (`allOf`, `oneOf`, `anyOf`), each dereferenced. */
  variants(schema: Json): Json[] {
    const resolved = this.deref(schema);
    const parts = ["allOf", "oneOf", "anyOf"].flatMap((key) =>
      Array.isArray(resolved[key]) ? (resolved[key] as unknown[]).filter(isObject) : [],
    );
    return [resolved, ...parts.flatMap((part) => this.variants(part))];
  }

  /** The published schema of property `name` (declared properties only: an open object describes nothing). */
  property(schema: Json, name: string): Json | undefined {
    for (const variant of this.variants(schema)) {
      const properties = variant.properties;
      if (isObject(properties) && isObject(properties[name])) return properties[name];
    }
    return undefined;
  }

  /** The published schema of an array's items. */
  items(schema: Json): Json | undefined {
    for (const variant of this.variants(schema)) if (isObject(variant.items)) return variant.items;
    return undefined;
  }

  /** The published operation `METHOD route` (route below `PUBLISHED_PREFIX`, `{name}` parameters). */
  operation(method: string, route: string): Json {
    const paths = this.record.paths as Json;
    const operation = (paths[PUBLISHED_PREFIX + route] as Json | undefined)?.[method.toLowerCase()];
    if (!isObject(operation)) throw new Error(`the published interface has no operation ${method} ${route}`);
    return operation;
  }

  /** Every published route (below the prefix) whose operations include `method`. */
  routes(method: string): string[] {
    return Object.entries(this.record.paths as Json)
      .filter(
        ([route, item]) =>
          route.startsWith(PUBLISHED_PREFIX) && isObject(item) && method.toLowerCase() in item,
      )
      .map(([route]) => route.slice(PUBLISHED_PREFIX.length));
  }

  /** The JSON schema of a `content` map (`application/json`, else the first media type), if it has one. */
  private contentSchema(content: unknown): Json | undefined {
    if (!isObject(content)) return undefined;
    const media = (content["application/json"] ?? Object.values(content)[0]) as Json | undefined;
    return isObject(media?.schema) ? media.schema : undefined;
  }

  /** The published schema of the response `METHOD route STATUS`; undefined when it declares no body. */
  response(response: string): Json | undefined {
    const [method, route, status] = response.split(" ");
    const answer = (this.operation(method, route).responses as Json)[status];
    if (!isObject(answer)) throw new Error(`the published ${method} ${route} declares no ${status} response`);
    return this.contentSchema(answer.content);
  }

  /** The published request body schema of `METHOD route`; undefined when the operation takes no body. */
  requestBody(method: string, route: string): Json | undefined {
    const body = this.operation(method, route).requestBody;
    return isObject(body) ? this.contentSchema(body.content) : undefined;
  }

  /** The published query parameters of `METHOD route`, by name. */
  queryParameters(method: string, route: string): Map<string, Json> {
    const parameters = this.operation(method, route).parameters;
    const query = (Array.isArray(parameters) ? parameters : []).filter(
      (parameter): parameter is Json => isObject(parameter) && parameter.in === "query",
    );
    return new Map(query.map((parameter) => [parameter.name as string, parameter]));
  }

  /** The short name of the schema a `$ref` names (`RegistryInsertPropertiesDto`); undefined without one. */
  static refName(schema: Json | undefined): string | undefined {
    return typeof schema?.$ref === "string" ? schema.$ref.split("/").pop()?.split(".").pop() : undefined;
  }
}
