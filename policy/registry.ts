/**
 * The pack's rule on Registry: the billing period is declared, not left to the service's default, and is one
 * the team allows.
 */
import type { ResourceValidationPolicy } from "@pulumi/policy";
import { BILLING_PERIODS, type BillingPeriod } from "../provider/common/billing";
import { isOneOf } from "../provider/common/typed";
import { isKindType, isUnknown, named, plainProps, settings } from "./values";
import { closedParameters } from "./parameters";

/** Settings of `registry-billing-period`. */
export interface RegistryBillingPeriodSettings {
  /** Billing periods a registry may declare. Default all: `Hour`, `Month`, `Year`. */
  allowedBillingPeriods: BillingPeriod[];
}
const DEFAULTS: RegistryBillingPeriodSettings = { allowedBillingPeriods: [...BILLING_PERIODS] };

/** Registries declare an allowed `billingPeriod` rather than being billed on the service's default one. */
export const registryBillingPeriod = closedParameters<ResourceValidationPolicy>({
  name: "registry-billing-period",
  description:
    "Registries declare an allowed billing period (billingPeriod) instead of being left on the service's default.",
  enforcementLevel: "advisory",
  configSchema: {
    properties: {
      allowedBillingPeriods: {
        type: "array",
        items: { type: "string", enum: [...BILLING_PERIODS] },
        minItems: 1,
        default: [...BILLING_PERIODS],
        description: "Billing periods a registry may declare.",
      },
    },
  },
  validateResource: (args, report) => {
    if (!isKindType(args.type, "Registry")) return;
    const { allowedBillingPeriods } = settings(
      DEFAULTS,
      args.getConfig<Partial<RegistryBillingPeriodSettings>>(),
    );
    const period = plainProps(args.props).billingPeriod;
    const allowed = allowedBillingPeriods.join(", ");
    const who = `${named("Registry", args.name)} billingPeriod`;
    if (period === undefined || period === null) {
      report(`${who}: not set, so the service's default billing period applies; set one of ${allowed}`);
    } else if (
      !isUnknown(period) &&
      (typeof period !== "string" || !isOneOf(period, allowedBillingPeriods))
    ) {
      report(`${who}: ${JSON.stringify(period)} is not allowed; allowed: ${allowed} (allowedBillingPeriods)`);
    }
  },
});
