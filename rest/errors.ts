/**
 * The one error type of the REST layer. Every failure - a body that fails validation, an HTTP error, a
 * dropped connection, a timeout, an exhausted deadline, a resource that ends in a failure state - becomes a
 * `VendorApiError` with a one-line message a user understands and no secret in it.
 *
 * Errors are recognised by the brand field `isVendorApiError`, not `instanceof`: the provider process can
 * hold two copies of this package (the one a program installed and the one an old serialized provider
 * resolves), and `instanceof` fails across copies.
 */
import type { ProblemDetails } from "../schemas/common";
import type { SchemaProblem } from "../schemas/validate";
import { redact } from "./redact";

/** What went wrong, coarsely. */
export type VendorErrorKind =
  | "validation" // the request body failed the schema: nothing was sent
  | "http" // the service answered a non-2xx status
  | "network" // the connection failed or dropped
  | "timeout" // one attempt exceeded the per-request timeout
  | "deadline" // the overall deadline of a call or a wait ran out
  | "auth" // the token endpoint refused the credentials
  | "failed"; // a resource ended in a failure state (`Failed`, `Error`, `Disabled`)

/** One field-level error, normalised from both wire spellings. */
export interface FieldProblem {
  /** The field, in the request's spelling (e.g. `properties.nodeCidr.address`); empty when none was named. */
  field: string;
  /** Why the field was refused. */
  message: string;
}

/** What a {@link VendorApiError} is made of. */
export interface VendorApiErrorInit {
  /** What went wrong, coarsely. */
  kind: VendorErrorKind;
  /** HTTP method of the request. */
  method: string;
  /** Path of the request, without the query. */
  path: string;
  /** HTTP status the service answered, when it answered. */
  status?: number;
  /** Reason phrase of the status, when the service sent one. */
  statusText?: string;
  /** The problem body the service sent. */
  problem?: ProblemDetails;
  /** Explanation when there is no problem body (a network error, a deadline). */
  detail?: string;
  /** Field errors; default those of `problem`. */
  fieldErrors?: FieldProblem[];
  /** Whether the same request may succeed when sent again; default false. */
  retryable?: boolean;
  /**
   * True when a non-idempotent request may have been processed although its answer does not say so (a
   * timeout, a dropped connection, any 5xx): create safety, the caller looks the object up before sending again.
   */
  ambiguous?: boolean;
  /** The server's `Retry-After`, in ms, when it gave one: a caller polling again later waits at least this. */
  retryAfterMs?: number;
  /**
   * True when an earlier attempt of the same request went unanswered (a dropped connection, a timeout, a 5xx)
   * and may have been processed: a refusal of the retry may then be caused by that attempt itself (an attach
   * answered "already attached").
   */
  afterLostAnswer?: boolean;
  /** True for a refusal of a busy resource: a probe saw it transitional (see `rest/busy.ts`). */
  busy?: boolean;
  /** The underlying error. */
  cause?: unknown;
  /** What the user can do about it, a sentence added to the message (e.g. the credential settings to check). */
  hint?: string;
}

const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  409: "Conflict",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

/** A JSON scalar as text: strings as they are, numbers and booleans spelled out, anything else undefined. */
function textOf(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The keys of one field error object in both spellings (api-notes "Errors"). */
const FIELD_ERROR_KEYS = ["field", "fieldName", "message", "errorMessage"];

/**
 * One field error from `{field, message}`, `{fieldName, errorMessage}` or a bare message; `field` names the
 * field when the item sits under a map key. Items of no usable shape (null, nested arrays) yield nothing.
 */
function fieldProblemOf(item: unknown, field = ""): FieldProblem | undefined {
  if (isRecord(item)) {
    return {
      field: textOf(item.field) ?? textOf(item.fieldName) ?? field,
      message: textOf(item.message) || textOf(item.errorMessage) || "is invalid",
    };
  }
  const message = textOf(item);
  return message === undefined ? undefined : { field, message: message || "is invalid" };
}

/**
 * The field errors of a problem body, whatever the shape of its `errors` member, and never throwing:
 * - an array of `{field, message}` or `{fieldName, errorMessage}` items (the documentation's and the live
 *   wire's spellings; api-notes "Errors"), bare strings allowed;
 * - a map `{field: [messages]}` (the ASP.NET shape; api-notes "What the published interface does not show"),
 *   one field error per message;
 * - a single error object or a bare string;
 * - absent, null, or anything else: none (the messages are then in `detail`).
 */
export function fieldProblemsOf(problem: unknown): FieldProblem[] {
  const errors = isRecord(problem) ? problem.errors : undefined;
  const out: FieldProblem[] = [];
  const add = (item: unknown, field?: string) => {
    const found = fieldProblemOf(item, field);
    if (found) out.push(found);
  };
  if (Array.isArray(errors)) {
    for (const item of errors) add(item);
  } else if (isRecord(errors)) {
    if (FIELD_ERROR_KEYS.some((key) => textOf(errors[key]) !== undefined)) {
      add(errors);
    } else {
      for (const [field, messages] of Object.entries(errors)) {
        const items = Array.isArray(messages) ? messages : [messages];
        const before = out.length;
        for (const item of items) add(item, field);
        // A field named with nothing usable under it still says which field the service refused.
        if (out.length === before) out.push({ field, message: "is invalid" });
      }
    }
  } else {
    add(errors);
  }
  return out;
}

/**
 * A problem body as the service sent it, or undefined when the text is not a JSON object (plain-text 5xx
 * bodies such as `Bad Gateway`, a JSON array or scalar, broken JSON). Never throws.
 */
export function parseProblem(text: string): ProblemDetails | undefined {
  if (!text.trim().startsWith("{")) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `title: detail` of a problem, each only when it is text. A title's closing full stop gives way to the
 * colon (`One or more validation errors occurred: properties.x: ...`).
 */
export function problemText(problem: ProblemDetails | undefined): string {
  if (!isRecord(problem)) return "";
  const title = textOf(problem.title)?.trim() ?? "";
  const detail = textOf(problem.detail)?.trim() ?? "";
  if (title && detail) return `${title.replace(/\.$/, "")}: ${detail}`;
  return title || detail;
}

/**
 * The error of every failed call to the service, with a one-line message such as
 * `PUT /kaas/k-1 failed (400 Bad Request): nodeCidr.address: must lie within 10.0.0.0/8, ...` and no secret
 * in it. Recognise it with {@link isVendorApiError}, not `instanceof`.
 */
export class VendorApiError extends Error {
  /** Brand used by `isVendorApiError`. */
  readonly isVendorApiError = true as const;
  /** What went wrong, coarsely. */
  readonly kind: VendorErrorKind;
  /** HTTP method of the request. */
  readonly method: string;
  /** Path of the request, without the query. */
  readonly path: string;
  /** HTTP status the service answered, when it answered. */
  readonly status?: number;
  /** The problem body the service sent. */
  readonly problem?: ProblemDetails;
  /** The fields the service (or the request schema) refused, with the reasons. */
  readonly fieldErrors: FieldProblem[];
  /** Whether the same request may succeed when sent again. */
  readonly retryable: boolean;
  /** True when a non-idempotent request may have been processed: no answer came back, or a 5xx did. */
  readonly ambiguous: boolean;
  /** The service's `Retry-After`, in ms, when it gave one. */
  readonly retryAfterMs?: number;
  /** True when the service refused the request because the resource was transitional (see `rest/busy.ts`). */
  readonly busy: boolean;
  /** True when an earlier attempt of the same request went unanswered and may have been processed. */
  readonly afterLostAnswer: boolean;

  constructor(init: VendorApiErrorInit) {
    super(redact(VendorApiError.withHint(VendorApiError.format(init), init.hint)));
    this.name = "VendorApiError";
    this.kind = init.kind;
    this.method = init.method;
    this.path = init.path;
    this.status = init.status;
    this.problem = init.problem;
    this.fieldErrors = init.fieldErrors ?? fieldProblemsOf(init.problem);
    this.retryable = init.retryable ?? false;
    this.ambiguous = init.ambiguous ?? false;
    this.retryAfterMs = init.retryAfterMs;
    this.busy = init.busy ?? false;
    this.afterLostAnswer = init.afterLostAnswer ?? false;
  }

  /** `PUT /kaas/k-1 failed (400 Bad Request): nodeCidr.address: must lie within ...` */
  static format(init: VendorApiErrorInit): string {
    const what = `${init.method} ${init.path}`;
    const fields = (init.fieldErrors ?? fieldProblemsOf(init.problem))
      .map((f) => (f.field ? `${f.field}: ${f.message}` : f.message))
      .join("; ");
    const said = problemText(init.problem);
    // An http or validation error is explained by the service's (or the schema's) words; every other kind by
    // its own detail, which for a deadline already quotes the last error (whose problem it also carries).
    const reason =
      init.kind === "http" || init.kind === "validation"
        ? fields || said || init.detail || ""
        : init.detail || fields || said || "";
    switch (init.kind) {
      case "validation":
        return `${what} not sent: invalid request body: ${reason}`;
      case "http": {
        const status = `${init.status} ${init.statusText || STATUS_TEXT[init.status ?? 0] || ""}`.trim();
        // A 2xx with an unusable body (not JSON, or not the documented shape) is the service's fault, not a failure status.
        const verb = (init.status ?? 0) < 300 ? "answered" : "failed";
        return `${what} ${verb} (${status})${reason ? `: ${reason}` : ""}`;
      }
      case "failed":
        return `${what}: ${reason}`;
      default:
        return `${what} failed (${init.kind})${reason ? `: ${reason}` : ""}`;
    }
  }

  /** `message. hint`, with one full stop between them; the message alone without a hint. */
  static withHint(message: string, hint: string | undefined): string {
    return hint ? `${message.replace(/\.$/, "")}. ${hint}` : message;
  }

  /** Builds the validation error thrown before any I/O. */
  static validation(method: string, path: string, problems: SchemaProblem[]): VendorApiError {
    return new VendorApiError({
      kind: "validation",
      method,
      path,
      fieldErrors: problems.map((p) => ({ field: p.path, message: p.message })),
    });
  }
}

/** True for any error thrown by the REST layer, whichever copy of the package threw it. */
export function isVendorApiError(error: unknown): error is VendorApiError {
  return isRecord(error) && error.isVendorApiError === true;
}

/** True for a 404 answer. */
export function isNotFound(error: unknown): boolean {
  return isVendorApiError(error) && error.kind === "http" && error.status === 404;
}
