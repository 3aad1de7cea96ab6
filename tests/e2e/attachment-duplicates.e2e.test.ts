/**
 * Two VolumeAttachments of one volume and one cluster in one program, through the real engine
 * (provider/volumeAttachment/claims.ts): the first the program declares holds the attachment, every run alike,
 * however the engine orders the two (it does not promise an order for two resources waiting on one output). The
 * later one is recorded holding nothing and `up` fails naming the holder; removing either one converges in one
 * `up`, with no detach of the attachment the remaining one holds, and a preview then finds nothing to do.
 *
 * Both on two nodes of the cluster and both on one node; under the emulator's default readings and under the
 * published interface only. One stack; each reading starts from a reset emulator and creates its
 * cluster once; each case ends with the cluster alone again.
 */
import type { Stack } from "@pulumi/pulumi/automation";
import { DEFAULT_WIRE, STRICT_WIRE, type WireReadings } from "../../emulator";
import { DATA_VOLUME, attachment, cluster } from "./support/args";
import { openSuite, upWith, type Declared, type Suite } from "./support/suite";

const KAAS = "kaas-0001";
const ATTACHMENT_ID = `${KAAS}:${DATA_VOLUME}`;
const TOKEN = "pulumi-nodejs:dynamic/vendor-container:VolumeAttachment";
const nodePath = (node: string) => `/kaas/${KAAS}/nodePools/system/nodes/${node}`;

/** Why "dup", declared after "data", holds nothing: the provider's words, the same at preview and in `up`. */
const STANDBY =
  `VolumeAttachment "dup": ${DATA_VOLUME} belongs to VolumeAttachment "data", declared before it in this stack ` +
  `(${ATTACHMENT_ID}); a volume is attached once per cluster. "dup" holds nothing: remove it, or remove "data" ` +
  `and "dup" takes the attachment over`;

/** The distinct lines of `output` that say why an attachment holds nothing, each from the resource's name on. */
const standbyLinesIn = (output: string): string[] => [
  ...new Set(
    output
      .split("\n")
      .filter((line) => line.includes(" holds nothing: remove it, or remove "))
      .map((line) => line.slice(line.indexOf('VolumeAttachment "'))),
  ),
];

// Through the engine, the default reading and the strictest; the provider under every attachments reading is
// tested against the emulator directly (tests/integration/volume-attachment-provider.test.ts).
const READINGS: [string, WireReadings][] = [
  ["the default readings", DEFAULT_WIRE],
  ["published interface only", STRICT_WIRE],
];

const CASES: [string, number][] = [
  ["on two nodes", 1],
  ["on one node", 0],
];

describe("two VolumeAttachments of one volume in one program", () => {
  let s: Suite;
  let stack: Stack;

  beforeAll(async () => {
    s = await openSuite("attachment-duplicates");
    stack = await s.stack("dev", s.program("attachment-duplicates"));
  });
  afterAll(async () => {
    await s?.close();
  });

  /** The VolumeAttachments in the stack's state, as `[name, id, holds nothing]`, by name. */
  async function attachmentsInState(): Promise<[string, string, boolean][]> {
    const state = await stack.exportStack();
    const resources = (state.deployment.resources ?? []) as {
      urn: string;
      type: string;
      id?: string;
      outputs?: Record<string, unknown>;
    }[];
    return resources
      .filter((r) => r.type === TOKEN)
      .map((r): [string, string, boolean] => [
        r.urn.slice(r.urn.lastIndexOf("::") + 2),
        r.id ?? "",
        r.outputs?.declaredBefore !== undefined,
      ])
      .sort(([a], [b]) => a.localeCompare(b));
  }

  /** What the emulator holds, once every accepted attach and detach completed. */
  const truth = () => {
    s.emulator.emulator.advanceClock(1000);
    return s.emulator.emulator.attachments(KAAS);
  };
  const attachedTo = (nodeId: string) => [
    { uri: DATA_VOLUME, nodePoolName: "system", nodeId, sizeGb: 10, state: "attached" },
  ];

  /** The two declared in that order: "data" on the first node, "dup" on node `dupNode` of the system pool. */
  const both = (nodes: string[], dupNode: number): Declared[] => [
    cluster(),
    attachment(nodes[0]),
    { ...attachment(nodes[dupNode]), name: "dup" },
  ];

  /**
   * One `up` of the two, from the cluster alone: what it comes to (whether it failed, the standby lines it
   * printed, the state, the requests that change anything, what the service holds).
   */
  async function upBoth(nodes: string[], dupNode: number) {
    await s.declare(stack, both(nodes, dupNode));
    s.clearRequests();
    const output = await stack.up().then(
      (result) => ({ failed: false, text: result.stdout + result.stderr }),
      (error: Error) => ({ failed: true, text: error.message }),
    );
    return {
      failed: output.failed,
      standby: standbyLinesIn(output.text),
      state: await attachmentsInState(),
      mutations: s.mutations(),
      truth: truth(),
    };
  }

  /** What `upBoth` comes to, every time: "data" attached on the first node, "dup" recorded holding nothing. */
  const outcome = (nodes: string[]) => ({
    failed: true,
    standby: [STANDBY],
    state: [
      ["data", ATTACHMENT_ID, false],
      ["dup", ATTACHMENT_ID, true],
    ],
    mutations: [`POST ${nodePath(nodes[0])}/attach`],
    truth: attachedTo(nodes[0]),
  });

  /** Back to the cluster alone: the one detach is that of the attachment `holderNode` holds. */
  async function clusterAlone(holderNode: string) {
    const removed = await upWith(s, stack, [cluster()]);
    expect(removed.calls).toEqual([`POST ${nodePath(holderNode)}/detach`]);
    expect(await attachmentsInState()).toEqual([]);
    expect(truth()).toEqual([]);
  }

  /** A preview that finds nothing to do and sends nothing. */
  async function settled() {
    s.clearRequests();
    await stack.preview({ expectNoChanges: true });
    expect(s.mutations()).toEqual([]);
  }

  describe("five runs under the published interface", () => {
    let nodes: string[];

    beforeAll(async () => {
      s.emulator.emulator.reset();
      s.emulator.emulator.updateConfig({ wire: STRICT_WIRE });
      await upWith(s, stack, [cluster()]);
      nodes = s.emulator.emulator.nodes(KAAS).find((p) => p.nodePool === "system")!.nodeIds;
      expect(nodes).toHaveLength(2);
    });
    afterAll(async () => {
      await stack.destroy();
    });

    it.each(CASES)("give the first declared the attachment every time, %s", async (_case, dupNode) => {
      await s.declare(stack, both(nodes, dupNode));
      s.clearRequests();
      const preview = await stack.preview();
      expect(standbyLinesIn(preview.stdout + preview.stderr)).toEqual([STANDBY]);
      expect(s.requests()).toEqual([]);

      const runs = [];
      for (let run = 0; run < 5; run += 1) {
        runs.push(await upBoth(nodes, dupNode));
        await clusterAlone(nodes[0]);
      }
      expect(runs).toEqual(Array.from({ length: 5 }, () => outcome(nodes)));
    });
  });

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

    it.each(CASES)(
      "keeps the first attached and detaches nothing when the later one, %s, leaves the program",
      async (_case, dupNode) => {
        expect(await upBoth(nodes, dupNode)).toEqual(outcome(nodes));

        const fixed = await upWith(s, stack, [cluster(), attachment(nodes[0])]);
        expect(fixed.calls).toEqual([]);
        expect(fixed.summary.resourceChanges).toEqual({ same: 3, delete: 1 });
        expect(await attachmentsInState()).toEqual([["data", ATTACHMENT_ID, false]]);
        await settled();
        expect(truth()).toEqual(attachedTo(nodes[0]));

        await clusterAlone(nodes[0]);
      },
    );

    it.each(CASES)(
      "hands the attachment to the later one, %s, in the up that removes the first",
      async (_case, dupNode) => {
        expect(await upBoth(nodes, dupNode)).toEqual(outcome(nodes));

        const fixed = await upWith(s, stack, [cluster(), { ...attachment(nodes[dupNode]), name: "dup" }]);
        // On the first's node the attachment is the later one's as it stands; on another, it moves there.
        expect(fixed.calls).toEqual(
          dupNode === 0
            ? []
            : [`POST ${nodePath(nodes[0])}/detach`, `POST ${nodePath(nodes[dupNode])}/attach`],
        );
        expect(fixed.summary.resourceChanges).toEqual({ same: 2, update: 1, delete: 1 });
        expect(await attachmentsInState()).toEqual([["dup", ATTACHMENT_ID, false]]);
        await settled();
        expect(truth()).toEqual(attachedTo(nodes[dupNode]));

        await clusterAlone(nodes[dupNode]);
      },
    );
  });
});
