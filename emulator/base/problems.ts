/**
 * The one table of error codes of the emulator, rendered as problem details (RFC 9457; spec §7 and the
 * reference's `{type, title, status, detail, instance, errors?, traceId}`).
 *
 * Handlers throw an `ApiProblem` naming a code of `PROBLEMS`; the app renders it. Field errors use the live
 * wire spelling `{fieldName, errorMessage}` (api-notes "Errors"), with `fieldName` in the request's own
 * dotted spelling, e.g. `properties.nodeCidr.address` or `properties.nodePools[1].name`. How they reach the
 * wire is the reading `wire.errors` of the configuration (see `ApiProblem.toBody`).
 */
import type { SchemaProblem } from "../../schemas/validate";
import type { WireReadings } from "./config";

/** One field-level error as the live service spells it. */
export interface WireFieldError {
  fieldName: string;
  errorMessage: string;
}

/**
 * The `errors` member of a problem body: `[{fieldName, errorMessage}]` (the wire notes' shape) or, under the
 * reading `errors=map`, `{fieldName: [messages]}` (the ASP.NET shape).
 */
export type WireErrors = WireFieldError[] | Record<string, string[]>;

/** A problem-details body as the emulator answers it. */
export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string | null;
  instance: string | null;
  errors?: WireErrors;
  traceId: string;
}

/** The detail of a problem whose field errors are in its `errors` member. */
export const SEE_ERRORS = "See the errors property for details.";

/**
 * The `type` of a problem: the section of RFC 9110 that defines its status (RFC 6585 for 429), as the service's
 * ASP.NET stack links them.
 */
const STATUS_SECTIONS: Record<number, string> = {
  400: "rfc9110#section-15.5.1",
  401: "rfc9110#section-15.5.2",
  404: "rfc9110#section-15.5.5",
  405: "rfc9110#section-15.5.6",
  413: "rfc9110#section-15.5.14",
  415: "rfc9110#section-15.5.16",
  429: "rfc6585#section-4",
  500: "rfc9110#section-15.6.1",
  502: "rfc9110#section-15.6.3",
  503: "rfc9110#section-15.6.4",
  504: "rfc9110#section-15.6.5",
};

/** One row of `PROBLEMS`: its status, the type that status links to, its title. */
function problem<S extends number, T extends string>(status: S, title: T, plainText?: true) {
  const section = STATUS_SECTIONS[status];
  if (section === undefined) throw new Error(`no RFC section for status ${status}`);
  return {
    status,
    type: `https://tools.ietf.org/html/${section}`,
    title,
    ...(plainText ? { plainText } : {}),
  };
}

/**
 * Every error the emulator answers. `plainText` marks gateway faults that real gateways answer with a
 * plain-text body (api-notes "Errors": "Some 5xx bodies are plain text (`Bad Gateway`)").
 */
export const PROBLEMS = {
  validation: problem(400, "One or more validation errors occurred."),
  malformedJson: problem(400, "The request body is not valid JSON."),
  invalidQuery: problem(400, "Invalid query parameter."),
  unsupportedApiVersion: problem(400, "Unsupported api-version."),
  busy: problem(400, "Resource is busy"),
  notOperational: problem(400, "Resource is not operational"),
  notActive: problem(400, "Resource is not active"),
  unauthorized: problem(401, "Unauthorized"),
  notFound: problem(404, "Resource not found"),
  routeNotFound: problem(404, "Not Found"),
  methodNotAllowed: problem(405, "Method Not Allowed"),
  payloadTooLarge: problem(413, "Payload Too Large"),
  unsupportedMediaType: problem(415, "Unsupported Media Type"),
  rateLimited: problem(429, "Too Many Requests"),
  internal: problem(500, "Internal Server Error"),
  badGateway: problem(502, "Bad Gateway", true),
  unavailable: problem(503, "Service Unavailable"),
  gatewayTimeout: problem(504, "Gateway Timeout", true),
};

/** A code of the `PROBLEMS` table. */
export type ProblemCode = keyof typeof PROBLEMS;

/** The problem code an injected fault of `status` answers with. */
export const FAULT_PROBLEMS: Record<number, ProblemCode> = {
  429: "rateLimited",
  500: "internal",
  502: "badGateway",
  503: "unavailable",
  504: "gatewayTimeout",
};

/** Options of one problem: a more specific title, the detail, field errors and extra headers. */
export interface ApiProblemInit {
  title?: string;
  detail?: string;
  errors?: WireFieldError[];
  headers?: Record<string, string>;
}

/** Thrown by handlers; rendered by the app as a problem-details answer. */
export class ApiProblem extends Error {
  readonly code: ProblemCode;
  readonly status: number;
  readonly title: string;
  readonly detail: string | null;
  readonly errors?: WireFieldError[];
  readonly headers: Record<string, string>;

  constructor(code: ProblemCode, init: ApiProblemInit = {}) {
    const entry = PROBLEMS[code];
    super(init.title ?? init.detail ?? entry.title);
    this.code = code;
    this.status = entry.status;
    this.title = init.title ?? entry.title;
    this.detail = init.detail ?? null;
    this.errors = init.errors;
    this.headers = init.headers ?? {};
  }

  /**
   * Renders the problem-details body for the request at `instance`, its field errors as the reading
   * `errors` says (api-notes "What the published interface does not show"): `array` of `{fieldName,
   * errorMessage}`, `map` of field name to messages, or `absent`, where only `detail` carries them.
   */
  toBody(instance: string, traceId: string, errors: WireReadings["errors"] = "array"): ProblemBody {
    const fieldErrors = this.errors ?? [];
    const body: ProblemBody = {
      type: PROBLEMS[this.code].type,
      title: this.title,
      status: this.status,
      detail: this.detail,
      instance,
      traceId,
    };
    if (fieldErrors.length === 0) return body;
    switch (errors) {
      case "array":
        body.detail ??= SEE_ERRORS;
        body.errors = fieldErrors;
        break;
      case "map": {
        const map: Record<string, string[]> = {};
        for (const e of fieldErrors) (map[e.fieldName] ??= []).push(e.errorMessage);
        body.detail ??= SEE_ERRORS;
        body.errors = map;
        break;
      }
      case "absent":
        body.detail = detailListing(this.detail, fieldErrors);
        break;
    }
    return body;
  }
}

/**
 * The detail of a problem without an `errors` member: every field error as `field: message`, joined by `; `,
 * after the problem's own detail unless that already lists them.
 */
function detailListing(own: string | null, errors: WireFieldError[]): string {
  const listed = errors.map((e) => `${e.fieldName}: ${e.errorMessage}`).join("; ");
  if (own === null || own === "") return listed;
  if (own.includes(listed)) return own;
  return `${/[.!?]$/.test(own) ? own : `${own}.`} ${listed}`;
}

/** A 400 carrying field errors: the permanent kind of 400 (api-notes "Conventions on the wire"). */
export function validationProblem(errors: WireFieldError[], detail?: string): ApiProblem {
  // Without a detail of its own, the body's detail points to `errors` or, when that member is absent, lists them.
  return new ApiProblem("validation", { errors, detail });
}

/**
 * Converts a JSON pointer of `validateSchema` (`/properties/nodePools/0/name`) to the wire's dotted field
 * name (`properties.nodePools[0].name`). The root becomes `body`.
 */
export function pointerToFieldName(pointer: string): string {
  const parts = pointer.split("/").filter((p) => p !== "");
  if (parts.length === 0) return "body";
  let out = "";
  for (const raw of parts) {
    const part = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (/^\d+$/.test(part)) out += `[${part}]`;
    else out += out === "" ? part : `.${part}`;
  }
  return out;
}

/**
 * Field errors of a failed schema validation. One wire quirk is reproduced here: an empty location value
 * is reported as "Location Invalid" (spec §9).
 */
export function schemaFieldErrors(problems: SchemaProblem[]): WireFieldError[] {
  return problems.map((p) => {
    const fieldName = pointerToFieldName(p.path);
    if (fieldName === "metadata.location.value" || fieldName === "metadata.location") {
      return { fieldName: "metadata.location", errorMessage: "Location Invalid" };
    }
    return { fieldName, errorMessage: p.message };
  });
}
