/**
 * Which VolumeAttachment of a stack holds an attachment that several declare (provider/volumeAttachment/claims.ts):
 * the first the program declares, decided from each resource's own inputs (`declaredBefore`, which the SDK
 * class sets in program order) and state, whatever order the engine calls the provider in; the others' creates
 * fail with a plain error, so the state never records them. Here: the checked form of `declaredBefore`, the
 * exact messages, the claims of one provider process, and the provider's decisions that need no request (a
 * later one's create; a holder's check; a removed holder's delete; the diff, refresh and delete of a state an
 * earlier version recorded standing by).
 */
import fc from "fast-check";
import type { VendorContainerClient } from "../../rest/client";
import { Problems } from "../../provider/common/check";
import { UNKNOWN } from "../../provider/common/unknown";
import {
  AttachmentClaims,
  checkDeclaredBefore,
  claimTargetOf,
  duplicateReason,
  holderOf,
  leftToHolderLine,
  standbyDeleteLine,
  standbyDroppedLine,
  type ClaimTarget,
} from "../../provider/volumeAttachment/claims";
import { checkVolumeAttachment } from "../../provider/volumeAttachment/check";
import { diffVolumeAttachment } from "../../provider/volumeAttachment/diff";
import { VolumeAttachmentProvider } from "../../provider/volumeAttachment/provider";

const VOLUME = "/projects/p-1/providers/Vendor.Storage/blockStorages/v-1";
const VOLUME_URL = `https://storage.example.com${VOLUME}`;
const TARGET: ClaimTarget = { projectId: "p-1", kaasId: "kaas-1", volumeUri: VOLUME };
const ID = `kaas-1:${VOLUME}`;
const DATA = "shop/dev/data";
const DUP = "shop/dev/dup";
const DATA_CLAIM = { scope: DATA, nodePoolName: "system", nodeId: "node-1" };

/** What the refusal of a later one's create says, after the resource's name and volume. */
const DUPLICATE =
  `is already attached by VolumeAttachment "data", declared before it in this stack (${ID}): a volume is ` +
  `attached once per cluster, so "dup" is not created. Remove one of them; removing "dup" changes nothing`;

describe("checkDeclaredBefore", () => {
  const check = (
    value: unknown,
    projectId: unknown = "p-1",
    defaultProjectId: string | undefined = "p-1",
  ) => {
    const problems = new Problems();
    return {
      checked: checkDeclaredBefore(value, projectId, defaultProjectId, problems),
      problems: problems.failures,
    };
  };

  it("keeps the entries of the resource's project, without their project, in declaration order", () => {
    const first = { ...DATA_CLAIM, projectId: null };
    const second = { scope: "shop/dev/second", nodePoolName: "workers", nodeId: "node-9", projectId: "p-1" };
    const elsewhere = {
      scope: "shop/dev/elsewhere",
      nodePoolName: "system",
      nodeId: "node-1",
      projectId: "p-2",
    };
    expect(check([first, elsewhere, second])).toEqual({
      checked: [DATA_CLAIM, { scope: "shop/dev/second", nodePoolName: "workers", nodeId: "node-9" }],
      problems: [],
    });
  });

  it("takes the configured project for an entry that declares none", () => {
    expect(check([DATA_CLAIM], "p-1", "p-2").checked).toBeUndefined();
    expect(check([DATA_CLAIM], "p-2", "p-2").checked).toEqual([DATA_CLAIM]);
  });

  it.each<[string, unknown]>([
    ["no list", undefined],
    ["an empty list", []],
    ["entries of other projects only", [{ ...DATA_CLAIM, projectId: "p-2" }]],
  ])("records nothing for %s: the resource holds its attachment", (_label, value) => {
    expect(check(value)).toEqual({ checked: undefined, problems: [] });
  });

  it.each<[string, unknown, unknown]>([
    ["an unknown list", UNKNOWN, "p-1"],
    ["an unknown entry", [DATA_CLAIM, { ...DATA_CLAIM, nodeId: UNKNOWN }], "p-1"],
    ["an unknown project", [DATA_CLAIM], UNKNOWN],
  ])("keeps %s as it is (a preview)", (_label, value, projectId) => {
    expect(check(value, projectId)).toEqual({ checked: value, problems: [] });
  });

  it.each<[string, unknown]>([
    ["a string", "shop/dev/data"],
    ["an entry without a node", [{ scope: DATA, nodePoolName: "system" }]],
    ["an empty scope", [{ ...DATA_CLAIM, scope: "" }]],
    ["a project that is not a string", [{ ...DATA_CLAIM, projectId: 7 }]],
  ])("refuses %s, naming the input", (_label, value) => {
    expect(check(value)).toEqual({
      checked: undefined,
      problems: [
        {
          property: "declaredBefore",
          reason:
            "must be the list the VolumeAttachment class sets (the attachments of the same volume declared before this one)",
        },
      ],
    });
  });
});

describe("holderOf", () => {
  it("is null for a resource that holds its attachment, and for a state written before the input existed", () => {
    expect(holderOf({ kaasId: "kaas-1" })).toBeNull();
    expect(holderOf({ declaredBefore: [] })).toBeNull();
  });

  it("is the first resource declared before it", () => {
    expect(holderOf({ declaredBefore: [DATA_CLAIM, { ...DATA_CLAIM, scope: DUP }] })).toEqual(DATA_CLAIM);
  });

  it("is undefined while the list is unknown", () => {
    expect(holderOf({ declaredBefore: UNKNOWN })).toBeUndefined();
    expect(holderOf({ declaredBefore: [{ ...DATA_CLAIM, scope: UNKNOWN }] })).toBeUndefined();
  });
});

describe("messages", () => {
  it("a refused create's names the resource that holds the attachment, the attachment and what to do", () => {
    expect(duplicateReason(DUP, DATA, ID, "declaredBefore")).toBe(DUPLICATE);
    expect(duplicateReason(DUP, DATA, ID, "ofStack")).toBe(
      `is already attached by VolumeAttachment "data", another resource of this stack (${ID}): a volume is ` +
        `attached once per cluster, so "dup" is not created. Remove one of them; removing "dup" changes nothing`,
    );
  });

  it("a delete that leaves the attachment to another resource says whose it is", () => {
    expect(leftToHolderLine(VOLUME, DATA, ID)).toBe(
      `${VOLUME} is attached by VolumeAttachment "data" of this stack (${ID}), not by this resource: nothing to detach`,
    );
  });

  it("the delete and the refresh of a resource an earlier version recorded standing by say it holds nothing", () => {
    expect(standbyDeleteLine(VOLUME, DATA)).toBe(
      `stood by for VolumeAttachment "data" and holds nothing of ${VOLUME}: nothing to detach`,
    );
    expect(standbyDroppedLine(VOLUME, DATA)).toBe(
      `holds nothing of ${VOLUME} (VolumeAttachment "data" holds it): dropped from the state`,
    );
  });
});

describe("claimTargetOf", () => {
  const inputs = { projectId: "p-1", kaasId: "kaas-1", volumeUri: VOLUME };

  it("reads the project, cluster and volume, with the default project for a state written without one", () => {
    expect(claimTargetOf(inputs)).toEqual(TARGET);
    expect(claimTargetOf({ kaasId: "kaas-1", volumeUri: VOLUME }, "p-1")).toEqual(TARGET);
  });

  it.each<[string, Record<string, unknown>]>([
    ["an unknown cluster id (a preview)", { ...inputs, kaasId: UNKNOWN }],
    ["an invalid volume URI", { ...inputs, volumeUri: "v-1" }],
    ["no project at all", { kaasId: "kaas-1", volumeUri: VOLUME }],
  ])("has none for %s", (_label, bag) => {
    expect(claimTargetOf(bag)).toBeUndefined();
  });
});

describe("AttachmentClaims", () => {
  let claims: AttachmentClaims;
  beforeEach(() => {
    claims = new AttachmentClaims();
  });

  it("names another resource that holds the attachment, never the asking one", () => {
    claims.hold(TARGET, DATA);
    expect(claims.otherHolder(TARGET, DUP)).toEqual({ scope: DATA, id: ID });
    expect(claims.otherHolder(TARGET, DATA)).toBeUndefined();
  });

  it("takes the volume's path and its full URL for one volume", () => {
    claims.hold({ ...TARGET, volumeUri: VOLUME_URL }, DATA);
    expect(claims.otherHolder(TARGET, DUP)).toEqual({ scope: DATA, id: `kaas-1:${VOLUME_URL}` });
  });

  it.each<[string, Partial<ClaimTarget>]>([
    ["another volume", { volumeUri: "/projects/p-1/providers/Vendor.Storage/blockStorages/v-2" }],
    ["another cluster", { kaasId: "kaas-2" }],
    ["another project", { projectId: "p-2" }],
  ])("knows no holder of %s", (_label, other) => {
    claims.hold(TARGET, DATA);
    expect(claims.otherHolder({ ...TARGET, ...other }, DUP)).toBeUndefined();
  });

  it("forgets a holder that misses, releases its attachment, or on clear", () => {
    claims.hold(TARGET, DATA);
    claims.miss(TARGET, DATA);
    expect(claims.otherHolder(TARGET, DUP)).toBeUndefined();
    claims.hold(TARGET, DATA);
    claims.release(TARGET, DATA);
    expect(claims.otherHolder(TARGET, DUP)).toBeUndefined();
    claims.hold(TARGET, DATA);
    claims.clear();
    expect(claims.otherHolder(TARGET, DUP)).toBeUndefined();
  });

  it("answers at once the other resource that holds the attachment when no create started before", async () => {
    await expect(claims.startCreate(TARGET, DUP, Date.now())).resolves.toBeUndefined();
    claims.hold(TARGET, DATA);
    await expect(claims.startCreate(TARGET, "shop/dev/third", Date.now())).resolves.toEqual({
      scope: DATA,
      id: ID,
    });
  });

  it("makes a create wait for one of its volume that started before it, and answers it once it holds", async () => {
    await claims.startCreate(TARGET, DATA, Date.now());
    let answered = false;
    const waiting = claims.startCreate(TARGET, DUP, Date.now() + 60_000).then((holder) => {
      answered = true;
      return holder;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(answered).toBe(false);
    claims.hold(TARGET, DATA);
    await expect(waiting).resolves.toEqual({ scope: DATA, id: ID });
  });

  it("answers no holder to the waiting create when the earlier one misses", async () => {
    await claims.startCreate(TARGET, DATA, Date.now());
    const waiting = claims.startCreate(TARGET, DUP, Date.now() + 60_000);
    claims.miss(TARGET, DATA);
    await expect(waiting).resolves.toBeUndefined();
  });

  it("never makes a create wait for one that started after it, nor for another volume", async () => {
    await claims.startCreate(TARGET, DATA, Date.now());
    const other = { ...TARGET, volumeUri: "/projects/p-1/providers/Vendor.Storage/blockStorages/v-2" };
    await expect(claims.startCreate(other, DUP, Date.now() + 60_000)).resolves.toBeUndefined();
    const waiting = claims.startCreate(TARGET, DUP, Date.now() + 60_000);
    // "data" started first: it goes on without waiting for "dup", whose create is under way.
    claims.hold(TARGET, DATA);
    await expect(waiting).resolves.toEqual({ scope: DATA, id: ID });
  });

  it("waits for the check of a holder while checks still come, and answers it", async () => {
    claims.checking();
    const waiting = claims.holderWithin(TARGET, DUP, 60_000, Date.now() + 60_000);
    claims.hold(TARGET, DATA);
    await expect(waiting).resolves.toEqual({ scope: DATA, id: ID });
  });

  it("answers no holder once no check came for the quiet period", async () => {
    claims.checking();
    const started = Date.now();
    await expect(claims.holderWithin(TARGET, DUP, 30, started + 60_000)).resolves.toBeUndefined();
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("stops waiting at the deadline", async () => {
    await claims.startCreate(TARGET, DATA, Date.now());
    const started = Date.now();
    await expect(claims.startCreate(TARGET, DUP, started + 30)).resolves.toBeUndefined();
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
  });
});

describe("diff", () => {
  const state = checkVolumeAttachment(
    {},
    { projectId: "p-1", kaasId: "kaas-1", nodePoolName: "system", nodeId: "node-2", volumeUri: VOLUME },
    {},
  ).inputs;

  it.each<[string, unknown]>([
    ["nothing", undefined],
    ["a resource", [DATA_CLAIM]],
    ["a list still unknown (a preview)", UNKNOWN],
  ])("has no change for a resource in the state when the program declares %s before it", (_label, after) => {
    expect(diffVolumeAttachment(state, { ...state, declaredBefore: after })).toEqual({
      changes: false,
      replaces: [],
      updates: [],
      deleteBeforeReplace: true,
    });
  });

  it.each<[string, unknown]>([
    ["still declared after its holder", [DATA_CLAIM]],
    ["first now", undefined],
  ])("replaces a resource an earlier version recorded standing by, %s", (_label, after) => {
    expect(
      diffVolumeAttachment({ ...state, declaredBefore: [DATA_CLAIM] }, { ...state, declaredBefore: after }),
    ).toEqual({ changes: true, replaces: ["declaredBefore"], updates: [], deleteBeforeReplace: true });
  });
});

describe("the provider, without a request", () => {
  let claims: AttachmentClaims;
  let provider: VolumeAttachmentProvider;
  let requests: string[];
  let lines: string[];

  /** A client that records each call; the cluster it finds is gone. */
  const api = {
    find: async (name: string, params: { id: string }) => {
      requests.push(`find ${name} ${params.id}`);
      return undefined;
    },
    call: async (name: string) => {
      requests.push(`call ${name}`);
      return {};
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
  /** The inputs of a resource the program declares after "data". */
  const dupArgs = (overrides: Record<string, unknown> = {}) =>
    args("dup", { nodeId: "node-2", declaredBefore: [{ ...DATA_CLAIM, projectId: "p-1" }], ...overrides });
  const checked = async (olds: Record<string, unknown>, news: Record<string, unknown>) => {
    const { inputs, failures } = await provider.check(olds, news);
    expect(failures).toEqual([]);
    return inputs;
  };
  const failureOf = (operation: Promise<unknown>) =>
    operation.then(
      () => {
        throw new Error("expected a failure");
      },
      (e: Error & { id?: string; properties?: Record<string, unknown>; reasons?: string[] }) => e,
    );

  /** The state an earlier version recorded for "dup" standing by for "data". */
  const standbyState = () => ({
    ...args("dup", { nodeId: "node-2" }),
    declaredBefore: [DATA_CLAIM],
    sizeGb: null,
    verification: "none",
  });

  it("lets check pass a resource declared after the holder, printing why its create will be refused", async () => {
    const inputs = await checked({}, dupArgs());
    expect(inputs.declaredBefore).toEqual([DATA_CLAIM]);
    expect(lines).toEqual([`[vendor-container] VolumeAttachment "dup": ${VOLUME} ${DUPLICATE}`]);
    expect(requests).toEqual([]);
  });

  it("refuses the create of a resource declared after the holder with a plain error, sending nothing", async () => {
    const inputs = await checked({}, dupArgs());
    const error = await failureOf(provider.create({ ...inputs, __provider: "shell" } as never));
    expect(error.message).toBe(`VolumeAttachment "dup": ${VOLUME} ${DUPLICATE}`);
    // No id: the engine records nothing of it.
    expect([error.id, error.properties, error.reasons]).toEqual([undefined, undefined, undefined]);
    expect(requests).toEqual([]);
  });

  it("refuses the later one the same way whatever order the engine checks and creates the two in", async () => {
    await fc.assert(
      fc.asyncProperty(fc.boolean(), async (dupFirst) => {
        const run = new VolumeAttachmentProvider(() => api, new AttachmentClaims());
        const order = dupFirst ? [dupArgs(), args("data")] : [args("data"), dupArgs()];
        const inputs = [];
        for (const news of order) inputs.push((await run.check({}, news)).inputs);
        const dup = inputs.find((i) => i.creationScope === DUP)!;
        const error = await failureOf(run.create(dup));
        expect(error.message).toBe(`VolumeAttachment "dup": ${VOLUME} ${DUPLICATE}`);
        const data = inputs.find((i) => i.creationScope === DATA)!;
        expect(data.declaredBefore).toBeUndefined();
      }),
      { numRuns: 10 },
    );
  });

  it("notes at check a holder in the state as holding, and one to be created as nothing yet", async () => {
    const data = await checked({}, args("data"));
    expect(claims.otherHolder(TARGET, DUP)).toBeUndefined();
    await checked(data, args("data"));
    expect(claims.otherHolder(TARGET, DUP)).toEqual({ scope: DATA, id: ID });
  });

  it("keeps a holder in the state holding when the program declares a new one before it", async () => {
    const state = { ...(await checked({}, args("data"))), sizeGb: null, verification: "none" };
    const first = { scope: "shop/dev/first", nodePoolName: "system", nodeId: "node-3", projectId: "p-1" };
    const news = await checked(state, args("data", { declaredBefore: [first] }));
    // Dropped, so the state records none and the diff finds nothing to do.
    expect(news).toEqual({ ...args("data"), creationScope: DATA });
    expect(diffVolumeAttachment(state, news).changes).toBe(false);
    expect(claims.otherHolder(TARGET, "shop/dev/first")).toEqual({ scope: DATA, id: ID });
  });

  it("refuses the create of another resource while one in the state holds the attachment, sending nothing", async () => {
    const state = { ...(await checked({}, args("data"))), sizeGb: null, verification: "none" };
    await checked(state, args("data"));
    const first = await checked({}, args("first", { nodeId: "node-3" }));
    const error = await failureOf(provider.create(first));
    expect(error.message).toBe(
      `VolumeAttachment "first": ${VOLUME} is already attached by VolumeAttachment "data", another resource of ` +
        `this stack (${ID}): a volume is attached once per cluster, so "first" is not created. Remove one of ` +
        `them; removing "first" changes nothing`,
    );
    expect(error.id).toBeUndefined();
    expect(requests).toEqual([]);
  });

  it("leaves the attachment to the resource that holds it in this run when a removed holder is deleted", async () => {
    // "dup" took the attachment over in this run; "data", removed from the program, is deleted last.
    claims.hold(TARGET, DUP);
    await provider.delete(ID, { ...args("data"), sizeGb: null, verification: "none" });
    expect(lines).toEqual([
      `[vendor-container] VolumeAttachment "data": ${VOLUME} is attached by VolumeAttachment "dup" of this stack ` +
        `(${ID}), not by this resource: nothing to detach`,
    ]);
    expect(requests).toEqual([]);
  });

  it("detaches a holder's attachment when no other resource of the run holds it", async () => {
    await provider.delete(ID, { ...args("data"), sizeGb: null, verification: "none" });
    expect(requests).toEqual(["find getKaas kaas-1"]);
  });

  it("deletes a resource an earlier version recorded standing by without a request", async () => {
    await provider.delete(ID, standbyState());
    expect(lines).toEqual([
      `[vendor-container] VolumeAttachment "dup": stood by for VolumeAttachment "data" and holds nothing of ` +
        `${VOLUME}: nothing to detach`,
    ]);
    expect(requests).toEqual([]);
  });

  it("drops on refresh a resource an earlier version recorded standing by", async () => {
    await expect(provider.read(ID, standbyState())).resolves.toEqual({ id: "", props: {}, inputs: {} });
    expect(lines).toEqual([
      `[vendor-container] VolumeAttachment "dup": holds nothing of ${VOLUME} (VolumeAttachment "data" holds ` +
        "it): dropped from the state",
    ]);
    expect(requests).toEqual([]);
  });

  it("checks such a resource still declared after its holder for a create, which is refused", async () => {
    const state = standbyState();
    const news = await checked(state, dupArgs());
    expect(news.declaredBefore).toEqual([DATA_CLAIM]);
    expect(claims.otherHolder(TARGET, DATA)).toBeUndefined();
    expect(diffVolumeAttachment(state, news).replaces).toEqual(["declaredBefore"]);
    const error = await failureOf(provider.update(ID, state, news));
    expect(error.message).toBe(`VolumeAttachment "dup": ${VOLUME} ${DUPLICATE}`);
    expect(error.id).toBeUndefined();
    expect(requests).toEqual([]);
  });

  it("notes nothing for inputs without creationScope, and they hold their attachment", async () => {
    const inputs = await checked({}, args("data", { creationScope: undefined }));
    expect(claims.otherHolder(TARGET, DUP)).toBeUndefined();
    expect(holderOf(inputs)).toBeNull();
  });
});
