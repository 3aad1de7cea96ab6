/**
 * Two VolumeAttachments of one volume in one `pulumi up` (issue 19, item 8), through the real engine, under every
 * attachments reading of the emulator and under the published interface only. The second resource is refused at
 * `check` with a message naming the volume and the resource that holds it: a preview fails without a request, an
 * `up` records nothing of it (the first, already under way, is attached and recorded), and once the program is
 * fixed the next `up` sends nothing (no detach) and a preview finds nothing to do.
 *
 * One stack; each reading starts from a reset emulator and creates its cluster once; each case removes its
 * attachment again (a detach of the first, the one request the cleanup makes).
 */
import type { Stack } from "@pulumi/pulumi/automation";
import { DEFAULT_WIRE, STRICT_WIRE, type WireReadings } from "../../emulator";
import { DATA_VOLUME, attachment, cluster } from "./support/args";
import { openSuite, upWith, type Declared, type Suite } from "./support/suite";

const KAAS = "kaas-0001";
const ATTACHMENT_ID = `${KAAS}:${DATA_VOLUME}`;
const TOKEN = "pulumi-nodejs:dynamic/vendor-container:VolumeAttachment";
const nodePath = (node: string) => `/kaas/${KAAS}/nodePools/system/nodes/${node}`;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The engine's line for the refusal of `refused`, naming `holder` and the attachment's id (with the volume). */
const refusalLine = (refused: string, holder: string) =>
  new RegExp(
    `${escape(`${TOKEN} resource '${refused}': property volumeUri value {`)}[^\\n]*` +
      escape(
        `} has a problem: is already attached by VolumeAttachment "${holder}" of this stack (${ATTACHMENT_ID}); ` +
          "one volume can be attached once per cluster",
      ) +
      "$",
    "m",
  );

/**
 * Which of `data` and `dup` the output shows refused, and which holds the volume. The engine checks resources in
 * the order the program registered them, which it does not promise for two resources waiting on one output
 * (seen both ways): the first checked holds the volume. Exactly one of the two refusals must be there.
 */
function refusalIn(output: string): { holder: "data" | "dup"; refused: "data" | "dup" } {
  const dupRefused = refusalLine("dup", "data").test(output);
  const dataRefused = refusalLine("data", "dup").test(output);
  if (dupRefused === dataRefused) {
    throw new Error(`expected exactly one of data and dup refused, got ${dupRefused ? "both" : "neither"}`);
  }
  return dupRefused ? { holder: "data", refused: "dup" } : { holder: "dup", refused: "data" };
}

const READINGS: [string, WireReadings][] = [
  ["attachments=attachedVolumes", { ...DEFAULT_WIRE, attachments: "attachedVolumes" }],
  ["attachments=linkedResources", { ...DEFAULT_WIRE, attachments: "linkedResources" }],
  ["attachments=hidden", { ...DEFAULT_WIRE, attachments: "hidden" }],
  ["published interface only", STRICT_WIRE],
];

describe("two VolumeAttachments of one volume in one pulumi up", () => {
  let s: Suite;
  let stack: Stack;

  beforeAll(async () => {
    s = await openSuite("attachment-duplicates");
    stack = await s.stack("dev", s.program("attachment-duplicates"));
  });
  afterAll(async () => {
    await s?.close();
  });

  /** The message of the failed operation: the CLI's whole output. */
  async function failureOf(operation: Promise<unknown>): Promise<string> {
    const outcome = await operation.then(
      () => undefined,
      (error: Error) => error.message,
    );
    if (outcome === undefined) throw new Error("the operation succeeded; a refusal was expected");
    return outcome;
  }

  /** The VolumeAttachments in the stack's state, as `[name, id]`. */
  async function attachmentsInState(): Promise<[string, string][]> {
    const state = await stack.exportStack();
    const resources = (state.deployment.resources ?? []) as { urn: string; type: string; id?: string }[];
    return resources
      .filter((r) => r.type === TOKEN)
      .map((r) => [r.urn.slice(r.urn.lastIndexOf("::") + 2), r.id ?? ""]);
  }

  /** What the emulator holds, once every accepted attach and detach completed. */
  const truth = () => {
    s.emulator.emulator.advanceClock(1000);
    return s.emulator.emulator.attachments(KAAS);
  };
  const attachedTo = (nodeId: string) => [
    { uri: DATA_VOLUME, nodePoolName: "system", nodeId, sizeGb: 10, state: "attached" },
  ];

  describe.each(READINGS)("under %s", (_label, wire) => {
    /** The two nodes of the system pool, as `kubectl get nodes` shows them. */
    let nodes: string[];

    beforeAll(async () => {
      s.emulator.emulator.reset();
      s.emulator.emulator.updateConfig({ wire });
      await upWith(s, stack, [cluster()]);
      nodes = s.emulator.emulator.nodes(KAAS).find((p) => p.nodePool === "system")!.nodeIds;
      expect(nodes).toHaveLength(2);
    });
    afterAll(async () => {
      await stack.destroy();
    });

    it.each([
      ["to two nodes", 1],
      ["to one node", 0],
    ])(
      "refuses the second %s, records nothing of it, and never detaches the first",
      async (_case, dupNode) => {
        const declared: Record<string, Declared> = {
          data: attachment(nodes[0]),
          dup: { ...attachment(nodes[dupNode]), name: "dup" },
        };
        await s.declare(stack, [cluster(), declared.data, declared.dup]);

        // A preview refuses the second at check, before any request.
        s.clearRequests();
        refusalIn(await failureOf(stack.preview()));
        expect(s.requests()).toEqual([]);

        // So does `up`, which records nothing of it; the first's create, already under way, completes.
        s.clearRequests();
        const { holder } = refusalIn(await failureOf(stack.up()));
        const node = holder === "data" ? nodes[0] : nodes[dupNode];
        expect(s.mutations()).toEqual([`POST ${nodePath(node)}/attach`]);
        expect(await attachmentsInState()).toEqual([[holder, ATTACHMENT_ID]]);
        expect(truth()).toEqual(attachedTo(node));

        // The program without the refused resource: nothing to send, no detach above all.
        const fixed = await upWith(s, stack, [cluster(), declared[holder]]);
        expect(fixed.calls).toEqual([]);
        expect(fixed.summary.resourceChanges).toEqual({ same: 3 });
        s.clearRequests();
        await stack.preview({ expectNoChanges: true });
        expect(s.mutations()).toEqual([]);
        expect(truth()).toEqual(attachedTo(node));

        // Back to the cluster alone for the next case: the one detach is the holder's own.
        const removed = await upWith(s, stack, [cluster()]);
        expect(removed.calls).toEqual([`POST ${nodePath(node)}/detach`]);
        expect(truth()).toEqual([]);
      },
    );
  });
});
