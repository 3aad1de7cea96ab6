/**
 * Two VolumeAttachments of one volume and one cluster in one program, through the real engine
 * (provider/volumeAttachment/claims.ts): the first the program declares holds the attachment, however the
 * engine orders the two (it does not promise an order for two resources waiting on one output). The later
 * one's create fails naming the holder, before any request that changes anything, so `up` fails and the state
 * holds the first alone; removing the later one from the program changes nothing, and a preview then finds
 * nothing to do.
 *
 * Both cases at once, each on a volume of its own: the two of one volume on two nodes of the cluster ("data"
 * and "dup"), and the two of another volume on one node ("data-b" and "dup-b"). One story, under the published
 * interface only; the provider under every attachments reading, and in either order of the engine's checks and
 * creates, case by case, is tested against the emulator directly
 * (tests/integration/volume-attachment-provider.test.ts; the plugin's door through the engine:
 * tests/e2e/yaml.e2e.test.ts). The story ends with the stack destroyed, each volume detached once.
 */
import type { Stack } from "@pulumi/pulumi/automation";
import { STRICT_WIRE } from "../../emulator";
import { DATA_VOLUME, attachment, cluster } from "./support/args";
import { openSuite, upWith, type Declared, type Suite } from "./support/suite";

const KAAS = "kaas-0001";
const TOKEN = "pulumi-nodejs:dynamic/vendor-container:VolumeAttachment";
const nodePath = (node: string) => `/kaas/${KAAS}/nodePools/system/nodes/${node}`;

/** The second volume: its two attachments are on one node. */
const VOLUME_B = DATA_VOLUME.replace(/data-1$/, "data-2");
const idOf = (volume: string) => `${KAAS}:${volume}`;

/** Why the later one of a pair is not created: the provider's words, the same at preview and in `up`. */
const refusal = (holder: string, later: string, volume: string) =>
  `VolumeAttachment "${later}": ${volume} is already attached by VolumeAttachment "${holder}", declared ` +
  `before it in this stack (${idOf(volume)}): a volume is attached once per cluster, so "${later}" is not ` +
  `created. Remove one of them; removing "${later}" changes nothing`;
const REFUSALS = [refusal("data", "dup", DATA_VOLUME), refusal("data-b", "dup-b", VOLUME_B)];

/** The distinct lines of `output` that refuse an attachment, each from the resource's name on. */
const refusalLinesIn = (output: string): string[] =>
  [
    ...new Set(
      output
        .split("\n")
        .filter((line) => line.includes(" is not created. Remove one of them"))
        .map((line) => line.slice(line.indexOf('VolumeAttachment "'))),
    ),
  ].sort();

describe("two VolumeAttachments of one volume in one program", () => {
  let s: Suite;
  let stack: Stack;

  beforeAll(async () => {
    s = await openSuite("attachment-duplicates", { wire: STRICT_WIRE });
    stack = await s.stack("dev", s.program("attachment-duplicates"));
  });
  afterAll(async () => {
    await s?.close();
  });

  /** The VolumeAttachments in the stack's state, as `[name, id, node]`, by name. */
  async function attachmentsInState(): Promise<[string, string, unknown][]> {
    const state = await stack.exportStack();
    const resources = (state.deployment.resources ?? []) as {
      urn: string;
      type: string;
      id?: string;
      outputs?: Record<string, unknown>;
    }[];
    return resources
      .filter((r) => r.type === TOKEN)
      .map((r): [string, string, unknown] => [
        r.urn.slice(r.urn.lastIndexOf("::") + 2),
        r.id ?? "",
        r.outputs?.nodeId,
      ])
      .sort(([a], [b]) => a.localeCompare(b));
  }

  /** What the emulator holds, once every accepted attach and detach completed: `volume@node`, sorted. */
  const truth = () => {
    s.emulator.emulator.advanceClock(1000);
    return s.emulator.emulator
      .attachments(KAAS)
      .map((a) => `${a.uri === DATA_VOLUME ? "A" : a.uri === VOLUME_B ? "B" : a.uri}@${a.nodeId} ${a.state}`)
      .sort();
  };

  /**
   * The two pairs, each in that order: "data" on the first node and "dup" on the second, "data-b" and "dup-b"
   * both on the first.
   */
  const pairs = (nodes: string[]): Declared[] => [
    cluster(),
    attachment(nodes[0]),
    { ...attachment(nodes[1]), name: "dup" },
    { ...attachment(nodes[0], { volumeUri: VOLUME_B }), name: "data-b" },
    { ...attachment(nodes[0], { volumeUri: VOLUME_B }), name: "dup-b" },
  ];

  /**
   * One `up` of the two pairs, from the cluster alone: what it comes to (whether it failed, the refusals it
   * printed, the state, the requests that change anything, what the service holds).
   */
  async function upPairs(nodes: string[]) {
    await s.declare(stack, pairs(nodes));
    s.clearRequests();
    // The engine starts no further step once one failed: with both pairs in one run, each must get its own.
    const output = await stack.up({ continueOnError: true }).then(
      (result) => ({ failed: false, text: result.stdout + result.stderr }),
      (error: Error) => ({ failed: true, text: error.message }),
    );
    return {
      failed: output.failed,
      refused: refusalLinesIn(output.text),
      state: await attachmentsInState(),
      mutations: s.mutations().sort(),
      truth: truth(),
    };
  }

  /** What `upPairs` comes to: each first one attached on the first node, each later one refused. */
  const outcome = (nodes: string[]) => ({
    failed: true,
    refused: REFUSALS,
    state: [
      ["data", idOf(DATA_VOLUME), nodes[0]],
      ["data-b", idOf(VOLUME_B), nodes[0]],
    ],
    mutations: [`POST ${nodePath(nodes[0])}/attach`, `POST ${nodePath(nodes[0])}/attach`],
    truth: [`A@${nodes[0]} attached`, `B@${nodes[0]} attached`],
  });

  /** A preview that finds nothing to do and sends nothing. */
  async function settled() {
    s.clearRequests();
    await stack.preview({ expectNoChanges: true });
    expect(s.mutations()).toEqual([]);
  }

  it("give the first declared the attachment, and nothing changes when the later ones leave the program, published interface only", async () => {
    await upWith(s, stack, [cluster()]);
    const nodes = s.emulator.emulator.nodes(KAAS).find((p) => p.nodePool === "system")!.nodeIds;
    expect(nodes).toHaveLength(2);

    await s.declare(stack, pairs(nodes));
    s.clearRequests();
    const preview = await stack.preview();
    expect(refusalLinesIn(preview.stdout + preview.stderr)).toEqual(REFUSALS);
    expect(s.requests()).toEqual([]);
    expect(await upPairs(nodes)).toEqual(outcome(nodes));

    const fixed = await upWith(s, stack, [
      cluster(),
      attachment(nodes[0]),
      { ...attachment(nodes[0], { volumeUri: VOLUME_B }), name: "data-b" },
    ]);
    expect(fixed.calls).toEqual([]);
    expect(fixed.summary.resourceChanges).toEqual({ same: 4 });
    expect(await attachmentsInState()).toEqual([
      ["data", idOf(DATA_VOLUME), nodes[0]],
      ["data-b", idOf(VOLUME_B), nodes[0]],
    ]);
    await settled();
    expect(truth()).toEqual([`A@${nodes[0]} attached`, `B@${nodes[0]} attached`]);

    // The destroy detaches each volume once, from the node holding it, before the cluster goes.
    s.clearRequests();
    await stack.destroy();
    const calls = s.mutations();
    expect(calls.slice(0, 2)).toEqual([
      `POST ${nodePath(nodes[0])}/detach`,
      `POST ${nodePath(nodes[0])}/detach`,
    ]);
    expect(calls.slice(2)).toEqual([`DELETE /kaas/${KAAS}`]);
    expect(await attachmentsInState()).toEqual([]);
  });
});
