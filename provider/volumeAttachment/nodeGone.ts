/**
 * Whether the service's refusal of a node-level detach says that the node is gone, so the cluster-level
 * detach is the way left. Pure; `provider.ts` applies it.
 */
import { isVendorApiError, problemText } from "../../rest/errors";

/** Fields that name the node (or its pool) in the detach path. */
const NODE_FIELD = /^(?:.*\.)?(?:nodeId|nodePoolId|nodePoolName)$/i;

/** A sentence saying that a node (or a node pool) does not exist. */
const NODE_MISSING =
  /\bnode(?:\s*pool)?\b[^.;]*?\b(?:not found|does not exist|doesn't exist|no longer exists|is gone|was removed)\b/i;

/**
 * True when a node-level detach was refused because its node is gone (a pool scaled down or replaced):
 * a 404, or a 400 whose problem names the node, as a field error on `nodeId` (or the pool) or in a title or
 * detail saying the node does not exist or is not found. The published detach lists only 400 and 500, so a
 * gone node may be either (api-notes "Volumes"). Any other 400 (a malformed volume, a busy cluster) is not
 * taken for a gone node.
 */
export function isNodeGone(error: unknown): boolean {
  if (!isVendorApiError(error) || error.kind !== "http") return false;
  if (error.status === 404) return true;
  if (error.status !== 400) return false;
  if (error.fieldErrors.some((f) => NODE_FIELD.test(f.field))) return true;
  const said = [problemText(error.problem), ...error.fieldErrors.map((f) => f.message)];
  return said.some((text) => NODE_MISSING.test(text));
}
