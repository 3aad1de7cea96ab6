/**
 * The emulator's reading of a request's query by its endpoint's query schema (`emulator/query.ts`): the typed
 * options a handler receives, or the one 400 naming every parameter that does not read as its type.
 */
import { ApiProblem, type WireFieldError } from "../../emulator/base/problems";
import { queryOptions } from "../../emulator/base/query";
import { WIRE_SCHEMAS } from "../../schemas";
import { ENDPOINTS, ENDPOINT_NAMES, type Endpoint, type EndpointName } from "../../schemas/endpoints";

const INT32 = "must be an integer between -2147483648 and 2147483647";

/** The 400 of reading `query` for `endpoint`; fails when there is none. */
function problemOf(endpoint: EndpointName, query: string): ApiProblem {
  try {
    queryOptions(endpoint, new URLSearchParams(query));
  } catch (error) {
    if (error instanceof ApiProblem) return error;
    throw error;
  }
  throw new Error(`no problem for ${endpoint}?${query}`);
}

describe("queryOptions", () => {
  it.each<[EndpointName, string, Record<string, unknown>]>([
    ["getKaas", "ignoreDeletedStatus=TRUE", { ignoreDeletedStatus: true }],
    ["getKaas", "ignoreDeletedStatus=false", { ignoreDeletedStatus: false }],
    ["getBackup", "ignoreDeletedStatus=True", { ignoreDeletedStatus: true }],
    ["getRegistry", "ignoreDeletedStatus=", {}],
    ["getKaas", "api-version=1&deleteOnCascade=true", {}],
    ["deleteKaas", "deleteOnCascade=tRuE", { deleteOnCascade: true }],
    ["deleteKaas", "", {}],
    ["deleteBackup", "deleteOnCascade=yes", {}],
    ["createKaas", "limit=x", {}],
    [
      "listKaas",
      "filter=&sort=-metadata.name&projection=status&offset=3&limit=10&loadEngineVersion=yes",
      { filter: "", sort: "-metadata.name", projection: "status", offset: 3, limit: 10 },
    ],
    // The list's bounds are checked by the list (filter.ts), not by the schema's Int32.
    ["listBackups", "offset=-1&limit=0", { offset: -1, limit: 0 }],
    ["listRegistries", "loadEngineVersion=FALSE&limit=&offset=2", { loadEngineVersion: false, offset: 2 }],
    ["listRegistries", "limit=5&limit=x", { limit: 5 }],
  ])("reads %s?%s as %j", (endpoint, query, expected) => {
    expect(queryOptions(endpoint, new URLSearchParams(query))).toStrictEqual(expected);
  });

  it.each<[EndpointName, string, WireFieldError[], string]>([
    [
      "getKaas",
      "ignoreDeletedStatus=yes",
      [{ fieldName: "ignoreDeletedStatus", errorMessage: 'must be true or false (got "yes")' }],
      "ignoreDeletedStatus must be true or false",
    ],
    [
      "deleteKaas",
      "deleteOnCascade=1",
      [{ fieldName: "deleteOnCascade", errorMessage: 'must be true or false (got "1")' }],
      "deleteOnCascade must be true or false",
    ],
    [
      "listKaas",
      "limit=2.5&offset=abc",
      [
        { fieldName: "offset", errorMessage: INT32 },
        { fieldName: "limit", errorMessage: INT32 },
      ],
      `offset: ${INT32}; limit: ${INT32}`,
    ],
    [
      "listRegistries",
      "loadEngineVersion=no&offset=3000000000",
      [
        { fieldName: "offset", errorMessage: INT32 },
        { fieldName: "loadEngineVersion", errorMessage: 'must be true or false (got "no")' },
      ],
      `offset: ${INT32}; loadEngineVersion must be true or false`,
    ],
  ])("answers %s?%s with one 400 naming each bad parameter", (endpoint, query, errors, detail) => {
    const problem = problemOf(endpoint, query);
    expect(problem.code).toBe("invalidQuery");
    expect(problem.status).toBe(400);
    expect(problem.title).toBe("Invalid query parameter.");
    expect(problem.errors).toEqual(errors);
    expect(problem.detail).toBe(detail);
  });

  it("reads every query schema of the table: optional properties of the types a query is read as", () => {
    for (const name of ENDPOINT_NAMES) {
      const endpoint: Endpoint = ENDPOINTS[name];
      if (endpoint.query === undefined) continue;
      const schema = WIRE_SCHEMAS[endpoint.query];
      // The options are the schema's type only if an absent parameter is allowed (query.ts).
      expect([name, schema.required ?? []]).toEqual([name, []]);
      for (const [parameter, property] of Object.entries(schema.properties)) {
        expect([name, parameter, ["boolean", "integer", "string"].includes(String(property.type))]).toEqual([
          name,
          parameter,
          true,
        ]);
      }
      expect(queryOptions(name, new URLSearchParams())).toStrictEqual({});
    }
  });
});
