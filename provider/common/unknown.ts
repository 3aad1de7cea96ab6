/**
 * Unknown values. During preview the engine sends values it does not know yet (outputs of resources not
 * yet created) as this sentinel string, at any depth (dynamic-provider notes: "check"). They are kept as
 * they are and never validated, and they never cause a replacement by themselves.
 */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** True for the unknown sentinel itself. */
export const isUnknown = (value: unknown): boolean => value === UNKNOWN;

/** True when the sentinel appears anywhere inside `value`. */
export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value !== null && typeof value === "object") return Object.values(value).some(containsUnknown);
  return false;
}
