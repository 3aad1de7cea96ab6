/**
 * The busy rule, in one place. api-notes ("Conventions on the wire"): a 400 without field errors while the
 * resource is transitional (for example a DELETE while `Updating`) is transient; a 400 with field errors is
 * permanent. The published problem details may carry no `errors` member at all, so the absence of field
 * errors alone proves nothing: a 400 is taken for a busy refusal only on positive evidence, and a
 * validation failure reaches the caller after one request.
 *
 * The rule, applied by the HTTP choke point (`rest/http.ts`) to every 400:
 *   1. A create (a non-idempotent POST to a collection) is never retried: there is no resource to be busy.
 *   2. A body that shows a validation failure is final: field errors in any shape, or a title or detail in
 *      the words of a validation failure (`One or more validation errors occurred.`, `Location Invalid`, a
 *      `field.path: message` list).
 *   3. Otherwise the target is probed with a GET. Transitional now: a busy refusal, retried (with backoff,
 *      within the call's deadline) while the probe keeps saying so.
 *   4. Settled now (or the probe failed), but the refusal itself named a transitional state (`Resource is
 *      busy: Updating`, `is being updated`): the operation ended between the answer and the probe, so the
 *      request gets exactly one more try.
 *   5. Anything else is final at once.
 * An error whose refusal was busy (3) carries `busy: true`; `isUncertain` of the providers reads that flag
 * and nothing else about 400s.
 */
import type { ProblemDetails } from "../schemas/common";
import { problemText, type FieldProblem } from "./errors";
import { TRANSITIONAL_STATES } from "./waiter";

/** What the service answered, as the rule needs it. */
export interface Refusal {
  status: number;
  /** False for a create (POST to a collection). */
  idempotent: boolean;
  problem?: ProblemDetails;
  fieldErrors: readonly FieldProblem[];
  /** The raw body, read when it is not a problem object (a plain-text 400). */
  text?: string;
}

/** Words of a validation failure in a title or detail. */
const VALIDATION_WORDS =
  /\b(validation|validate|invalid|not valid|malformed|required|must|not allowed|not supported|unsupported|out of range)\b/i;

/** A `field.path: message` or `field[0]: message` item, as a detail that lists field errors spells them. */
const FIELD_ITEM = /(^|[;,\s])[A-Za-z_$][\w$-]*(\.[\w$-]+|\[\d+\])+\s*:\s*\S/;

/** A transitional state or a plain-words equivalent, as a busy refusal names it. */
const TRANSITIONAL_WORDS = new RegExp(
  `\\b(${[...TRANSITIONAL_STATES].join("|")}|busy|being (created|provisioned|updated|modified|deleted)|in progress)\\b`,
  "i",
);

/** The words of a refusal: its problem's title and detail, or the raw body of a plain-text answer. */
function wordsOf(refusal: Pick<Refusal, "problem" | "text">): string {
  return refusal.problem ? problemText(refusal.problem) : (refusal.text ?? "");
}

/** Rule 2: the body shows a validation failure, so the refusal is final whatever the resource's state. */
export function showsValidationFailure(refusal: Pick<Refusal, "problem" | "fieldErrors" | "text">): boolean {
  if (refusal.fieldErrors.length > 0) return true;
  const words = wordsOf(refusal);
  return VALIDATION_WORDS.test(words) || FIELD_ITEM.test(words);
}

/** Rules 1 and 2: whether a refusal may be a busy one, i.e. whether probing the resource is worth a GET. */
export function mayBeBusyRefusal(refusal: Refusal): boolean {
  return refusal.status === 400 && refusal.idempotent && !showsValidationFailure(refusal);
}

/** Rule 4: the refusal names a transitional state, so the resource was busy when it answered. */
export function namesTransitionalState(refusal: Pick<Refusal, "problem" | "text">): boolean {
  return TRANSITIONAL_WORDS.test(wordsOf(refusal));
}

/** What to do with a refusal that may be busy, given what the probe saw (undefined when it failed). */
export function busyVerdict(
  refusal: Pick<Refusal, "problem" | "text">,
  probeSawTransitional: boolean | undefined,
): "busy" | "settled-since" | "final" {
  if (probeSawTransitional === true) return "busy";
  return namesTransitionalState(refusal) ? "settled-since" : "final";
}
