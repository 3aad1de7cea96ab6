/**
 * The rules every kind applies to a request's `metadata.location`: a create names it, an update never changes it.
 * Each reports a field error in the request's spelling, as the kinds' own rules do.
 */
import type { MetadataRequest } from "../../schemas/common";
import type { WireFieldError } from "./problems";

/** Problems of the location of a create: it is required (api-notes "Envelopes": create requests include it). */
export function checkLocationOnCreate(metadata: MetadataRequest): WireFieldError[] {
  return metadata.location ? [] : [{ fieldName: "metadata.location", errorMessage: "Location is required" }];
}

/**
 * Problems of the location of an update (spec §9): absent is fine, an empty value is refused by the schema
 * ("Location Invalid"), and a different value is refused because the location never changes.
 */
export function checkLocationOnUpdate(
  metadata: MetadataRequest | undefined,
  current: string,
): WireFieldError[] {
  const value = metadata?.location?.value;
  if (value === undefined || value === current) return [];
  return [
    {
      fieldName: "metadata.location",
      errorMessage: `Location cannot be changed (the resource is in "${current}")`,
    },
  ];
}
