/**
 * The VolumeAttachment provider against the emulator, under each reading of where attachments show
 * (emulator/config.ts `WireReadings.attachments`) and under the strictest combination (`STRICT_WIRE`). The
 * truth is checked through the control API (`GET /_emulator/kaas/{id}/attachments`), whatever responses show.
 */
import { FAST_DURATIONS, STRICT_WIRE, type AttachmentTruth, type WireReadings } from "../../emulator";
import type { KindProvider } from "../../provider";
import { AttachmentClaims } from "../../provider/volumeAttachment/claims";
import { VolumeAttachmentProvider } from "../../provider/volumeAttachment/provider";
import { VendorContainerClient, type ClientOptions } from "../../rest/client";
import { resolveSettings } from "../../rest/settings";
import { keepAliveTransport, TransportError, type Transport } from "../../rest/transport";
import { checked, kaasBody, pool, startHarness, PROJECT, type Harness } from "./support/harness";
import { volumeAction } from "../../schemas/volumeAction";

let h: Harness;
let attachments: KindProvider;
let kaasId: string;
let nodes: string[];
const VOLUME = "/projects/p-test/providers/Vendor.Storage/blockStorages/vol-1";
const SUBJECT = '[vendor-container] VolumeAttachment "data"';

/** Starts an emulator with `wire` and an Active cluster with two nodes, made directly through the client. */
async function setUp(wire: Partial<WireReadings>): Promise<void> {
  h = await startHarness({ wire });
  attachments = h.kind("VolumeAttachment");
  const created = await h.client.call(
    "createKaas",
    { projectId: PROJECT },
    kaasBody("prod", {
      nodePools: [pool("system", { nodes: 2, instance: "K4A8" })],
      storage: { maxCumulativeVolumeSize: 100 },
    }),
  );
  kaasId = created.metadata.id;
  await h.client.waitUntilSettled(() => h.client.find("getKaas", { projectId: PROJECT, id: kaasId }), {
    what: "cluster",
    path: `/kaas/${kaasId}`,
    deadline: Date.now() + 10_000,
  });
  // The emulator's node ids (emulator/kaas.ts `resizePool`): no published response lists nodes.
  nodes = [`${kaasId}-system-1`, `${kaasId}-system-2`];
  h.emulator.clearRequests();
  h.lines.length = 0;
}

afterEach(async () => {
  await h.close();
});

const args = (overrides: Record<string, unknown> = {}) => ({
  kaasId,
  nodePoolName: "system",
  nodeId: nodes[0],
  volumeUri: VOLUME,
  creationScope: "proj/dev/data",
  ...overrides,
});
const idOf = () => `${kaasId}:${VOLUME}`;
/** A client of the stack's settings, polling quickly, for a provider whose requests a test intercepts. */
const stackClient = (options: ClientOptions = {}) =>
  new VendorContainerClient(
    resolveSettings((key) => h.config[key]),
    { pollIntervalMs: 20, ...options },
  );
const attachCall = (node: string, status = 202) => ({
  method: "POST",
  path: `/kaas/${kaasId}/nodePools/system/nodes/${node}/attach`,
  status,
});
const nodeDetachCall = (node: string, status = 202) => ({
  method: "POST",
  path: `/kaas/${kaasId}/nodePools/system/nodes/${node}/detach`,
  status,
});
const clusterDetachCall = (status = 202) => ({ method: "POST", path: `/kaas/${kaasId}/detach`, status });

/** Mutating requests since the last `clearRequests`, with the status each got. */
function calls(): { method: string; path: string; status: number | null }[] {
  return h.emulator
    .requests()
    .filter((r) => r.mutating)
    .map((r) => ({
      method: r.method,
      path: r.path.replace(`/projects/${PROJECT}/providers/Vendor.Container`, ""),
      status: r.status,
    }));
}

/** The attachments the emulator holds (control API), once every accepted attach and detach has completed. */
async function truth(): Promise<AttachmentTruth[]> {
  h.emulator.advanceClock(FAST_DURATIONS.attachMs + FAST_DURATIONS.detachMs);
  const answer = await fetch(`${h.url}/_emulator/kaas/${kaasId}/attachments`);
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { attachments: AttachmentTruth[] }).attachments;
}

const attached = (nodeId: string): AttachmentTruth => ({
  uri: VOLUME,
  nodePoolName: "system",
  nodeId,
  sizeGb: 10,
  state: "attached",
});

/** Another user attaches the volume, and the attach completes. */
async function attachOutOfBand(nodeId: string): Promise<void> {
  await h.client.call(
    "attachVolume",
    { projectId: PROJECT, id: kaasId, pool: "system", node: nodeId },
    volumeAction(VOLUME),
  );
  h.emulator.advanceClock(FAST_DURATIONS.attachMs);
}

/** Another user detaches the volume at cluster level, and the detach completes. */
async function detachOutOfBand(): Promise<void> {
  await h.client.call("detachVolumeFromCluster", { projectId: PROJECT, id: kaasId }, volumeAction(VOLUME));
  h.emulator.advanceClock(FAST_DURATIONS.detachMs);
}

interface Reading {
  label: string;
  wire: Partial<WireReadings>;
  /** Whether cluster responses show attachments under this reading. */
  shows: boolean;
  /** The outputs `verification` and `sizeGb` of an attachment made on the declared node. */
  verification: "node" | "cluster" | "none";
  sizeGb: number | null;
}

const READINGS: Reading[] = [
  {
    label: "attachments=attachedVolumes",
    wire: { attachments: "attachedVolumes" },
    shows: true,
    verification: "node",
    sizeGb: 10,
  },
  {
    label: "attachments=linkedResources",
    wire: { attachments: "linkedResources" },
    shows: true,
    verification: "cluster",
    sizeGb: null,
  },
  {
    label: "attachments=hidden",
    wire: { attachments: "hidden" },
    shows: false,
    verification: "none",
    sizeGb: null,
  },
  { label: "STRICT_WIRE", wire: STRICT_WIRE, shows: false, verification: "none", sizeGb: null },
];

describe.each(READINGS)("under $label", (reading) => {
  beforeEach(async () => {
    await setUp(reading.wire);
  });

  it("attaches at node level, and the outputs say how far the attachment was checked", async () => {
    const inputs = await checked(attachments, {}, args());
    const { id, outs } = await attachments.create(inputs);
    expect(id).toBe(idOf());
    expect(outs).toEqual({ ...inputs, sizeGb: reading.sizeGb, verification: reading.verification });
    expect(calls()).toEqual([attachCall(nodes[0])]);
    expect(h.lines).toContain(`${SUBJECT}: attaching ${VOLUME} to node ${nodes[0]}`);
    expect(await truth()).toEqual([attached(nodes[0])]);
  });

  it("refreshes to the same outputs without a call that changes anything", async () => {
    const { id, outs } = await attachments.create(await checked(attachments, {}, args()));
    h.emulator.clearRequests();
    h.lines.length = 0;
    expect(await attachments.read(id, outs)).toEqual({ id, props: outs, inputs: undefined });
    expect(calls()).toEqual([]);
    expect(h.lines).toEqual(
      reading.shows
        ? []
        : [
            `${SUBJECT}: cannot verify ${VOLUME} on node ${nodes[0]}: the service does not show volume ` +
              "attachments; kept as declared",
          ],
    );
  });

  if (reading.shows) {
    it("drops on refresh an attachment that was really detached", async () => {
      const { id, outs } = await attachments.create(await checked(attachments, {}, args()));
      await detachOutOfBand();
      h.lines.length = 0;
      expect(await attachments.read(id, outs)).toEqual({ id: "", props: {}, inputs: {} });
      expect(h.lines).toEqual([`${SUBJECT}: ${VOLUME} is no longer attached`]);
    });
  } else {
    it("keeps on refresh an attachment it cannot see, even one detached out of band", async () => {
      const { id, outs } = await attachments.create(await checked(attachments, {}, args()));
      await detachOutOfBand();
      expect(await truth()).toEqual([]);
      const read = await attachments.read(id, outs);
      expect(read).toEqual({ id, props: { ...outs, verification: "none" }, inputs: undefined });
    });
  }

  it("drops on refresh an attachment whose cluster is gone, and destroys it without a call", async () => {
    const { id, outs } = await attachments.create(await checked(attachments, {}, args()));
    await h.client.call("deleteKaas", { projectId: PROJECT, id: kaasId });
    await h.client.waitUntilGone(() => h.client.find("getKaas", { projectId: PROJECT, id: kaasId }), {
      what: "cluster",
      path: `/kaas/${kaasId}`,
      deadline: Date.now() + 10_000,
    });
    h.emulator.clearRequests();
    h.lines.length = 0;
    expect(await attachments.read(id, outs)).toEqual({ id: "", props: {}, inputs: {} });
    expect(h.lines).toEqual([
      `${SUBJECT}: cluster ${kaasId} no longer exists, and ${VOLUME} is attached to it no more`,
    ]);
    await expect(attachments.delete(id, outs)).resolves.toBeUndefined();
    expect(calls()).toEqual([]);
  });

  it("moves to another node by detaching from the old node first, then attaching to the new one", async () => {
    const inputs = await checked(attachments, {}, args());
    const { id, outs } = await attachments.create(inputs);
    const moved = await checked(attachments, inputs, args({ nodeId: nodes[1] }));
    expect(await attachments.diff(id, outs, moved)).toEqual({
      changes: true,
      replaces: ["nodeId"],
      deleteBeforeReplace: true,
    });
    // The engine runs delete, then create.
    h.emulator.clearRequests();
    await attachments.delete(id, outs);
    const again = await attachments.create(moved);
    expect(again).toEqual({
      id,
      outs: { ...moved, sizeGb: reading.sizeGb, verification: reading.verification },
    });
    expect(calls()).toEqual([nodeDetachCall(nodes[0]), attachCall(nodes[1])]);
    expect(await truth()).toEqual([attached(nodes[1])]);
  });

  it("destroys by detaching at node level, and nothing stays attached", async () => {
    const { id, outs } = await attachments.create(await checked(attachments, {}, args()));
    h.emulator.clearRequests();
    await attachments.delete(id, outs);
    expect(calls()).toEqual([nodeDetachCall(nodes[0])]);
    expect(await truth()).toEqual([]);
  });

  it("destroys an attachment already detached out of band as a success", async () => {
    const { id, outs } = await attachments.create(await checked(attachments, {}, args()));
    await detachOutOfBand();
    h.emulator.clearRequests();
    h.lines.length = 0;
    await expect(attachments.delete(id, outs)).resolves.toBeUndefined();
    // Where the cluster shows attachments, it shows this one gone: nothing to send. Elsewhere the detach is
    // always sent, and the 404 of both levels means "already detached".
    expect(calls()).toEqual(reading.shows ? [] : [nodeDetachCall(nodes[0], 404), clusterDetachCall(404)]);
    expect(h.lines).toEqual(
      reading.shows
        ? []
        : [
            `${SUBJECT}: node ${nodes[0]} no longer holds ${VOLUME}; detaching at cluster level`,
            `${SUBJECT}: ${VOLUME} is not attached to cluster ${kaasId}: already detached`,
          ],
    );
    expect(await truth()).toEqual([]);
  });

  // api-notes "Volumes": the published detach lists only 400 and 500; the reading `goneNode` picks the answer.
  it.each<WireReadings["goneNode"]>(["404", "400"])(
    "falls back to the cluster-level detach when the node is gone and its detach is answered %s",
    async (goneNode) => {
      h.emulator.updateConfig({ wire: { goneNode } });
      const inputs = await checked(attachments, {}, args({ nodeId: nodes[1] }));
      const { id, outs } = await attachments.create(inputs);
      h.emulator.scaleNodePool(kaasId, "system", 1);
      expect(await truth()).toEqual([{ ...attached(nodes[1]), nodeId: null }]);
      h.emulator.clearRequests();
      h.lines.length = 0;
      await attachments.delete(id, outs);
      expect(calls()).toEqual([nodeDetachCall(nodes[1], Number(goneNode)), clusterDetachCall()]);
      expect(h.lines).toContain(
        `${SUBJECT}: node ${nodes[1]} no longer holds ${VOLUME}; detaching at cluster level`,
      );
      expect(await truth()).toEqual([]);
    },
  );

  it("adopts an attachment made out of band on the declared node (adoptId)", async () => {
    await attachOutOfBand(nodes[0]);
    h.emulator.clearRequests();
    const inputs = await checked(attachments, {}, args({ adoptId: idOf() }));
    const { id, outs } = await attachments.create(inputs);
    expect(id).toBe(idOf());
    expect(outs).toEqual({ ...inputs, sizeGb: reading.sizeGb, verification: reading.verification });
    // Where nothing shows attachments the attach is sent: its refusal "already attached" is the evidence.
    expect(calls()).toEqual(reading.shows ? [] : [attachCall(nodes[0], 400)]);
    const line = {
      node: `taking over the existing attachment of ${VOLUME} to node ${nodes[0]}`,
      cluster:
        `taking over the existing attachment of ${VOLUME} to cluster ${kaasId}; the service does not show ` +
        `its node, so node ${nodes[0]} is taken as declared`,
      none:
        `adoptId: the service answers that ${VOLUME} is already attached to cluster ${kaasId}; it does not ` +
        `show attachments, so the attachment is taken over unverified, on node ${nodes[0]} as declared`,
    }[reading.verification];
    expect(h.lines).toContain(`${SUBJECT}: ${line}`);
    expect(await truth()).toEqual([attached(nodes[0])]);
  });

  it("takes over its own attach whose answer was lost where the service shows it; refuses it, naming the loss and adoptId, where nothing shows", async () => {
    // The first attach reaches the service and is processed; its answer never comes back (a reset connection).
    const wire = keepAliveTransport();
    let lost = false;
    const transport: Transport = async (request) => {
      const answer = await wire(request);
      if (!lost && request.method === "POST" && /\/attach\?/.test(request.url)) {
        lost = true;
        throw new TransportError("socket hang up", "ECONNRESET");
      }
      return answer;
    };
    const api = stackClient({ transport });
    const p = new VolumeAttachmentProvider(() => api, new AttachmentClaims());
    const inputs = await checked(p, {}, args());
    const made = await p.create(inputs).then(
      (r) => r,
      (e: Error & { id?: string }) => e,
    );
    expect(calls()).toEqual([attachCall(nodes[0]), attachCall(nodes[0], 400)]);
    expect(await truth()).toEqual([attached(nodes[0])]);
    if (reading.shows) {
      expect(made).toEqual({
        id: idOf(),
        outs: { ...inputs, sizeGb: reading.sizeGb, verification: reading.verification },
      });
      return;
    }
    const error = made as Error & { id?: string };
    expect(error.id).toBeUndefined();
    expect(error.message).toMatch(
      new RegExp(
        `^VolumeAttachment "data": the answer to its attach of ${VOLUME} was lost and the service refused the ` +
          `retry as already attached to cluster ${kaasId} \\(POST .*/attach failed \\(400 Bad Request\\): .*\\): ` +
          "the lost attach most likely went through, unless the volume was attached before, and the service " +
          `does not show to which node, so it cannot be checked to be node ${nodes[0]}\\. If this attachment is ` +
          `yours \\(an interrupted run, a retried request\\), set adoptId: "${idOf()}" to take it over; ` +
          "otherwise detach it first\\.$",
      ),
    );
    // The remedy it names: the next run, with adoptId, takes the attachment over.
    const adopted = await p.create(await checked(p, {}, args({ adoptId: idOf() })));
    expect(adopted.id).toBe(idOf());
    expect(await truth()).toEqual([attached(nodes[0])]);
  });

  if (reading.shows) {
    it("refuses to adopt a volume that is not attached", async () => {
      const inputs = await checked(attachments, {}, args({ adoptId: idOf() }));
      await expect(attachments.create(inputs)).rejects.toThrow(
        `VolumeAttachment "data": adoptId ${idOf()}: the volume is not attached`,
      );
      expect(calls()).toEqual([]);
      expect(await truth()).toEqual([]);
    });
  } else {
    it("adopts a volume that is not attached by attaching it, and says so", async () => {
      const inputs = await checked(attachments, {}, args({ adoptId: idOf() }));
      const { outs } = await attachments.create(inputs);
      expect(outs).toEqual({ ...inputs, sizeGb: null, verification: "none" });
      expect(calls()).toEqual([attachCall(nodes[0])]);
      expect(h.lines).toContain(
        `${SUBJECT}: adoptId: the service accepted a new attach of ${VOLUME} to node ${nodes[0]}, so it was ` +
          "not attached; it is attached now (the service does not show attachments: unverified)",
      );
      expect(await truth()).toEqual([attached(nodes[0])]);
    });
  }

  it("refuses, without adoptId, a volume already attached to another node or to an unknown one", async () => {
    await attachOutOfBand(nodes[0]);
    h.emulator.clearRequests();
    const inputs = await checked(attachments, {}, args({ nodeId: nodes[1] }));
    const error = await attachments.create(inputs).then(
      () => undefined,
      (e: Error) => e,
    );
    const unknownNode =
      `, and the service does not show to which node, so it cannot be checked to be node ${nodes[1]}. If ` +
      `this attachment is yours (an interrupted run, a retried request), set adoptId: "${idOf()}" to take ` +
      "it over; otherwise detach it first.";
    if (reading.verification === "node") {
      expect(error?.message).toBe(
        `VolumeAttachment "data": ${VOLUME} is already attached to node ${nodes[0]} of cluster ${kaasId}; detach it first`,
      );
      expect(calls()).toEqual([]);
    } else if (reading.verification === "cluster") {
      expect(error?.message).toBe(
        `VolumeAttachment "data": ${VOLUME} is already attached to cluster ${kaasId}${unknownNode}`,
      );
      expect(calls()).toEqual([]);
    } else {
      // The service's own words sit between the parentheses; their format belongs to the REST layer.
      const prefix = `VolumeAttachment "data": the service answers that ${VOLUME} is already attached to cluster ${kaasId} (`;
      expect(error?.message.startsWith(prefix)).toBe(true);
      expect(error?.message.endsWith(`)${unknownNode}`)).toBe(true);
      expect(error?.message.slice(prefix.length)).toMatch(/already attached/);
      expect(calls()).toEqual([attachCall(nodes[1], 400)]);
    }
    expect(await truth()).toEqual([attached(nodes[0])]);
  });

  it("fails with a message naming the storage limit when the service refuses for it", async () => {
    h.emulator.updateConfig({ volumeSizesGb: { [VOLUME]: 500 } });
    const inputs = await checked(attachments, {}, args());
    await expect(attachments.create(inputs)).rejects.toThrow(
      `VolumeAttachment "data": attaching ${VOLUME} would exceed the cluster's storage limit maxCumulativeVolumeSize (100 GB)`,
    );
    expect(calls()).toEqual([attachCall(nodes[0], 400)]);
    expect(await truth()).toEqual([]);
  });

  if (!reading.shows) {
    /** A client for the provider whose accepted attach sets the cluster `Updating` until `settle` ends it. */
    function clientMovingTheCluster() {
      const api = stackClient();
      const call = api.call.bind(api);
      let settledAt: number | undefined;
      const settle = (state: "Active" | "Failed") => {
        settledAt = Date.now();
        h.emulator.patchResource("kaas", kaasId, {
          state,
          failureReason: state === "Failed" ? "volume driver crashed" : null,
        });
      };
      return {
        api,
        settledAt: () => settledAt,
        moveOnAttach(to: "Active" | "Failed") {
          api.call = (async (...a: Parameters<typeof call>) => {
            const answer = await call(...a);
            if (a[0] === "attachVolume") {
              h.emulator.patchResource("kaas", kaasId, { state: "Updating" });
              setTimeout(() => settle(to), 150);
            }
            return answer;
          }) as typeof api.call;
        },
      };
    }

    it("waits for the cluster to settle when it moves after the accepted attach", async () => {
      const moving = clientMovingTheCluster();
      moving.moveOnAttach("Active");
      const provider = new VolumeAttachmentProvider(() => moving.api);
      const inputs = await checked(provider, {}, args());
      const { outs } = await provider.create(inputs);
      expect(moving.settledAt()).toBeDefined();
      expect(outs).toEqual({ ...inputs, sizeGb: null, verification: "none" });
      expect(h.lines).toContainEqual(
        expect.stringMatching(
          new RegExp(
            `^\\[vendor-container\\] VolumeAttachment "data" \\(${kaasId}:.*vol-1\\): Updating, waiting for attached \\(\\d+s elapsed\\)$`,
          ),
        ),
      );
    });

    it("records an attach whose cluster fails afterwards as a partial failure, keeping its id", async () => {
      const moving = clientMovingTheCluster();
      moving.moveOnAttach("Failed");
      const provider = new VolumeAttachmentProvider(() => moving.api);
      const inputs = await checked(provider, {}, args());
      const error = await provider.create(inputs).then(
        () => undefined,
        (e: Error & { id?: string; properties?: Record<string, unknown> }) => e,
      );
      expect(error?.id).toBe(idOf());
      expect(error?.properties).toEqual({
        ...inputs,
        sizeGb: null,
        verification: "none",
        __provider: undefined,
      });
      // Between the two parts, the REST layer may name the request of the wait (its own format).
      expect(error?.message.startsWith(`VolumeAttachment "data" (${idOf()}) attach did not complete: `)).toBe(
        true,
      );
      expect(
        error?.message.endsWith(
          `VolumeAttachment "data" (${idOf()}) failed while waiting for attached: volume driver crashed`,
        ),
      ).toBe(true);
    });
  }
});

/**
 * Several resources of one stack attaching one volume to one cluster: one holds it, the first the program
 * declares where `declaredBefore` says the program's order, and the create of any other fails without an id, so
 * the state never records it (provider/volumeAttachment/claims.ts). Each provider made here stands for the
 * provider process of one run, which a `pulumi up` shares between every dynamic resource of the stack (and a
 * plugin process between the resources of a stack on the plugin); `declaredBefore` is what the SDK class sets,
 * in program order, and is absent on the plugin path. Calls are made in the order the engine makes them: every
 * check, then create, update and the deletes of removed resources last.
 */
describe.each(READINGS)("several resources of the stack attaching one volume, under $label", (reading) => {
  beforeEach(async () => {
    await setUp(reading.wire);
  });

  const run = () => new VolumeAttachmentProvider(undefined, new AttachmentClaims());
  const DATA = "proj/dev/data";
  const DUP = "proj/dev/dup";
  /** `declaredBefore` naming the resource of `scope` on `node`, as the SDK class writes it. */
  const before = (node: string, scope = DATA) => [
    { scope, projectId: null, nodePoolName: "system", nodeId: node },
  ];
  /** The refusal of `name`'s create, `holder` holding the attachment. */
  const refusal = (name: string, holder: string, relation = "declared before it in this stack") =>
    `VolumeAttachment "${name}": ${VOLUME} is already attached by VolumeAttachment "${holder}", ${relation} ` +
    `(${idOf()}): a volume is attached once per cluster, so "${name}" is not created. Remove one of them; ` +
    `removing "${name}" changes nothing`;
  const OF_STACK = "another resource of this stack";
  type Failure = Error & { id?: string; properties?: Record<string, unknown> };
  const failureOf = (operation: Promise<unknown>): Promise<Failure> =>
    operation.then(
      () => {
        throw new Error("expected a failure");
      },
      (e: Failure) => e,
    );

  /** One run that declares "data" on node 0 and then "dup" on `dupNode`: the state it leaves ("data"'s). */
  async function declareBoth(dupNode: string) {
    const p = run();
    const data = await checked(p, {}, args());
    const dup = await checked(
      p,
      {},
      args({ nodeId: dupNode, creationScope: DUP, declaredBefore: before(nodes[0]) }),
    );
    const [made, refused] = await Promise.allSettled([p.create(data), p.create(dup)]);
    expect(made.status).toBe("fulfilled");
    const error = (refused as PromiseRejectedResult).reason as Failure;
    expect(error.message).toBe(refusal("dup", "data"));
    // No id: the engine records nothing of "dup".
    expect(error.id).toBeUndefined();
    return (made as PromiseFulfilledResult<{ outs: Record<string, unknown> }>).value.outs;
  }

  it.each([
    ["another node", 1],
    ["the same node", 0],
  ])(
    "attaches the first declared and refuses the later one on %s, sending nothing for it",
    async (_label, node) => {
      const data = await declareBoth(nodes[node]);
      expect(data).toEqual({
        ...args(),
        projectId: PROJECT,
        sizeGb: reading.sizeGb,
        verification: reading.verification,
      });
      expect(calls()).toEqual([attachCall(nodes[0])]);
      expect(await truth()).toEqual([attached(nodes[0])]);
    },
  );

  it("gives the same outcome whichever of the two the engine checks and creates first", async () => {
    const dupArgs = args({ nodeId: nodes[1], creationScope: DUP, declaredBefore: before(nodes[0]) });
    const p = run();
    const dup = await checked(p, {}, dupArgs);
    const data = await checked(p, {}, args());
    const refused = await failureOf(p.create(dup));
    expect(refused.message).toBe(refusal("dup", "data"));
    expect(calls()).toEqual([]);
    await p.create(data);
    expect(calls()).toEqual([attachCall(nodes[0])]);
  });

  it.each([
    ["another node", 1],
    ["the same node", 0],
  ])(
    "refuses the later one on %s again in the next run, sending nothing, and changes nothing once it is removed",
    async (_label, node) => {
      const state = await declareBoth(nodes[node]);
      h.emulator.clearRequests();
      const p = run();
      const data = await checked(p, state, args());
      expect(await p.diff(idOf(), state, data)).toEqual({
        changes: false,
        replaces: [],
        deleteBeforeReplace: true,
      });
      const dup = await checked(
        p,
        {},
        args({ nodeId: nodes[node], creationScope: DUP, declaredBefore: before(nodes[0]) }),
      );
      expect((await failureOf(p.create(dup))).message).toBe(refusal("dup", "data"));
      // The run without "dup": "data" alone, unchanged.
      const alone = run();
      expect((await alone.diff(idOf(), state, await checked(alone, state, args()))).changes).toBe(false);
      expect(calls()).toEqual([]);
      expect(await truth()).toEqual([attached(nodes[0])]);
    },
  );

  it("lets the holder keep its attachment when a new resource declared before it is created", async () => {
    const p0 = run();
    const { outs } = await p0.create(await checked(p0, {}, args()));
    h.emulator.clearRequests();
    const p = run();
    const first = await checked(p, {}, args({ nodeId: nodes[1], creationScope: "proj/dev/first" }));
    const data = await checked(p, outs, args({ declaredBefore: before(nodes[1], "proj/dev/first") }));
    expect((await p.diff(idOf(), outs, data)).changes).toBe(false);
    const refused = await failureOf(p.create(first));
    expect(refused.message).toBe(refusal("first", "data", OF_STACK));
    expect(refused.id).toBeUndefined();
    expect(calls()).toEqual([]);
    expect(await truth()).toEqual([attached(nodes[0])]);
  });

  describe("on the plugin path, where no input says the program's order", () => {
    it.each([
      ["another node", 1],
      ["the same node", 0],
    ])(
      "attaches the one whose create starts first and refuses the other on %s, sending nothing for it",
      async (_label, node) => {
        const p = run();
        const data = await checked(p, {}, args());
        const dup = await checked(p, {}, args({ nodeId: nodes[node], creationScope: DUP }));
        const [made, refused] = await Promise.allSettled([p.create(data), p.create(dup)]);
        expect(made.status).toBe("fulfilled");
        const error = (refused as PromiseRejectedResult).reason as Failure;
        expect(error.message).toBe(refusal("dup", "data", OF_STACK));
        expect(error.id).toBeUndefined();
        expect(calls()).toEqual([attachCall(nodes[0])]);
        expect(await truth()).toEqual([attached(nodes[0])]);
      },
    );

    /** "data" created and in the state (its outputs), then the next run's provider and "dup"'s checked inputs. */
    async function dataHeldThenDup() {
      const p0 = run();
      const { outs } = await p0.create(await checked(p0, {}, args()));
      h.emulator.clearRequests();
      const p = run();
      const dup = await checked(p, {}, args({ nodeId: nodes[1], creationScope: DUP }));
      return { outs, p, dup };
    }

    it("refuses another resource while the one in the state holds the attachment, even checked after its create started", async () => {
      const { outs, p, dup } = await dataHeldThenDup();
      const creating = failureOf(p.create(dup));
      // The engine checks "data", registered after "dup", while "dup"'s create reads the cluster.
      await checked(p, outs, args());
      expect((await creating).message).toBe(refusal("dup", "data", OF_STACK));
      expect(calls()).toEqual([]);
      expect(await truth()).toEqual([attached(nodes[0])]);
    });

    it("refuses another resource that the state names as the holder, however late that one's check comes", async () => {
      const { outs, p, dup } = await dataHeldThenDup();
      const tracker = {
        urn: "urn:pulumi:dev::proj::vendor-container:index:VolumeAttachment::data",
        scope: DATA,
      };
      const creating = failureOf(
        p.create(dup, { trackerOf: async (id) => (id === idOf() ? tracker : null) }),
      );
      // A loaded machine: "data"'s check comes a second after the last check, past the short wait.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await checked(p, outs, args());
      expect((await creating).message).toBe(refusal("dup", "data", OF_STACK));
      // Where the cluster shows no attachments, the attach the service refuses as already attached, which
      // changes nothing, is how the create found it attached.
      expect(calls()).toEqual(reading.shows ? [] : [attachCall(nodes[1], 400)]);
      expect(await truth()).toEqual([attached(nodes[0])]);
    });

    it("attaches the later create when the earlier one fails, recording nothing of that one", async () => {
      const p = run();
      const data = await checked(p, {}, args({ kaasId: "kaas-none" }));
      const dup = await checked(p, {}, args({ kaasId: "kaas-none", creationScope: DUP }));
      const [first, second] = await Promise.allSettled([p.create(data), p.create(dup)]);
      // Both fail on the cluster that does not exist: the later one was not refused for the earlier one.
      expect([first.status, second.status]).toEqual(["rejected", "rejected"]);
      expect(((second as PromiseRejectedResult).reason as Error).message).toBe(
        `VolumeAttachment "dup": cluster kaas-none does not exist in project ${PROJECT}`,
      );
    });
  });

  it("detaches nothing when a resource an earlier version recorded standing by is removed", async () => {
    const state = await declareBoth(nodes[1]);
    h.emulator.clearRequests();
    h.lines.length = 0;
    const standby = {
      ...args({ nodeId: nodes[1], creationScope: DUP }),
      projectId: PROJECT,
      declaredBefore: [{ scope: DATA, nodePoolName: "system", nodeId: nodes[0] }],
      sizeGb: null,
      verification: "none",
    };
    const p = run();
    expect((await p.diff(idOf(), state, await checked(p, state, args()))).changes).toBe(false);
    await p.delete(idOf(), standby);
    expect(calls()).toEqual([]);
    expect(h.lines).toEqual([
      `[vendor-container] VolumeAttachment "dup": stood by for VolumeAttachment "data" and holds nothing of ` +
        `${VOLUME}: nothing to detach`,
    ]);
    expect(await truth()).toEqual([attached(nodes[0])]);
  });

  it("leaves the first attached when a duplicate an earlier version recorded is removed", async () => {
    const { id, outs } = await attachments.create(await checked(attachments, {}, args()));
    // Versions before `declaredBefore` could record the duplicate with the first's id, as a holder.
    const duplicate = { ...outs, nodeId: nodes[1], creationScope: DUP };
    h.emulator.clearRequests();
    h.lines.length = 0;
    const p = run();
    expect((await p.check(outs, args())).failures).toEqual([]);
    await p.delete(id, duplicate);
    expect(calls()).toEqual([]);
    expect(h.lines).toEqual([
      `[vendor-container] VolumeAttachment "dup": ${VOLUME} is attached by VolumeAttachment "data" of this ` +
        `stack (${idOf()}), not by this resource: nothing to detach`,
    ]);
    expect(await truth()).toEqual([attached(nodes[0])]);
  });

  if (reading.verification !== "cluster") {
    // Under linked resources a refused attach that the cluster then shows linked counts as this resource's
    // own retried attach (its node cannot be checked): that reading is left as it was.
    it("fails without an id when another stack's attach of the volume wins the race", async () => {
      const api = stackClient();
      const call = api.call.bind(api);
      api.call = (async (...a: Parameters<typeof call>) => {
        if (a[0] === "attachVolume") {
          await h.client.call(
            "attachVolume",
            { projectId: PROJECT, id: kaasId, pool: "system", node: nodes[1] },
            volumeAction(VOLUME),
          );
        }
        return call(...a);
      }) as typeof api.call;
      const p = new VolumeAttachmentProvider(() => api, new AttachmentClaims());
      const error = await p.create(await checked(p, {}, args({ timeouts: { create: "5s" } }))).then(
        () => undefined,
        (e: Error & { id?: string }) => e,
      );
      expect(error?.id).toBeUndefined();
      if (reading.shows) {
        const prefix =
          `VolumeAttachment "data": the service answers that ${VOLUME} is already attached to cluster ` +
          `${kaasId}, and the cluster does not show it on node ${nodes[0]} (`;
        expect(error?.message.startsWith(prefix)).toBe(true);
        expect(error?.message).toMatch(
          new RegExp(`attached to node ${nodes[1]} instead of ${nodes[0]}\\); detach it first$`),
        );
      } else {
        expect(error?.message).toMatch(/set adoptId: ".*" to take it over; otherwise detach it first\.$/);
      }
      expect(await truth()).toEqual([attached(nodes[1])]);
      // A later run of the refused resource takes over nothing of it either.
      expect((await run().check({}, args())).failures).toEqual([]);
    });
  }
});

describe("a reading that changes at run time", () => {
  beforeEach(async () => {
    await setUp({ attachments: "attachedVolumes" });
  });

  it("is read from each response: refresh verifies as far as the current response shows", async () => {
    const { id, outs } = await attachments.create(await checked(attachments, {}, args()));
    expect(outs).toMatchObject({ sizeGb: 10, verification: "node" });
    const config = async (attachmentsReading: WireReadings["attachments"]) => {
      const answer = await fetch(`${h.url}/_emulator/config`, {
        method: "PUT",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ wire: { attachments: attachmentsReading } }),
      });
      expect(answer.status).toBe(200);
    };
    await config("hidden");
    // The size seen before stays; nothing shows it now.
    expect((await attachments.read(id, outs)).props).toEqual({ ...outs, verification: "none" });
    await config("linkedResources");
    expect((await attachments.read(id, outs)).props).toEqual({ ...outs, verification: "cluster" });
  });

  it("reports a volume moved out of band where responses show nodes, so the next up moves it back", async () => {
    const inputs = await checked(attachments, {}, args());
    const { id, outs } = await attachments.create(inputs);
    await h.client.call(
      "detachVolumeFromNode",
      { projectId: PROJECT, id: kaasId, pool: "system", node: nodes[0] },
      volumeAction(VOLUME),
    );
    h.emulator.advanceClock(FAST_DURATIONS.detachMs);
    await attachOutOfBand(nodes[1]);
    const read = await attachments.read(id, outs);
    expect(read.inputs).toEqual({ ...inputs, nodeId: nodes[1] });
    expect(read.props).toEqual({ ...inputs, nodeId: nodes[1], sizeGb: 10, verification: "node" });
    expect((await attachments.diff(id, read.props, inputs)).replaces).toEqual(["nodeId"]);
  });
});
