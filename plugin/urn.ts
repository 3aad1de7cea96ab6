/**
 * What a URN says of its resource. Every method of the provider protocol receives the URN of the resource it
 * acts on (`urn:pulumi:<stack>::<project>::<type>::<name>`), so on the plugin path the stack and project a
 * resource belongs to are read from it exactly, never guessed from the process (provider/common/stack.ts is the
 * dynamic path's fallback, which has no URN).
 */

/** The parts of a resource URN the provider uses. */
export interface UrnParts {
  stack: string;
  project: string;
  /** The resource's type token, without its parents' types (`vendor-container:index:Kaas`). */
  type: string;
  /** The resource's name in the program. */
  name: string;
}

/** The parts of `urn`, or undefined when it is not a resource URN. */
export function parseUrn(urn: string): UrnParts | undefined {
  const match = /^urn:pulumi:([^:]+)::([^:]+)::([^]+?)::([^]*)$/.exec(urn);
  if (!match) return undefined;
  const [, stack, project, qualifiedType, name] = match;
  // A child's type is qualified by its parents' types, `parent$child`: the last one is its own.
  const type = qualifiedType.split("$").pop() ?? qualifiedType;
  return { stack, project, type, name };
}

/**
 * The creation scope of the resource `urn` names: `<project>/<stack>/<name>`, the string the dynamic path's
 * classes send as `creationScope` (sdk/inputs.ts), so that both paths tag and find objects alike.
 */
export function scopeOfUrn(urn: string): string | undefined {
  const parts = parseUrn(urn);
  return parts && `${parts.project}/${parts.stack}/${parts.name}`;
}
