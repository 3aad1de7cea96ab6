/**
 * The one error type of the REST layer. Every failure - a body that fails validation, an HTTP error, a
 * dropped connection, a timeout, an exhausted deadline, a resource that ends in a failure state - becomes a
 * `VendorApiError` with a one-line message a user understands and no secret in it.
 *
 * Errors are recognised by the brand field `isVendorApiError`, not `instanceof`: the provider process can
 * hold two copies of this package (the one a program installed and the one an old serialized provider
 * resolves), and `instanceof` fails across copies.
 */
import type { FieldError, ProblemDetails } from "../schemas/common";
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
  field: string;
  message: string;
}

export interface VendorApiErrorInit {
  kind: VendorErrorKind;
  method: string;
  path: string;
  status?: number;
  statusText?: string;
  problem?: ProblemDetails;
  detail?: string;
  fieldErrors?: FieldProblem[];
  retryable?: boolean;
  /** True when a request may have reached the service although no answer came back (create safety). */
  ambiguous?: boolean;
  /** The server's `Retry-After`, in ms, when it gave one: a caller polling again later waits at least this. */
  retryAfterMs?: number;
  cause?: unknown;
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

/** Normalises `{field, message}` and `{fieldName, errorMessage}` (api-notes "Errors"). */
export function fieldProblemsOf(problem: ProblemDetails | undefined): FieldProblem[] {
  const errors: FieldError[] = problem?.errors ?? [];
  return errors.map((e) => ({
    field: e.field ?? e.fieldName ?? "",
    message: e.message ?? e.errorMessage ?? "is invalid",
  }));
}

export class VendorApiError extends Error {
  /** Brand used by `isVendorApiError`. */
  readonly isVendorApiError = true as const;
  readonly kind: VendorErrorKind;
  readonly method: string;
  readonly path: string;
  readonly status?: number;
  readonly problem?: ProblemDetails;
  readonly fieldErrors: FieldProblem[];
  readonly retryable: boolean;
  readonly ambiguous: boolean;
  readonly retryAfterMs?: number;

  constructor(init: VendorApiErrorInit) {
    super(redact(VendorApiError.format(init)));
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
  }

  /** `PUT /kaas/k-1 failed (400 Bad Request): nodeCidr.address: must lie within ...` */
  static format(init: VendorApiErrorInit): string {
    const what = `${init.method} ${init.path}`;
    const fields = (init.fieldErrors ?? fieldProblemsOf(init.problem))
      .map((f) => (f.field ? `${f.field}: ${f.message}` : f.message))
      .join("; ");
    const problemText = [init.problem?.title, init.problem?.detail].filter(Boolean).join(": ");
    // An http or validation error is explained by the service's (or the schema's) words; every other kind by
    // its own detail, which for a deadline already quotes the last error (whose problem it also carries).
    const reason =
      init.kind === "http" || init.kind === "validation"
        ? fields || problemText || init.detail || ""
        : init.detail || fields || problemText || "";
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
  return (
    typeof error === "object" &&
    error !== null &&
    (error as { isVendorApiError?: unknown }).isVendorApiError === true
  );
}

/** True for a 404 answer. */
export function isNotFound(error: unknown): boolean {
  return isVendorApiError(error) && error.kind === "http" && error.status === 404;
}
