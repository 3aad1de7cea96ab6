import { normaliseBillingPeriod } from "./resource";

/** Billing period of a cluster or registry (api-notes "KaaS"). */
export type BillingPeriod = "Hour" | "Month" | "Year";

/** The billing periods the service takes, shared by the kinds that are billed (clusters, registries). */
export const BILLING_PERIODS: readonly BillingPeriod[] = ["Hour", "Month", "Year"];

/**
 * The billing period an import records from the service's answer (`monthly` read as `Month`), or undefined
 * when the answer is none of the three: an argument the update could not send back is better left out.
 */
export function answeredBillingPeriod(answered: string | null | undefined): BillingPeriod | undefined {
  const normalised = normaliseBillingPeriod(answered);
  return BILLING_PERIODS.find((period) => period === normalised);
}

/**
 * The billing period a refresh records of a cluster or registry from the period the service answered, or
 * undefined to keep the declared one. An undeclared period is not adopted: the service answers its default, and
 * update could not send it back. The answer is read in the input spelling (`monthly` as `Month`); a spelling
 * outside the three is kept as answered, so the next plan sends the declared period again.
 */
export function liveBillingPeriod(
  declared: BillingPeriod | undefined,
  answered: string | null | undefined,
): BillingPeriod | undefined {
  const period = normaliseBillingPeriod(answered);
  if (period === undefined || declared === undefined) return undefined;
  // Typed as the declared argument, though kept as answered even outside the three spellings (see above).
  return period as BillingPeriod;
}
