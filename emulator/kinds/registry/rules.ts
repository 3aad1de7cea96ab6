/**
 * What the service refuses of a registry beyond the shape of its body (the schemas check the shape), reported
 * as field errors in the request's spelling, all at once.
 */
import type { RegistryInsert } from "../../../schemas/registry";
import { checkLocationOnCreate } from "../../base/location";
import type { WireFieldError } from "../../base/problems";

/** Problems of a registry insert body. */
export function checkRegistryInsert(body: RegistryInsert): WireFieldError[] {
  const errors: WireFieldError[] = [...checkLocationOnCreate(body.metadata)];
  if (body.properties.adminUser.username.trim().toLowerCase() === "admin") {
    // api-notes "Registry": `admin` is reserved.
    errors.push({ fieldName: "properties.adminUser.username", errorMessage: `"admin" is reserved` });
  }
  return errors;
}
