/** `check` of a KaasBackup: every problem at once, before any call; defaults and the creation token. */
import {
  Problems,
  projectId,
  int,
  rejectUnknownProperties,
  str,
  strArray,
  timeouts,
  type CheckFailure,
  type Inputs,
} from "../common/check";
import { CREATION_TAG_PREFIX, creationTokenOf } from "../common/resource";

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
  str(news.name, "name", p, { required: true, maxLength: 63 });
  str(news.location, "location", p, { required: true });
  strArray(news.tags, "tags", p, (tag, at) => {
    if (tag.startsWith(CREATION_TAG_PREFIX))
      p.add(at, `must not start with "${CREATION_TAG_PREFIX}" (reserved)`);
  });
  str(news.type, "type", p, { required: false });
  int(news.retentionDays, "retentionDays", p, { min: 1, max: 3650 });
  str(news.billingPeriod, "billingPeriod", p);
  timeouts(news.timeouts, "timeouts", p);
  str(news.adoptId, "adoptId", p);
  str(news.creationScope, "creationScope", p);
  inputs.creationToken = creationTokenOf(inputs, BACKUP_CREATE_ONLY);
  return { inputs, failures: p.failures };
}
