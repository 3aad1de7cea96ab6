/** `check` of a KaasBackup: every problem at once, before any call; defaults and the creation token. */
import {
  Problems,
  metadata,
  projectId,
  int,
  rejectUnknownProperties,
  str,
  timeouts,
  type CheckFailure,
  type Inputs,
} from "../common/check";
import { creationTokenOf } from "../common/resource";

export const BACKUP_ARGUMENTS = [
  "projectId",
  "kaasId",
  "name",
  "location",
  "tags",
  "type",
  "retentionDays",
  "billingPeriod",
  "timeouts",
  "adoptId",
  "creationScope",
  "creationToken",
] as const;

/** Arguments whose change replaces the backup; they also seed the creation token. */
export const BACKUP_CREATE_ONLY = ["projectId", "kaasId", "location", "type", "retentionDays"] as const;

export function checkBackup(
  _olds: Inputs,
  news: Inputs,
  ctx: { defaultProjectId?: string },
): { inputs: Inputs; failures: CheckFailure[] } {
  const p = new Problems();
  const inputs: Inputs = { ...news };
  rejectUnknownProperties(news, BACKUP_ARGUMENTS, p);
  projectId(inputs, ctx.defaultProjectId, p);
  str(news.kaasId, "kaasId", p, { required: true });
  metadata(news, p);
  str(news.type, "type", p, { required: false });
  int(news.retentionDays, "retentionDays", p, { min: 1, max: 3650 });
  str(news.billingPeriod, "billingPeriod", p);
  timeouts(news.timeouts, "timeouts", p);
  str(news.adoptId, "adoptId", p);
  str(news.creationScope, "creationScope", p);
  inputs.creationToken = creationTokenOf(inputs, BACKUP_CREATE_ONLY);
  return { inputs, failures: p.failures };
}
