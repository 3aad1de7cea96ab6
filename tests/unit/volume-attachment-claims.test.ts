/**
 * One attachment per resource of a stack (issue 19, item 8): the claim rules of one provider process, their
 * exact messages, and how the VolumeAttachment provider's `check`, `create` and `delete` apply them before any
 * request reaches the service.
 */
import type { VendorContainerClient } from "../../rest/client";
import {
  AttachmentClaims,
  claimTargetOf,
  claimedError,
  claimedReason,
  leftToHolderLine,
  type ClaimTarget,
} from "../../provider/volumeAttachment/claims";
import { VolumeAttachmentProvider } from "../../provider/volumeAttachment/provider";
import { UNKNOWN } from "../../provider/common/unknown";

const VOLUME = "/projects/p-1/providers/Vendor.Storage/blockStorages/v-1";
const VOLUME_URL = `https://storage.example.com${VOLUME}`;
const OTHER_VOLUME = "/projects/p-1/providers/Vendor.Storage/blockStorages/v-2";
const TARGET: ClaimTarget = { projectId: "p-1", kaasId: "kaas-1", volumeUri: VOLUME };
const ID = `kaas-1:${VOLUME}`;
const DATA = "shop/dev/data";
const DUP = "shop/dev/dup";

describe("AttachmentClaims", () => {
  let claims: AttachmentClaims;
  beforeEach(() => {
    claims = new AttachmentClaims();
  });

  it("gives a free attachment to the first resource that claims it", () => {
    expect(claims.claim(TARGET, DATA, false)).toBeUndefined();
    expect(claims.get(TARGET)).toEqual({ scope: DATA, id: ID, held: false });
  });

  it("refuses a second resource and returns the holder, changing nothing", () => {
    claims.claim(TARGET, DATA, false);
    expect(claims.claim(TARGET, DUP, false)).toEqual({ scope: DATA, id: ID, held: false });
    expect(claims.conflict(TARGET, DUP, false)).toEqual({ scope: DATA, id: ID, held: false });
    expect(claims.get(TARGET)).toEqual({ scope: DATA, id: ID, held: false });
  });

  it("never refuses the holder itself: a second check, a replacement", () => {
    claims.claim(TARGET, DATA, false);
    claims.hold(TARGET, DATA);
    expect(claims.claim(TARGET, DATA, false)).toBeUndefined();
    expect(claims.conflict(TARGET, DATA, false)).toBeUndefined();
    // Claiming again keeps what the state holds.
    expect(claims.get(TARGET)).toEqual({ scope: DATA, id: ID, held: true });
  });

  it("takes the volume's path and its full URL for one volume, and names the holder's own spelling", () => {
    claims.claim({ ...TARGET, volumeUri: VOLUME_URL }, DATA, false);
    expect(claims.claim(TARGET, DUP, false)).toEqual({
      scope: DATA,
      id: `kaas-1:${VOLUME_URL}`,
      held: false,
    });
  });

  it.each<[string, Partial<ClaimTarget>]>([
    ["another volume", { volumeUri: OTHER_VOLUME }],
    ["another cluster", { kaasId: "kaas-2" }],
    ["another project", { projectId: "p-2" }],
  ])("leaves %s to anyone", (_label, other) => {
    claims.claim(TARGET, DATA, false);
    expect(claims.claim({ ...TARGET, ...other }, DUP, false)).toBeUndefined();
  });

  it("lets a resource the state holds the attachment for prevail over another's create still to come", () => {
    claims.claim(TARGET, DUP, false);
    expect(claims.claim(TARGET, DATA, true)).toBeUndefined();
    expect(claims.get(TARGET)).toEqual({ scope: DATA, id: ID, held: true });
    expect(claims.claim(TARGET, DUP, false)).toEqual({ scope: DATA, id: ID, held: true });
  });

  it("refuses a second resource the state also holds it for: the first one keeps it", () => {
    claims.claim(TARGET, DATA, true);
    expect(claims.claim(TARGET, DUP, true)).toEqual({ scope: DATA, id: ID, held: true });
  });

  it("lets only the holder hold, unhold or release its claim", () => {
    claims.claim(TARGET, DATA, false);
    claims.hold(TARGET, DUP);
    expect(claims.get(TARGET)?.held).toBe(false);
    claims.hold(TARGET, DATA);
    claims.unhold(TARGET, DUP);
    expect(claims.get(TARGET)?.held).toBe(true);
    claims.unhold(TARGET, DATA);
    expect(claims.get(TARGET)?.held).toBe(false);
    claims.release(TARGET, DUP);
    expect(claims.get(TARGET)?.scope).toBe(DATA);
    claims.release(TARGET, DATA);
    expect(claims.get(TARGET)).toBeUndefined();
    expect(claims.claim(TARGET, DUP, false)).toBeUndefined();
  });

  it("forgets every claim on clear", () => {
    claims.claim(TARGET, DATA, true);
    claims.clear();
    expect(claims.get(TARGET)).toBeUndefined();
  });
});

describe("messages", () => {
  const holder = { scope: DATA, id: ID, held: true };

  it("check's reason names the holder and the attachment", () => {
    expect(claimedReason(holder)).toBe(
      `is already attached by VolumeAttachment "data" of this stack (${ID}); one volume can be attached once per cluster`,
    );
  });

  it("create's error names the resource, the volume and the holder", () => {
    expect(claimedError('VolumeAttachment "dup"', VOLUME, holder).message).toBe(
      `VolumeAttachment "dup": ${VOLUME} is already attached by VolumeAttachment "data" of this stack (${ID}); ` +
        "one volume can be attached once per cluster",
    );
  });

  it("delete's line says why nothing is detached", () => {
    expect(leftToHolderLine(VOLUME, holder)).toBe(
      `${VOLUME} is attached by VolumeAttachment "data" of this stack (${ID}), not by this resource: nothing to detach`,
    );
  });
});

describe("claimTargetOf", () => {
  const inputs = { projectId: "p-1", kaasId: "kaas-1", volumeUri: VOLUME };

  it("reads the project, cluster and volume", () => {
    expect(claimTargetOf(inputs)).toEqual(TARGET);
  });

  it("takes the default project for a state written without one", () => {
    expect(claimTargetOf({ kaasId: "kaas-1", volumeUri: VOLUME }, "p-1")).toEqual(TARGET);
  });

  it.each<[string, Record<string, unknown>]>([
    ["an unknown cluster id (a preview)", { ...inputs, kaasId: UNKNOWN }],
    ["an unknown volume", { ...inputs, volumeUri: UNKNOWN }],
    ["a missing cluster id", { projectId: "p-1", volumeUri: VOLUME }],
    ["an invalid volume URI", { ...inputs, volumeUri: "v-1" }],
    ["no project at all", { kaasId: "kaas-1", volumeUri: VOLUME }],
  ])("has none for %s", (_label, bag) => {
    expect(claimTargetOf(bag)).toBeUndefined();
  });
});

describe("the provider", () => {
  let claims: AttachmentClaims;
  let provider: VolumeAttachmentProvider;
  let requests: string[];
  let lines: string[];

  /** A client that records each call; the cluster it finds is gone, so a delete ends there. */
  const api = {
    find: async (name: string, params: { id: string }) => {
      requests.push(`find ${name} ${params.id}`);
      return undefined;
    },
  } as unknown as VendorContainerClient;

  beforeEach(() => {
    claims = new AttachmentClaims();
    provider = new VolumeAttachmentProvider(() => api, claims);
    requests = [];
    lines = [];
    jest.spyOn(console, "log").mockImplementation((line: unknown) => {
      lines.push(String(line));
    });
  });
  afterEach(() => {
    jest.restoreAllMocks();
  });

  const args = (name: string, overrides: Record<string, unknown> = {}) => ({
    projectId: "p-1",
    kaasId: "kaas-1",
    nodePoolName: "system",
    nodeId: "node-1",
    volumeUri: VOLUME,
    creationScope: `shop/dev/${name}`,
    ...overrides,
  });
  const refusal = (holder: string) => ({
    property: "volumeUri",
    reason: `is already attached by VolumeAttachment "${holder}" of this stack (${ID}); one volume can be attached once per cluster`,
  });

  it.each([
    ["to another node", { nodeId: "node-2" }],
    ["to the same node", {}],
  ])("refuses at check a second resource attaching the volume %s", async (_label, overrides) => {
    expect((await provider.check({}, args("data"))).failures).toEqual([]);
    expect((await provider.check({}, args("dup", overrides))).failures).toEqual([refusal("data")]);
    expect(requests).toEqual([]);
  });

  it("accepts the same resource checked twice (a preview, then the update)", async () => {
    expect((await provider.check({}, args("data"))).failures).toEqual([]);
    expect((await provider.check({}, args("data"))).failures).toEqual([]);
  });

  it("reports the holder after a resource's other problems, and then claims nothing for it", async () => {
    await provider.check({}, args("data"));
    const { failures } = await provider.check({}, args("dup", { nodeId: 7 }));
    expect(failures).toEqual([
      { property: "nodeId", reason: "must be a string, got number" },
      refusal("data"),
    ]);
    const other = { volumeUri: OTHER_VOLUME };
    expect((await provider.check({}, args("dup", { ...other, nodeId: 7 }))).failures).toHaveLength(1);
    expect((await provider.check({}, args("third", other))).failures).toEqual([]);
  });

  it("claims nothing while the cluster id is unknown: create claims it, before any request", async () => {
    expect((await provider.check({}, args("data", { kaasId: UNKNOWN }))).failures).toEqual([]);
    expect((await provider.check({}, args("dup", { kaasId: UNKNOWN }))).failures).toEqual([]);
    claims.claim(TARGET, "shop/dev/data", false);
    const error = await provider.create(args("dup")).then(
      () => undefined,
      (e: Error & { id?: string }) => e,
    );
    expect(error?.message).toBe(
      `VolumeAttachment "dup": ${VOLUME} is already attached by VolumeAttachment "data" of this stack (${ID}); ` +
        "one volume can be attached once per cluster",
    );
    expect(error?.id).toBeUndefined();
    expect(requests).toEqual([]);
    expect(claims.get(TARGET)).toEqual({ scope: "shop/dev/data", id: ID, held: false });
  });

  it("lets the resource in the state prevail over a new one checked first, whose create is refused", async () => {
    expect((await provider.check({}, args("dup"))).failures).toEqual([]);
    const state = args("data");
    expect((await provider.check(state, args("data"))).failures).toEqual([]);
    await expect(provider.create(args("dup"))).rejects.toThrow(
      `VolumeAttachment "dup": ${VOLUME} is already attached by VolumeAttachment "data" of this stack (${ID})`,
    );
    expect(requests).toEqual([]);
  });

  it("keeps the claim of a resource replaced onto another node across its delete, refusing others meanwhile", async () => {
    const state = args("data");
    await provider.check({}, state);
    claims.hold(TARGET, "shop/dev/data");
    expect((await provider.check(state, args("data", { nodeId: "node-2" }))).failures).toEqual([]);
    await provider.delete(ID, { ...state, sizeGb: null, verification: "none" });
    expect(requests).toEqual(["find getKaas kaas-1"]);
    expect(claims.get(TARGET)).toEqual({ scope: "shop/dev/data", id: ID, held: false });
    expect((await provider.check({}, args("dup"))).failures).toEqual([refusal("data")]);
  });

  it("releases the claim of a create that failed with nothing recorded", async () => {
    await provider.check({}, args("data"));
    await expect(provider.create(args("data"))).rejects.toThrow(
      'VolumeAttachment "data": cluster kaas-1 does not exist in project p-1',
    );
    expect(claims.get(TARGET)).toBeUndefined();
    expect((await provider.check({}, args("dup"))).failures).toEqual([]);
  });

  it("detaches nothing for a resource whose attachment another resource of the stack holds", async () => {
    claims.claim(TARGET, "shop/dev/data", true);
    await provider.delete(ID, { ...args("dup", { nodeId: "node-2" }), sizeGb: null, verification: "none" });
    expect(requests).toEqual([]);
    expect(lines).toEqual([
      `[vendor-container] VolumeAttachment "dup": ${VOLUME} is attached by VolumeAttachment "data" of this ` +
        `stack (${ID}), not by this resource: nothing to detach`,
    ]);
    expect(claims.get(TARGET)).toEqual({ scope: "shop/dev/data", id: ID, held: true });
  });

  it("detaches as before when another resource's create is still to come", async () => {
    claims.claim(TARGET, "shop/dev/data", false);
    await provider.delete(ID, { ...args("old"), sizeGb: null, verification: "none" });
    expect(requests).toEqual(["find getKaas kaas-1"]);
  });

  it("claims nothing for inputs without creationScope", async () => {
    expect((await provider.check({}, args("data", { creationScope: undefined }))).failures).toEqual([]);
    expect(claims.get(TARGET)).toBeUndefined();
  });
});
