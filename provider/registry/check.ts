/** `check` of a Registry: every problem at once, before any call; defaults and the creation token. */
import {
  Problems,
  metadata,
  projectId,
  network,
  oneOf,
  rejectUnknownProperties,
  str,
  timeouts,
  type CheckFailure,
  type Inputs,
} from "../common/check";
import { creationTokenOf } from "../common/resource";

export const REGISTRY_ARGUMENTS = [
  "projectId",
  "name",
  "location",
  "tags",
  "preset",
  "vpcUri",
  "subnetUri",
  "securityGroupUri",
  "publicIpUri",
  "blockStorageUri",
  "size",
  "adminUsername",
  "billingPeriod",
  "adminPasswordResetTrigger",
  "timeouts",
  "adoptId",
  "creationScope",
  "creationToken",
] as const;

/** Arguments whose change replaces the registry; they also seed the creation token. */
export const REGISTRY_CREATE_ONLY = [
  "projectId",
  "location",
  "preset",
  "vpcUri",
  "subnetUri",
  "securityGroupUri",
  "blockStorageUri",
  "size",
  "adminUsername",
] as const;

/** Administrator names the service reserves (api-notes "Registry"). */
export const RESERVED_ADMIN_NAMES = ["admin"];

export function checkRegistry(
  _olds: Inputs,
  news: Inputs,
  ctx: { defaultProjectId?: string },
): { inputs: Inputs; failures: CheckFailure[] } {
  const p = new Problems();
  const inputs: Inputs = { ...news };
  rejectUnknownProperties(news, REGISTRY_ARGUMENTS, p);
  projectId(inputs, ctx.defaultProjectId, p);
  metadata(news, p);
  network(news, inputs, p);
  for (const key of ["securityGroupUri", "publicIpUri", "blockStorageUri", "size"]) str(news[key], key, p);
  const admin = str(news.adminUsername, "adminUsername", p, {
    required: true,
    pattern: /^[a-z][a-z0-9_-]{2,31}$/,
    patternHint: "must be 3-32 lower-case letters, digits, '_' or '-', starting with a letter",
  });
  if (admin !== undefined && RESERVED_ADMIN_NAMES.includes(admin)) {
    p.add("adminUsername", `"${admin}" is reserved by the service; choose another name`);
  }
  oneOf(news.billingPeriod, "billingPeriod", ["Hour", "Month", "Year"] as const, p);
  str(news.adminPasswordResetTrigger, "adminPasswordResetTrigger", p);
  timeouts(news.timeouts, "timeouts", p);
  str(news.adoptId, "adoptId", p);
  str(news.creationScope, "creationScope", p);
  inputs.creationToken = creationTokenOf(inputs, REGISTRY_CREATE_ONLY);
  return { inputs, failures: p.failures };
}
