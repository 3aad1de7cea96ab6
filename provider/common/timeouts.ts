/**
 * The deadlines every kind takes as its `timeouts` argument. The defaults differ by kind (a cluster takes far
 * longer to provision than a backup), so each kind states its own: its class's constructor, or its `timeouts`
 * argument.
 */

/** Create, update and delete deadlines, as durations like `"40m"`, `"1h30m"` or `"90s"`. */
export interface Timeouts {
  /** How long `create` waits for the new object to be ready. The default is the kind's (its class states it). */
  create?: string;
  /** How long `update` waits for the object to be ready again. The default is the kind's. */
  update?: string;
  /** How long `delete` waits for the object to be gone. The default is the kind's. */
  delete?: string;
}
