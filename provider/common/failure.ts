/**
 * Partial failure (dynamic-provider notes): when create or update fails after the service accepted the
 * object, the error must carry the id, the outputs and the reasons, so the engine keeps the object in state
 * instead of orphaning it; the next `up` calls `update`, which resumes waiting. The engine stores the
 * error's `properties` as they are, without adding `__provider`: it is added here, or a later `destroy` or
 * `refresh` of that resource fails and orphans it after all.
 */
import { redact } from "../../rest/redact";

export interface PartialFailure extends Error {
  id: string;
  properties: Record<string, unknown>;
  reasons: string[];
}

/** Builds the error that makes the engine record `id` with `properties` and the init error `reason`. */
export function partialFailure(
  id: string,
  properties: Record<string, unknown>,
  inputs: Record<string, unknown>,
  reason: string,
): PartialFailure {
  const message = redact(reason);
  const error = new Error(message) as PartialFailure;
  error.id = id;
  error.properties = { ...properties, __provider: inputs.__provider };
  error.reasons = [message];
  return error;
}
