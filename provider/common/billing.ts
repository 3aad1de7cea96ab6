/** Billing period of a cluster or registry (api-notes "KaaS"). */
export type BillingPeriod = "Hour" | "Month" | "Year";

/** The billing periods the service takes, shared by the kinds that are billed (clusters, registries). */
export const BILLING_PERIODS: readonly BillingPeriod[] = ["Hour", "Month", "Year"];
