/** Billing period of a cluster or registry (api-notes "KaaS"). */
export type BillingPeriod = "Hour" | "Month" | "Year";

/** The billing periods the service takes, shared by the kinds that are billed (clusters, registries). */
export const BILLING_PERIODS: readonly BillingPeriod[] = ["Hour", "Month", "Year"];

/**
 * The billing period an import records from the service's answer (`monthly` read as `Month`), or undefined
 * when the answer is none of the three: an argument the update could not send back is better left out.
 */
export function answeredBillingPeriod(normalised: string | undefined): BillingPeriod | undefined {
  return BILLING_PERIODS.find((period) => period === normalised);
}
