/**
 * The rule that takes a refused node-level detach for a gone node (api-notes "Volumes"): a 404, or a 400
 * naming the node, under each spelling of field errors; nothing else.
 */
import { VendorApiError } from "../../rest/errors";
import type { ProblemDetails } from "../../schemas/common";
import { isNodeGone } from "../../provider/volumeAttachment/nodeGone";

const PATH = "/kaas/k-1/nodePools/pool-1/nodes/k-1-pool-1-2/detach";
const answered = (status: number, problem?: Record<string, unknown>) =>
  new VendorApiError({
    kind: "http",
    method: "POST",
    path: PATH,
    status,
    problem: problem as ProblemDetails,
  });
const GONE = 'node "k-1-pool-1-2" does not exist in node pool "pool-1" of KaaS "k-1"';
const VALIDATION = "One or more validation errors occurred.";

const CASES: [string, unknown, boolean][] = [
  ["a 404 without a body", answered(404), true],
  ["a 404 saying the volume is not on the node", answered(404, { title: "Volume not attached" }), true],
  [
    "a 400 with a field error on nodeId (array)",
    answered(400, { title: VALIDATION, errors: [{ fieldName: "nodeId", errorMessage: GONE }] }),
    true,
  ],
  [
    "a 400 with a field error on nodeId (map)",
    answered(400, { title: VALIDATION, errors: { nodeId: [GONE] } }),
    true,
  ],
  [
    "a 400 with a field error on the pool",
    answered(400, { title: VALIDATION, errors: [{ fieldName: "nodePoolId", errorMessage: "is unknown" }] }),
    true,
  ],
  ["a 400 saying it in detail only", answered(400, { title: VALIDATION, detail: `nodeId: ${GONE}` }), true],
  ["a 400 titled node not found", answered(400, { title: "Node not found" }), true],
  ["a 400 saying the node no longer exists", answered(400, { detail: "The node no longer exists." }), true],
  [
    "a 400 on the volume",
    answered(400, { title: VALIDATION, errors: [{ fieldName: "volume.uri", errorMessage: "is required" }] }),
    false,
  ],
  [
    "a 400 saying the volume is not attached to the node",
    answered(400, { detail: 'Volume "v-1" is not attached to node "k-1-pool-1-2".' }),
    false,
  ],
  ["a 400 of a busy cluster", answered(400, { title: "Resource is busy" }), false],
  ["a 400 without a body", answered(400), false],
  ["a 500", answered(500, { title: "Node not found" }), false],
  [
    "a network failure",
    new VendorApiError({ kind: "network", method: "POST", path: PATH, detail: "node not found" }),
    false,
  ],
  ["a plain error", new Error("node not found"), false],
];

it.each(CASES.map(([label, error, gone]) => [label, gone, error] as const))(
  "%s is taken for a gone node: %s",
  (_label, gone, error) => {
    expect(isNodeGone(error)).toBe(gone);
  },
);
