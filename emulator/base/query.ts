/**
 * The query of a request as its endpoint reads it: the parameters that the query schema of its entry in the
 * endpoint table (`schemas/endpoints.ts`) declares, each converted from its text by the JSON type of its
 * property schema, the way fastify reads a querystring against its schema. Parameters the schema does not
 * declare are ignored. The dispatch (`routes.ts`) hands the result to the endpoint's handler as `req.options`,
 * typed by the table (`QueryOf`), so no handler names a parameter or converts its text.
 *
 * What the table's schemas cannot say stays with the handler that means it: the list's bounds of `offset` and
 * `limit`, and the grammars of `filter`, `sort` and `projection`, are checked by `filter.ts` on the typed values.
 */
import { KindGuard, type TInteger, type TObject, type TSchema } from "@sinclair/typebox";
import { ENDPOINTS, type Endpoint, type EndpointName, type QueryOf } from "../../schemas/endpoints";
import { WIRE_SCHEMAS } from "../../schemas";
import { ApiProblem, type WireFieldError } from "./problems";

type Endpoints = typeof ENDPOINTS;

/** A parameter's value as its property schema types it. */
type QueryValue = boolean | number | string;

/**
 * The reading of one parameter's text: its value, or the field error of the 400 with the words the problem's
 * `detail` gives it.
 */
type Reading = { value: QueryValue } | { error: WireFieldError; detail: string };

/**
 * What an integer parameter outside `[min, max]`, or no integer at all, is told: the list's semantic bounds
 * (`filter.ts`) are worded the same way as a schema's.
 */
export function integerMessage(min: number, max: number): string {
  if (min === -Infinity && max === Infinity) return "must be an integer";
  if (max === Infinity) return `must be an integer >= ${min}`;
  if (min === -Infinity) return `must be an integer <= ${max}`;
  return `must be an integer between ${min} and ${max}`;
}

/** A flag: `true` or `false` in any case. Its detail reads as flags' always have: `name must be true or false`. */
function readBoolean(name: string, text: string): Reading {
  if (/^true$/i.test(text)) return { value: true };
  if (/^false$/i.test(text)) return { value: false };
  return {
    error: { fieldName: name, errorMessage: `must be true or false (got "${text}")` },
    detail: `${name} must be true or false`,
  };
}

/** An integer within the schema's `minimum` and `maximum`; `Number`'s reading of the text, as lists always had. */
function readInteger(name: string, text: string, schema: TInteger): Reading {
  const min = schema.minimum ?? -Infinity;
  const max = schema.maximum ?? Infinity;
  const value = Number(text);
  if (Number.isInteger(value) && value >= min && value <= max) return { value };
  const errorMessage = integerMessage(min, max);
  return { error: { fieldName: name, errorMessage }, detail: `${name}: ${errorMessage}` };
}

/**
 * The reading of parameter `name` whose text is `text`, by its property schema; undefined when the parameter is
 * absent. An empty flag or integer is absent, as a bare `?limit=` always was; an empty string is a string (an
 * empty `filter` is still a filter, which the `refused` reading refuses).
 */
function readParameter(name: string, text: string, schema: TSchema): Reading | undefined {
  if (KindGuard.IsString(schema)) return { value: text };
  if (text === "") return undefined;
  if (KindGuard.IsBoolean(schema)) return readBoolean(name, text);
  if (KindGuard.IsInteger(schema)) return readInteger(name, text, schema);
  // A query schema of the table with a property of another type: an error of the table, not of the request.
  throw new Error(`the query parameter ${name} has a type no query is read as: ${String(schema.type)}`);
}

/**
 * The options of a request of endpoint `name` whose query is `query`: every parameter the endpoint's query
 * schema declares and the request carries, typed by the schema. Throws one 400 `invalidQuery` naming every
 * parameter that does not read as its type, in the schema's order, its `detail` each one's words joined by `; `.
 */
export function queryOptions<N extends EndpointName>(name: N, query: URLSearchParams): QueryOf<Endpoints[N]> {
  const endpoint: Endpoint = ENDPOINTS[name];
  const options: Record<string, QueryValue> = {};
  const errors: WireFieldError[] = [];
  const details: string[] = [];
  const schema: TObject | undefined = endpoint.query === undefined ? undefined : WIRE_SCHEMAS[endpoint.query];
  for (const [parameter, property] of Object.entries(schema?.properties ?? {})) {
    const text = query.get(parameter);
    const reading = text === null ? undefined : readParameter(parameter, text, property);
    if (reading === undefined) continue;
    if ("value" in reading) {
      options[parameter] = reading.value;
    } else {
      errors.push(reading.error);
      details.push(reading.detail);
    }
  }
  if (errors.length > 0) throw new ApiProblem("invalidQuery", { errors, detail: details.join("; ") });
  // Each property read is of its schema's type and within its bounds, and the schema's properties are all
  // optional, so `options` is the schema's static type; TypeScript does not follow a walk of a schema.
  return options;
}
