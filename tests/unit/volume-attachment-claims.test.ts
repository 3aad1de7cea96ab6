/**
 * Which VolumeAttachment of a stack holds an attachment that several declare (provider/volumeAttachment/claims.ts):
 * the first the program declares, decided from each resource's own inputs (`declaredBefore`, which the SDK
 * class sets in program order) and state, whatever order the engine calls the provider in. Here: the checked
 * form of `declaredBefore`, the exact messages, the claims of one provider process, and the provider's
 * decisions that need no request (a standby's create, update, refresh and delete; a removed holder's delete).
 */
import fc from "fast-check";
import type { VendorContainerClient } from "../../rest/client";
import { Problems } from "../../provider/common/check";
import { UNKNOWN } from "../../provider/common/unknown";
import {
  AttachmentClaims,
  checkDeclaredBefore,
  claimTargetOf,
  holderOf,
  keptReason,
  leftToHolderLine,
  standbyDeleteLine,
  standbyReason,
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

/** What the provider's standby refusal says, after the resource's name and volume. */
const STANDBY =
  `belongs to VolumeAttachment "data", declared before it in this stack (${ID}); a volume is attached once ` +
  `per cluster. "dup" holds nothing: remove it, or remove "data" and "dup" takes the attachment over`;

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
  it("a standby's names its holder, the attachment and both ways out", () => {
    expect(standbyReason(DUP, DATA_CLAIM, ID)).toBe(STANDBY);
  });

  it("a holder that keeps its attachment names the resource declared before it and what to do", () => {
    expect(keptReason(DATA, { ...DATA_CLAIM, scope: "shop/dev/new" }, ID)).toBe(
      `is declared again, before this resource, by VolumeAttachment "new", which did not take the attachment ` +
        `over (${ID}); "data" keeps it. Declare "new" after "data", or remove one of them`,
    );
  });

  it("a delete that leaves the attachment to another resource says whose it is", () => {
    expect(leftToHolderLine(VOLUME, DATA, ID)).toBe(
      `${VOLUME} is attached by VolumeAttachment "data" of this stack (${ID}), not by this resource: nothing to detach`,
    );
  });

  it("a standby's delete says it holds nothing", () => {
    expect(standbyDeleteLine(VOLUME, DATA)).toBe(
      `stood by for VolumeAttachment "data" and holds nothing of ${VOLUME}: nothing to detach`,
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

  it("answers an outcome already decided at once", async () => {
    claims.hold(TARGET, DATA);
    await expect(claims.outcome(TARGET, DATA, Date.now())).resolves.toBe(true);
    claims.miss(TARGET, DUP);
    await expect(claims.outcome(TARGET, DUP, Date.now())).resolves.toBe(false);
  });

  it("waits for an outcome still to come, through an expect, until it is decided", async () => {
    claims.hold(TARGET, DATA);
    claims.expect(TARGET, DATA);
    const waiting = claims.outcome(TARGET, DATA, Date.now() + 60_000);
    claims.miss(TARGET, DATA);
    await expect(waiting).resolves.toBe(false);
  });

  it("gives up at the deadline with no answer", async () => {
    await expect(claims.outcome(TARGET, DATA, Date.now() + 20)).resolves.toBeUndefined();
  });
});

describe("diff", () => {
  const state = checkVolumeAttachment(
    {},
    { projectId: "p-1", kaasId: "kaas-1", nodePoolName: "system", nodeId: "node-2", volumeUri: VOLUME },
    {},
  ).inputs;

  it("has no change while the resource keeps its place", () => {
    expect(diffVolumeAttachment(state, { ...state, declaredBefore: undefined })).toMatchObject({
      changes: false,
    });
  });

  it.each<[string, unknown, unknown]>([
    ["stands by", undefined, [DATA_CLAIM]],
    ["takes the attachment over", [DATA_CLAIM], undefined],
    ["stands by for another holder", [DATA_CLAIM], [{ ...DATA_CLAIM, scope: "shop/dev/other" }]],
    ["may change (a preview)", undefined, UNKNOWN],
  ])("updates in place when the resource %s", (_label, before, after) => {
    expect(
      diffVolumeAttachment({ ...state, declaredBefore: before }, { ...state, declaredBefore: after }),
    ).toEqual({ changes: true, replaces: [], updates: ["declaredBefore"], deleteBeforeReplace: true });
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

  it("lets check pass a resource declared after the holder, printing why it will hold nothing", async () => {
    const inputs = await checked({}, dupArgs());
    expect(inputs.declaredBefore).toEqual([DATA_CLAIM]);
    expect(lines).toEqual([`[vendor-container] VolumeAttachment "dup": ${VOLUME} ${STANDBY}`]);
    expect(requests).toEqual([]);
  });

  it("records a standby at create holding nothing, fails naming the holder, and sends nothing", async () => {
    const inputs = await checked({}, dupArgs());
    const error = await failureOf(provider.create({ ...inputs, __provider: "shell" } as never));
    expect(error.message).toBe(`VolumeAttachment "dup": ${VOLUME} ${STANDBY}`);
    expect(error.reasons).toEqual([error.message]);
    expect(error.id).toBe(ID);
    expect(error.properties).toEqual({
      ...args("dup", { nodeId: "node-2" }),
      declaredBefore: [DATA_CLAIM],
      sizeGb: null,
      verification: "none",
      __provider: "shell",
    });
    expect(requests).toEqual([]);
  });

  it("refuses a standby the same way whatever order the engine checks and creates the two in", async () => {
    await fc.assert(
      fc.asyncProperty(fc.boolean(), async (dupFirst) => {
        const run = new VolumeAttachmentProvider(() => api, new AttachmentClaims());
        const order = dupFirst ? [dupArgs(), args("data")] : [args("data"), dupArgs()];
        const inputs = [];
        for (const news of order) inputs.push((await run.check({}, news)).inputs);
        const dup = inputs.find((i) => i.creationScope === DUP)!;
        const error = await failureOf(run.create(dup));
        expect(error.message).toBe(`VolumeAttachment "dup": ${VOLUME} ${STANDBY}`);
        const data = inputs.find((i) => i.creationScope === DATA)!;
        expect(data.declaredBefore).toBeUndefined();
      }),
      { numRuns: 10 },
    );
  });

  it("refuses a standby again at update with the same message, recording the holder it now stands by for", async () => {
    const state = { ...(await checked({}, dupArgs())), sizeGb: null, verification: "none" };
    const other = { scope: "shop/dev/other", nodePoolName: "workers", nodeId: "node-7" };
    const news = await checked(state, dupArgs({ declaredBefore: [{ ...other, projectId: "p-1" }] }));
    const error = await failureOf(provider.update(ID, state, news));
    expect(error.message).toBe(
      `VolumeAttachment "dup": ${VOLUME} belongs to VolumeAttachment "other", declared before it in this stack ` +
        `(${ID}); a volume is attached once per cluster. "dup" holds nothing: remove it, or remove "other" and ` +
        `"dup" takes the attachment over`,
    );
    expect(error.properties?.declaredBefore).toEqual([other]);
    expect(requests).toEqual([]);
  });

  it("keeps a standby's state on refresh and detaches nothing on delete", async () => {
    const state = { ...(await checked({}, dupArgs())), sizeGb: null, verification: "none" };
    await expect(provider.read(ID, state)).resolves.toEqual({ id: ID, props: state });
    lines.length = 0;
    await provider.delete(ID, state);
    expect(lines).toEqual([
      `[vendor-container] VolumeAttachment "dup": stood by for VolumeAttachment "data" and holds nothing of ` +
        `${VOLUME}: nothing to detach`,
    ]);
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
    claims.expect(TARGET, DUP);
    await provider.delete(ID, { ...args("data"), sizeGb: null, verification: "none" });
    expect(requests).toEqual(["find getKaas kaas-1"]);
  });

  it("notes at check a holder in the state that stays first as holding, and one to be created as to come", async () => {
    const data = await checked({}, args("data"));
    await checked(data, args("data"));
    expect(claims.otherHolder(TARGET, DUP)).toEqual({ scope: DATA, id: ID });
    const fresh = new AttachmentClaims();
    await new VolumeAttachmentProvider(() => api, fresh).check({}, args("data"));
    expect(fresh.otherHolder(TARGET, DUP)).toBeUndefined();
  });

  it("stands a holder down once the resource now declared first holds the attachment", async () => {
    const state = { ...(await checked({}, args("data"))), sizeGb: null, verification: "none" };
    const first = { scope: "shop/dev/first", nodePoolName: "system", nodeId: "node-3" };
    const news = await checked(state, args("data", { declaredBefore: [{ ...first, projectId: "p-1" }] }));
    const standing = failureOf(provider.update(ID, state, news));
    claims.hold(TARGET, "shop/dev/first");
    const error = await standing;
    expect(error.message).toBe(
      `VolumeAttachment "data": ${VOLUME} belongs to VolumeAttachment "first", declared before it in this stack ` +
        `(${ID}); a volume is attached once per cluster. "data" holds nothing: remove it, or remove "first" and ` +
        `"data" takes the attachment over`,
    );
    expect(error.properties?.declaredBefore).toEqual([first]);
    expect(claims.otherHolder(TARGET, "shop/dev/first")).toBeUndefined();
    expect(requests).toEqual([]);
  });

  it("keeps a holder's attachment when the resource now declared first does not take it over", async () => {
    const state = { ...(await checked({}, args("data"))), sizeGb: null, verification: "none" };
    const first = { scope: "shop/dev/new", nodePoolName: "system", nodeId: "node-3" };
    const news = await checked(state, args("data", { declaredBefore: [{ ...first, projectId: "p-1" }] }));
    const standing = failureOf(
      provider.update(ID, { ...state, __provider: "old" }, { ...news, __provider: "new" } as typeof news),
    );
    claims.miss(TARGET, "shop/dev/new");
    const error = await standing;
    expect(error.message).toBe(
      `VolumeAttachment "data": ${VOLUME} is declared again, before this resource, by VolumeAttachment "new", ` +
        `which did not take the attachment over (${ID}); "data" keeps it. Declare "new" after "data", or remove ` +
        "one of them",
    );
    // The state stays the holder's, so the next run tries again.
    expect(error.properties).toEqual({ ...state, __provider: "new" });
    expect(claims.otherHolder(TARGET, "shop/dev/new")).toEqual({ scope: DATA, id: ID });
  });

  it("keeps a holder's attachment when nothing decides by its update deadline", async () => {
    const state = { ...(await checked({}, args("data"))), sizeGb: null, verification: "none" };
    const first = { scope: "shop/dev/new", nodePoolName: "system", nodeId: "node-3" };
    const news = await checked(
      state,
      args("data", { declaredBefore: [{ ...first, projectId: "p-1" }], timeouts: { update: "1s" } }),
    );
    const error = await failureOf(provider.update(ID, state, news));
    expect(error.message).toMatch(/^VolumeAttachment "data": .* "data" keeps it\./);
  });

  it("notes nothing for inputs without creationScope, and they hold their attachment", async () => {
    const inputs = await checked({}, args("data", { creationScope: undefined }));
    expect(claims.otherHolder(TARGET, DUP)).toBeUndefined();
    expect(holderOf(inputs)).toBeNull();
  });
});
