/**
 * The classes a service state falls in, apart from the waiter (rest/waiter.ts) that uses them: the settings
 * (rest/settings.ts) parse `vendor:stateNames` into them, and the waiter reads the settings' sources.
 */

/**
 * What a state means to the provider: `settled` (a wait for it is done), `transitional` (work in progress),
 * `deleting` (a deletion in progress), `deleted` (gone, final) or `failed` (final, with the service's reason).
 */
export type StateClass = "settled" | "transitional" | "deleting" | "deleted" | "failed";

/** Every state class, checked complete by the compiler. */
const STATE_CLASS_SET: Record<StateClass, true> = {
  settled: true,
  transitional: true,
  deleting: true,
  deleted: true,
  failed: true,
};

/** Every state class, in the order messages list them. */
export const STATE_CLASSES: readonly StateClass[] = [
  "settled",
  "transitional",
  "deleting",
  "deleted",
  "failed",
];

/** Whether `name` is a state class (case-sensitive: callers lower-case first). */
export function isStateClass(name: string): name is StateClass {
  return Object.hasOwn(STATE_CLASS_SET, name);
}
