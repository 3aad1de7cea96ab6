/**
 * The pack's rule on KaasBackup: in a stack that requires it, every cluster has a backup keeping at least the
 * configured number of days. A stack rule, since it relates resources to each other.
 */
import type { StackValidationPolicy } from "@pulumi/policy";
import { PRODUCTION_STACKS, STACKS_SCHEMA } from "./kaas";
import {
  clusterOf,
  isUnknown,
  matchesAny,
  named,
  resourcesOfKind,
  settings,
  stackOfUrn,
  type StackResource,
} from "./values";
import { closedParameters } from "./parameters";

/** Settings of `kaas-backup-required`. */
export interface BackupRequiredSettings {
  /** Stack-name patterns of the stacks that require a backup per cluster. Default the production ones. */
  stacks: string[];
  /** Fewest days a cluster's backup must keep (`retentionDays`). Default 7. */
  minRetentionDays: number;
}
const DEFAULTS: BackupRequiredSettings = { stacks: PRODUCTION_STACKS, minRetentionDays: 7 };

/**
 * Every cluster of a stack that requires it has a KaasBackup (one whose `kaasId` is the cluster's) declaring a
 * `retentionDays` of at least the minimum. A retention not known yet counts as enough.
 */
export const kaasBackupRequired = closedParameters<StackValidationPolicy>({
  name: "kaas-backup-required",
  description:
    "Every cluster of a stack that requires backups has a KaasBackup keeping at least the configured number of days (retentionDays).",
  enforcementLevel: "mandatory",
  configSchema: {
    properties: {
      stacks: { ...STACKS_SCHEMA, description: "Stack names that require a backup of every cluster." },
      minRetentionDays: {
        type: "integer",
        minimum: 1,
        default: DEFAULTS.minRetentionDays,
        description: "Fewest days a cluster's backup must keep.",
      },
    },
  },
  validateStack: (args, report) => {
    const { stacks, minRetentionDays } = settings(
      DEFAULTS,
      args.getConfig<Partial<BackupRequiredSettings>>(),
    );
    const clusters = resourcesOfKind(args.resources, "Kaas");
    if (clusters.length === 0) return;
    const stack = stackOfUrn(clusters[0].urn);
    if (!matchesAny(stacks, stack)) return;
    const backups = resourcesOfKind(args.resources, "KaasBackup");
    const keepsEnough = (backup: StackResource) => {
      const days = backup.props.retentionDays;
      return isUnknown(days) || (typeof days === "number" && days >= minRetentionDays);
    };
    for (const cluster of clusters) {
      const own = backups.filter((b) => clusterOf(b, clusters) === cluster);
      if (own.length === 0) {
        report(
          `${named("Kaas", cluster.name)} kaasId: no KaasBackup backs up this cluster; every cluster of stack "${stack}" needs a KaasBackup with kaasId set to its kaasId, keeping at least ${minRetentionDays} days (minRetentionDays)`,
          cluster.urn,
        );
        continue;
      }
      if (own.some(keepsEnough)) continue;
      for (const backup of own) {
        const days = backup.props.retentionDays;
        const who = `${named("KaasBackup", backup.name)} retentionDays`;
        const required = `the backup of ${named("Kaas", cluster.name)} must keep at least ${minRetentionDays} days (minRetentionDays) in stack "${stack}"`;
        // Any other value is not a number of days, which `check` refuses with its own message.
        if (typeof days === "number") {
          report(`${who}: ${days} ${days === 1 ? "day" : "days"} is too short; ${required}`, backup.urn);
        } else if (days === undefined || days === null) {
          report(`${who}: not set (the service's default applies); ${required}`, backup.urn);
        }
      }
    }
  },
});
