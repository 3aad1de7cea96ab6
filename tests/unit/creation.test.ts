/**
 * The pure parts of idempotent create: the creation token (a digest of the resource's scope and the state
 * backend, never of an argument), `check` keeping a stored token, the backend identity, the tags a request
 * carries, how an object found by the creation tag is judged (resume, skip, refuse) and the lookup that
 * finds such objects, driven against a scripted list endpoint under each reading of the filter grammar.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { KAAS_BACKUP } from "../../provider/kaasBackup/descriptor";
import type { Inputs } from "../../provider/common/check";
import { backendIdentity, normaliseBackendUrl, resetBackendIdentity } from "../../provider/common/context";
import { checkArguments, type ArgumentTable } from "../../provider/common/arguments";
import { checkKind } from "../../provider/common/describedProvider";
import {
  findCreated,
  judgeFound,
  judgeLookup,
  safeInFilter,
  type FoundVerdict,
  type ListSource,
  type ServiceObject,
} from "../../provider/common/lifecycle";
import {
  carriesCreationTag,
  creationTokenOf,
  ownerOf,
  ownerTag,
  userTags,
  wireTags,
} from "../../provider/common/resource";
import { UNKNOWN } from "../../provider/common/unknown";
import { KAAS } from "../../provider/kaas/descriptor";
import { REGISTRY } from "../../provider/registry/descriptor";
import { VendorApiError } from "../../rest/errors";
import { stateNamesOf } from "../../rest/waiter";
import { expectedCreationTag, expectedCreationToken } from "../support/creation-token";
import { baselineInputs, kaasInputsArb } from "./support/kaas-fixtures";

/** Progress lines printed during a test. */
let lines: string[];
beforeEach(() => {
  lines = [];
  jest.spyOn(console, "log").mockImplementation((line: unknown) => {
    lines.push(String(line));
  });
});
afterEach(() => {
  jest.restoreAllMocks();
});

describe("creationTokenOf", () => {
  it.each<[string, string, string]>([
    // The first 20 hex digits of sha256('["creation/v2","shop/dev/prod",""]'), and so on.
    ["shop/dev/prod", "", "f5ffb17cce45b1c4b31e"],
    ["shop/dev/prod", "s3://bucket", "5fe3ee6c67cc1d621fa6"],
    ["shop/dev/prod", "https://api.example.com", "9bafadcf647e23fccbd3"],
    ["shop/dev/prod-2", "", "11c2b4af207ede984622"],
    ["", "", "d9fc9b9fc167bdfa00d5"],
  ])("is pinned for scope %j and backend %j", (scope, backend, token) => {
    expect(expectedCreationToken(scope, backend)).toBe(token);
    expect(creationTokenOf({ creationScope: scope }, backend)).toBe(token);
  });

  it("takes no backend as the empty one, and no scope as the empty one", () => {
    expect(creationTokenOf({ creationScope: "shop/dev/prod" })).toBe("f5ffb17cce45b1c4b31e");
    expect(creationTokenOf({})).toBe("d9fc9b9fc167bdfa00d5");
  });

  // Every argument of a Kaas changed in turn, the identity's secret included: the token is stored in a tag
  // that anyone who can list the objects reads.
  it.each<[string, unknown]>([
    ["projectId", "proj-2"],
    ["name", "other"],
    ["location", "ITMI-Milano"],
    ["tags", ["x"]],
    ["nodeCidr", { address: "10.99.0.0/16", name: "n" }],
    ["podCidr", "100.65.0.0/16"],
    ["securityGroupName", "sg-2"],
    ["kubernetesVersion", "1.34.0"],
    ["nodePools", []],
    ["ha", true],
    ["billingPeriod", "Year"],
    ["identity", { clientId: "client-1", clientSecret: "a-different-secret" }],
    ["identity", undefined],
    ["autoscalerProfile", { expander: "random" }],
    ["timeouts", { create: "2h" }],
    ["adoptId", "kaas-9"],
    ["adoptFromScope", "shop/dev/old"],
    ["creationToken", "0123456789abcdef0123"],
  ])("does not change when %s is %j", (key, value) => {
    const inputs: Inputs = { ...baselineInputs(), [key]: value };
    expect(creationTokenOf(inputs, "s3://bucket")).toBe("5fe3ee6c67cc1d621fa6");
  });

  it("depends on nothing but the scope and the backend, for any valid Kaas arguments", () => {
    fc.assert(
      fc.property(kaasInputsArb, fc.constantFrom("", "s3://bucket", "file:///tmp/x"), (inputs, backend) => {
        const scope = typeof inputs.creationScope === "string" ? inputs.creationScope : "";
        expect(creationTokenOf(inputs, backend)).toBe(expectedCreationToken(scope, backend));
      }),
    );
  });

  it("is unknown while the scope is unknown, and known while any argument is", () => {
    expect(creationTokenOf({ creationScope: UNKNOWN }, "s3://bucket")).toBe(UNKNOWN);
    expect(creationTokenOf({ ...baselineInputs(), location: UNKNOWN, name: UNKNOWN })).toBe(
      "f5ffb17cce45b1c4b31e",
    );
  });
});

describe("checkArguments and the creation token", () => {
  const table: ArgumentTable<"name" | "creationScope" | "creationToken"> = {
    name: { change: "update" },
    creationScope: { change: "ignore" },
    creationToken: { change: "ignore" },
  };
  const news = { name: "prod", creationScope: "shop/dev/prod" };
  const token = (olds: Inputs, backend?: string) =>
    checkArguments<Inputs>(table, olds, news, { backend }).inputs.creationToken;

  it.each<[string, Inputs, string | undefined, string]>([
    ["no old inputs (a create)", {}, undefined, "f5ffb17cce45b1c4b31e"],
    ["no old inputs, another backend", {}, "s3://bucket", "5fe3ee6c67cc1d621fa6"],
    [
      "old inputs with a token (a resource in the state)",
      { creationToken: "0123456789abcdef0123" },
      undefined,
      "0123456789abcdef0123",
    ],
    [
      "old inputs with a token, another backend",
      { creationToken: "0123456789abcdef0123" },
      "s3://bucket",
      "0123456789abcdef0123",
    ],
    [
      "old inputs of another scope with a token",
      { creationScope: "x/y/z", creationToken: "ffff" },
      undefined,
      "ffff",
    ],
    [
      "old inputs without a token",
      { name: "prod", creationScope: "shop/dev/prod" },
      undefined,
      "f5ffb17cce45b1c4b31e",
    ],
    ["old inputs with an empty token", { creationToken: "" }, undefined, "f5ffb17cce45b1c4b31e"],
    [
      "old inputs with a token that is not a string",
      { creationToken: 42 },
      "s3://bucket",
      "5fe3ee6c67cc1d621fa6",
    ],
  ])("with %s sets %s", (_title, olds, backend, expected) => {
    expect(token(olds, backend)).toBe(expected);
  });

  it("replaces a token in the new inputs when the old inputs carry none", () => {
    const result = checkArguments<Inputs>(table, {}, { ...news, creationToken: "ffff" }, {});
    expect(result.inputs).toStrictEqual({ ...news, creationToken: "f5ffb17cce45b1c4b31e" });
  });

  it("sets no token when the kind has none", () => {
    const result = checkArguments<Inputs>(table, {}, news, {}, { creationToken: false });
    expect(result).toStrictEqual({ inputs: news, failures: [] });
  });

  it.each([
    ["Kaas", () => checkKind(KAAS, { creationToken: "kept-token" }, baselineInputs(), { backend: "s3://b" })],
    [
      "KaasBackup",
      () =>
        checkKind(
          KAAS_BACKUP,
          { creationToken: "kept-token" },
          { projectId: "p", kaasId: "k-1", name: "n", location: "ITBG-Bergamo", creationScope: "s/t/u" },
          {},
        ),
    ],
    [
      "Registry",
      () =>
        checkKind(
          REGISTRY,
          { creationToken: "kept-token" },
          {
            projectId: "p",
            name: "images",
            location: "ITBG-Bergamo",
            adminUsername: "ops",
            size: "Small",
            billingPeriod: "Month",
            creationScope: "s/t/u",
          },
          {},
        ),
    ],
  ])("%s keeps the token of its old inputs", (_kind, run) => {
    const { inputs, failures } = run();
    expect(failures).toEqual([]);
    expect(inputs.creationToken).toBe("kept-token");
  });
});

describe("normaliseBackendUrl", () => {
  it.each<[string, string]>([
    ["postgres://user:pw@host:5432/db?sslmode=disable", "postgres://host:5432/db"],
    ["file:///tmp/x/", "file:///tmp/x"],
    ["file:///tmp/x", "file:///tmp/x"],
    ["s3://bucket", "s3://bucket"],
    ["s3://bucket/prefix/?region=eu-west-1&awssdk=v2", "s3://bucket/prefix"],
    ["https://api.example.com", "https://api.example.com"],
    ["https://api.example.com/", "https://api.example.com"],
    ["https://token@api.example.com/org#fragment", "https://api.example.com/org"],
    ["HTTPS://api.example.com", "https://api.example.com"],
    ["azblob://state-container", "azblob://state-container"],
    ["gs://bucket/a/b", "gs://bucket/a/b"],
    ["not a url", "not a url"],
    ["", ""],
  ])("reduces %j to %j", (url, expected) => {
    expect(normaliseBackendUrl(url)).toBe(expected);
  });
});

describe("backendIdentity", () => {
  let home: string;
  const saved = { url: process.env.PULUMI_BACKEND_URL, home: process.env.PULUMI_HOME };

  beforeEach(() => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-home-"));
    delete process.env.PULUMI_BACKEND_URL;
    process.env.PULUMI_HOME = home;
    resetBackendIdentity();
  });
  afterEach(() => {
    fs.rmSync(home, { recursive: true, force: true });
    for (const [key, value] of [
      ["PULUMI_BACKEND_URL", saved.url],
      ["PULUMI_HOME", saved.home],
    ] as const) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    resetBackendIdentity();
  });

  const login = (credentials: string) => fs.writeFileSync(path.join(home, "credentials.json"), credentials);

  it("is PULUMI_BACKEND_URL, reduced, before any login", () => {
    process.env.PULUMI_BACKEND_URL = "  postgres://user:pw@db:5432/state?sslmode=disable ";
    login(JSON.stringify({ current: "s3://other" }));
    expect(backendIdentity()).toBe("postgres://db:5432/state");
  });

  it("is the current login of $PULUMI_HOME/credentials.json, reduced, without PULUMI_BACKEND_URL", () => {
    login(JSON.stringify({ current: "https://user@api.example.com/", accessTokens: { x: "secret" } }));
    expect(backendIdentity()).toBe("https://api.example.com");
  });

  it("takes an empty PULUMI_BACKEND_URL for none", () => {
    process.env.PULUMI_BACKEND_URL = " ";
    login(JSON.stringify({ current: "s3://bucket" }));
    expect(backendIdentity()).toBe("s3://bucket");
  });

  it.each<[string, string | undefined]>([
    ["no credentials file", undefined],
    ["a credentials file that is not JSON", "{"],
    ["a credentials file without a current login", "{}"],
    ["a current login that is not a string", '{"current": 7}'],
  ])("is empty with %s", (_title, credentials) => {
    if (credentials !== undefined) login(credentials);
    expect(backendIdentity()).toBe("");
  });

  it("is read once per process until reset", () => {
    process.env.PULUMI_BACKEND_URL = "s3://first";
    expect(backendIdentity()).toBe("s3://first");
    process.env.PULUMI_BACKEND_URL = "s3://second";
    expect(backendIdentity()).toBe("s3://first");
    resetBackendIdentity();
    expect(backendIdentity()).toBe("s3://second");
  });
});

describe("the tags of a request", () => {
  const inputs = { tags: ["team-a"], creationScope: "shop/dev/prod", creationToken: "f5ffb17cce45b1c4b31e" };

  it.each<[string, Parameters<typeof wireTags>[0], boolean, string[]]>([
    ["a create", inputs, true, ["team-a", "pulumi-ct-f5ffb17cce45b1c4b31e", "pulumi-ct-owner:shop/dev/prod"]],
    ["an update", inputs, false, ["team-a", "pulumi-ct-owner:shop/dev/prod"]],
    [
      "a create without user tags",
      { ...inputs, tags: undefined },
      true,
      ["pulumi-ct-f5ffb17cce45b1c4b31e", "pulumi-ct-owner:shop/dev/prod"],
    ],
    [
      "a create without a scope",
      { ...inputs, creationScope: undefined },
      true,
      ["team-a", "pulumi-ct-f5ffb17cce45b1c4b31e"],
    ],
    ["an update with an empty scope", { ...inputs, creationScope: "" }, false, ["team-a"]],
    [
      "a create without a token",
      { ...inputs, creationToken: undefined },
      true,
      ["team-a", "pulumi-ct-owner:shop/dev/prod"],
    ],
  ])("of %s", (_title, given, creating, expected) => {
    expect(wireTags(given, creating)).toEqual(expected);
  });

  it("does not change the declared tags", () => {
    const declared = { ...inputs, tags: ["team-a"] };
    wireTags(declared, true);
    expect(declared.tags).toEqual(["team-a"]);
  });

  it.each<[string[] | null | undefined, string | undefined, boolean, string[]]>([
    [["team-a", "pulumi-ct-owner:shop/dev/prod"], "shop/dev/prod", false, ["team-a"]],
    [["pulumi-ct-f5ffb17cce45b1c4b31e", "pulumi-ct-owner:a/b/c"], "a/b/c", true, []],
    [["pulumi-ct-0123"], undefined, true, []],
    [["team-a"], undefined, false, ["team-a"]],
    [[], undefined, false, []],
    [null, undefined, false, []],
    [undefined, undefined, false, []],
  ])("live tags %j: owner %j, carrying a creation tag %j, user tags %j", (tags, owner, carrying, user) => {
    expect(ownerOf(tags)).toBe(owner);
    expect(carriesCreationTag(tags)).toBe(carrying);
    expect(userTags(tags)).toEqual(user);
  });

  it.each<[string | undefined, string | undefined]>([
    ["shop/dev/prod", "pulumi-ct-owner:shop/dev/prod"],
    ["", undefined],
    [undefined, undefined],
  ])("the owner tag of scope %j is %j", (creationScope, expected) => {
    expect(ownerTag({ creationScope })).toBe(expected);
  });
});

const NOW = Date.parse("2026-06-01T12:00:00Z");
const TIMEOUT = 40 * 60_000;
const ago = (minutes: number) => new Date(NOW - minutes * 60_000).toISOString();

/** A found object: its state, and its creation time in `metadata` or only in `status`. */
function found(
  id: string,
  state: string | undefined,
  created?: string,
  where: "metadata" | "status" = "metadata",
): ServiceObject {
  return {
    metadata: { id, tags: ["pulumi-ct-0123"], ...(where === "metadata" ? { creationDate: created } : {}) },
    status:
      state === undefined ? undefined : { state, ...(where === "status" ? { creationDate: created } : {}) },
  };
}

const OLDER = "was created longer ago than the create timeout (40m)";
const UNDATED = "the service does not say when it was created";

describe("judgeFound", () => {
  it.each<[string, ServiceObject, FoundVerdict]>([
    ["InCreation, created 5 minutes ago", found("k", "InCreation", ago(5)), { verdict: "resume" }],
    ["Creating, of unknown age", found("k", "Creating"), { verdict: "resume" }],
    [
      "Provisioning, dated in status only",
      found("k", "Provisioning", ago(1), "status"),
      { verdict: "resume" },
    ],
    ["Updating, created 39 minutes ago", found("k", "Updating", ago(39)), { verdict: "resume" }],
    [
      "InCreation, created 2 hours ago",
      found("k", "InCreation", ago(120)),
      { verdict: "refuse", why: `it is InCreation and ${OLDER}` },
    ],
    ["Active, created 10 minutes ago", found("k", "Active", ago(10)), { verdict: "resume" }],
    ["Active, created exactly the create timeout ago", found("k", "Active", ago(40)), { verdict: "resume" }],
    [
      "Active, created 1 ms more than the create timeout ago",
      found("k", "Active", new Date(NOW - TIMEOUT - 1).toISOString()),
      { verdict: "refuse", why: `it is Active and ${OLDER}` },
    ],
    [
      "Active, created 2 hours ago",
      found("k", "Active", ago(120)),
      { verdict: "refuse", why: `it is Active and ${OLDER}` },
    ],
    ["Active, dated in status only, young", found("k", "Active", ago(5), "status"), { verdict: "resume" }],
    [
      "Active, of unknown age",
      found("k", "Active"),
      { verdict: "refuse", why: `it is Active and ${UNDATED}` },
    ],
    [
      "Active, with an unreadable date",
      found("k", "Active", "yesterday"),
      { verdict: "refuse", why: `it is Active and ${UNDATED}` },
    ],
    [
      "Failed, created 5 minutes ago",
      found("k", "Failed", ago(5)),
      { verdict: "skip", why: "it ended Failed" },
    ],
    ["Failed, of unknown age", found("k", "Failed"), { verdict: "skip", why: "it ended Failed" }],
    ["Error", found("k", "Error", ago(120)), { verdict: "skip", why: "it ended Error" }],
    ["failed in lower case", found("k", "failed", ago(5)), { verdict: "skip", why: "it ended failed" }],
    [
      "Deleting, created 2 hours ago",
      found("k", "Deleting", ago(120)),
      { verdict: "skip", why: "it is Deleting" },
    ],
    [
      "Deleting, created 5 minutes ago",
      found("k", "Deleting", ago(5)),
      { verdict: "skip", why: "it is Deleting" },
    ],
    ["Deleting, of unknown age", found("k", "Deleting"), { verdict: "skip", why: "it is Deleting" }],
    [
      "Deleted, created 5 minutes ago",
      found("k", "Deleted", ago(5)),
      { verdict: "skip", why: "it is Deleted" },
    ],
    [
      "without a state, of unknown age",
      found("k", undefined),
      { verdict: "refuse", why: `it is in an unknown state and ${UNDATED}` },
    ],
  ])("%s", (_title, object, verdict) => {
    expect(judgeFound(object, { now: NOW, createTimeoutMs: TIMEOUT })).toEqual(verdict);
  });

  it.each<[string, ServiceObject, FoundVerdict]>([
    ["INCREATION in capitals, young", found("k", "INCREATION", ago(5)), { verdict: "resume" }],
    ["ERROR in capitals", found("k", "ERROR", ago(5)), { verdict: "skip", why: "it ended ERROR" }],
    [
      "Disabled, a failure state",
      found("k", "Disabled", ago(5)),
      { verdict: "skip", why: "it ended Disabled" },
    ],
    ["deleting in lower case", found("k", "deleting", ago(5)), { verdict: "skip", why: "it is deleting" }],
    ["DELETED in capitals", found("k", "DELETED", ago(5)), { verdict: "skip", why: "it is DELETED" }],
    [
      "an unknown state, of unknown age",
      found("k", "Starting"),
      { verdict: "refuse", why: `it is Starting and ${UNDATED}` },
    ],
  ])("judges %s by the api-notes' names in any spelling", (_title, object, verdict) => {
    expect(judgeFound(object, { now: NOW, createTimeoutMs: TIMEOUT })).toEqual(verdict);
  });

  it.each<[string, ServiceObject, FoundVerdict]>([
    ["a mapped transitional state, of unknown age", found("k", "Starting"), { verdict: "resume" }],
    ["a mapped deleting state", found("k", "REMOVING", ago(5)), { verdict: "skip", why: "it is REMOVING" }],
    ["a mapped deleted state", found("k", "Removed", ago(5)), { verdict: "skip", why: "it is Removed" }],
    ["a mapped failed state", found("k", "Broken", ago(5)), { verdict: "skip", why: "it ended Broken" }],
  ])("judges %s by the names of vendor:stateNames", (_title, object, verdict) => {
    const stateNames = stateNamesOf({
      Starting: "transitional",
      Removing: "deleting",
      Removed: "deleted",
      Broken: "failed",
    });
    expect(judgeFound(object, { now: NOW, createTimeoutMs: TIMEOUT, stateNames })).toEqual(verdict);
  });

  it("prefers the metadata creation date to the status one", () => {
    const object: ServiceObject = {
      metadata: { id: "k", creationDate: ago(120) },
      status: { state: "Active", creationDate: ago(5) },
    };
    expect(judgeFound(object, { now: NOW, createTimeoutMs: TIMEOUT })).toEqual({
      verdict: "refuse",
      why: `it is Active and ${OLDER}`,
    });
  });
});

describe("judgeLookup", () => {
  const TAG = "pulumi-ct-0123456789abcdef0123";
  const OWNER = "pulumi-ct-owner:shop/dev/prod";
  /** An object found by the lookup: `carrying` the creation tag, or only the owner tag (recorded in a state). */
  const seen = (id: string, state: string | undefined, created?: string, carrying = true): ServiceObject => {
    const object = found(id, state, created);
    return { ...object, metadata: { ...object.metadata, tags: carrying ? [TAG, OWNER] : [OWNER] } };
  };
  const args = {
    what: 'Kaas "prod"',
    noun: "cluster",
    tag: TAG,
    owner: OWNER,
    tracked: null,
    now: NOW,
    createTimeoutMs: TIMEOUT,
  };
  const pick = (objects: ServiceObject[], tracked: string | null | "unknown" = null) =>
    judgeLookup(objects, { ...args, tracked: tracked === "unknown" ? undefined : tracked })?.metadata.id;

  it.each<[string, ServiceObject[], string | undefined]>([
    ["nothing found", [], undefined],
    ["one still provisioning", [seen("k-1", "InCreation", ago(2))], "k-1"],
    [
      "one provisioning before a younger settled one",
      [seen("k-1", "Active", ago(1)), seen("k-2", "InCreation", ago(30))],
      "k-2",
    ],
    [
      "the youngest of two settled ones",
      [seen("k-1", "Active", ago(30)), seen("k-2", "Active", ago(5)), seen("k-3", "Active", ago(20))],
      "k-2",
    ],
    [
      "a resumable one next to one that alone would be refused",
      [seen("k-1", "Active", ago(120)), seen("k-2", "Active", ago(5))],
      "k-2",
    ],
    ["only failed ones", [seen("k-1", "Failed", ago(5)), seen("k-2", "Error")], undefined],
  ])("with %s picks %j", (_title, objects, expected) => {
    expect(pick(objects)).toBe(expected);
  });

  it("never resumes the object the state tracks, whatever tags it carries: the create is its replacement", () => {
    expect(pick([seen("kaas-0001", "Active", ago(2))], "kaas-0001")).toBeUndefined();
    expect(
      pick([seen("kaas-0001", "Active", ago(2)), seen("kaas-0002", "InCreation", ago(1))], "kaas-0001"),
    ).toBe("kaas-0002");
    expect(lines).toEqual([]);
  });

  it("in a replacement, never resumes an object carrying the tag that is older than the object it replaces", () => {
    // A replacement killed after the engine recorded its new object (kaas-0002) leaves the replaced one
    // (kaas-0001, its tag never released) in the state for deletion: resumed by the next replacement, the
    // engine would delete it as the replaced object.
    const older = seen("kaas-0001", "Active", ago(9));
    const tracked = seen("kaas-0002", "Active", ago(4), false);
    expect(pick([older, tracked], "kaas-0002")).toBeUndefined();
    expect(lines).toEqual([
      expect.stringContaining(
        "cluster kaas-0001 (Active, created 2026-06-01T11:51:00.000Z) carries this resource's creation tag but it " +
          "was created before kaas-0002, which this create replaces: not resumed",
      ),
    ]);
    // One younger than the replaced object is an interrupted create of this replacement, resumed as before.
    expect(pick([seen("kaas-0003", "InCreation", ago(1)), tracked], "kaas-0002")).toBe("kaas-0003");
    // Not a replacement, or ages unknown: judged as before.
    expect(pick([older])).toBe("kaas-0001");
    expect(pick([seen("kaas-0001", "InCreation", undefined), tracked], "kaas-0002")).toBe("kaas-0001");
  });

  it("refuses an object naming the resource as owner that the state does not track, naming it and adoptId", () => {
    expect(() => pick([seen("kaas-0001", "Active", ago(3), false)])).toThrow(
      new Error(
        'Kaas "prod": found cluster kaas-0001 (Active, created 2026-06-01T11:57:00.000Z) naming this resource ' +
          `as its owner (tag ${OWNER}), but this stack's state does not track it: it was removed from the ` +
          "state (pulumi state delete), the state was restored from an older copy, or another state backend holds a stack of the same name. Nothing was created. If " +
          'it is this resource\'s cluster, set adoptId: "kaas-0001" to track it again; otherwise delete it.',
      ),
    );
  });

  it("says so when the state could not be read to tell, and names every other object it found", () => {
    expect(() =>
      pick(
        [seen("kaas-0001", "Active", undefined, false), seen("kaas-0002", "InCreation", ago(1))],
        "unknown",
      ),
    ).toThrow(
      new Error(
        'Kaas "prod": found cluster kaas-0001 (Active, creation time unknown) naming this resource as its ' +
          `owner (tag ${OWNER}), but this stack's state does not track it: it was removed from the state ` +
          "(pulumi state delete), the state was restored from an older copy, or another state backend holds a stack of the same name (the state could not be read " +
          'to tell). Nothing was created. If it is this resource\'s cluster, set adoptId: "kaas-0001" to ' +
          "track it again; otherwise delete it. Also found: kaas-0002 (InCreation, created " +
          "2026-06-01T11:59:00.000Z).",
      ),
    );
  });

  it("in a replacement, names an untracked leftover in a line and makes a new object", () => {
    expect(
      pick([seen("kaas-0001", "Active", ago(90), false), seen("kaas-0003", "Active", ago(9))], "kaas-0003"),
    ).toBe(undefined);
    expect(lines).toEqual([
      '[vendor-container] Kaas "prod": cluster kaas-0001 (Active, created 2026-06-01T10:30:00.000Z) also names ' +
        "this resource as its owner but this stack's state does not track it: left alone; delete it if no " +
        "stack tracks it",
    ]);
  });

  it("names each failed one in a line and leaves it alone", () => {
    expect(
      pick([seen("k-1", "Failed", ago(10)), seen("k-2", "InCreation", ago(1)), seen("k-3", "Error")]),
    ).toBe("k-2");
    expect(lines).toEqual([
      '[vendor-container] Kaas "prod": cluster k-1 (Failed, created 2026-06-01T11:50:00.000Z) carries this ' +
        "resource's creation tag but it ended Failed: not resumed; delete it if no stack tracks it",
      '[vendor-container] Kaas "prod": cluster k-3 (Error, creation time unknown) carries this ' +
        "resource's creation tag but it ended Error: not resumed; delete it if no stack tracks it",
    ]);
  });

  it("refuses a settled one older than the create timeout, saying how to adopt it", () => {
    expect(() => pick([seen("kaas-0007", "Active", "2026-06-01T10:00:00Z")])).toThrow(
      new Error(
        'Kaas "prod": found cluster kaas-0007 (Active, created 2026-06-01T10:00:00.000Z) carrying this ' +
          `resource's creation tag ${TAG}, but nothing shows it is an interrupted create of this stack: it is ` +
          "Active and was created longer ago than the create timeout (40m). It is not taken over and nothing " +
          'was created. If it is this resource\'s cluster, set adoptId: "kaas-0007" to adopt it; otherwise ' +
          "delete it, or remove that tag from it.",
      ),
    );
    expect(lines).toEqual([]);
  });

  it("refuses one of unknown state and age, naming both as unknown", () => {
    expect(() => pick([seen("kaas-0008", undefined)])).toThrow(
      new Error(
        'Kaas "prod": found cluster kaas-0008 (state unknown, creation time unknown) carrying this ' +
          `resource's creation tag ${TAG}, but nothing shows it is an interrupted create of this stack: it is ` +
          "in an unknown state and the service does not say when it was created. It is not taken over and " +
          'nothing was created. If it is this resource\'s cluster, set adoptId: "kaas-0008" to adopt it; ' +
          "otherwise delete it, or remove that tag from it.",
      ),
    );
  });

  it("names the failed ones before refusing the first refused one", () => {
    expect(() =>
      pick([seen("k-1", "Failed", ago(10)), seen("k-2", "Active", ago(90)), seen("k-3", "Active", ago(100))]),
    ).toThrow('set adoptId: "k-2" to adopt it');
    expect(lines).toEqual([
      expect.stringContaining("cluster k-1 (Failed, created 2026-06-01T11:50:00.000Z)"),
    ]);
  });
});

describe("safeInFilter", () => {
  it.each<[string, boolean]>([
    ["prod", true],
    ["prod-blue_1.2", true],
    ["with space", true],
    ["pulumi-ct-owner:shop/dev/prod", true],
    ["", true],
    ["prod;blue", false],
    ["prod(blue", false],
    ["prod)blue", false],
    ["prod,blue", false],
    ['prod"blue', false],
    ["prod\\blue", false],
  ])("%j: %s", (value, safe) => {
    expect(safeInFilter(value)).toBe(safe);
  });
});

/**
 * A scripted list endpoint: each call records its filter and answers under one reading of the filter
 * grammar: `membership` (eq matches an element of an array), `whole` (eq compares the whole array),
 * `ignored` (every object), `refused` (400 to any filter); `nameRefused` accepts the tag filter and refuses
 * the name filter.
 */
function scriptedList(
  objects: (ServiceObject & { metadata: { name?: string } })[],
  reading: "membership" | "whole" | "ignored" | "refused" | "nameRefused",
) {
  const calls: (string | null)[] = [];
  const refuse = (filter: string) =>
    new VendorApiError({ kind: "http", method: "GET", path: `/kaas?filter=${filter}`, status: 400 });
  const list: ListSource<ServiceObject> = async function* (filter) {
    calls.push(filter ?? null);
    if (filter === undefined || reading === "ignored") {
      yield* objects;
      return;
    }
    const [, field, literal] = /^metadata\.(tags|name):eq\((.*)\)$/.exec(filter)!;
    if (reading === "refused" || (reading === "nameRefused" && field === "name")) throw refuse(filter);
    const value = JSON.parse(literal) as string;
    yield* objects.filter((o) =>
      field === "name"
        ? o.metadata.name === value
        : reading === "whole"
          ? JSON.stringify(o.metadata.tags ?? []) === JSON.stringify([value])
          : (o.metadata.tags ?? []).includes(value),
    );
  };
  return { calls, list };
}

describe("findCreated", () => {
  const TAG = expectedCreationTag("shop/dev/prod");
  const OWNER = "pulumi-ct-owner:shop/dev/prod";
  const object = (id: string, name: string, tags: string[], state = "Active") => ({
    metadata: { id, name, tags },
    status: { state },
  });
  const ours = object("k-2", "prod", ["team-a", TAG, OWNER], "InCreation");
  const other = object("k-1", "prod", ["team-a", "pulumi-ct-owner:shop/other/prod"]);
  const byTag = `metadata.tags:eq(${JSON.stringify(TAG)})`;
  const byOwner = `metadata.tags:eq(${JSON.stringify(OWNER)})`;
  const byName = (name: string) => `metadata.name:eq(${JSON.stringify(name)})`;

  const lookup = (list: ListSource<ServiceObject>, api: object, name = "prod") =>
    findCreated({ what: 'Kaas "prod"', api, list, tag: TAG, name });

  it.each<[string, Parameters<typeof scriptedList>[1], string, (string | null)[], string[]]>([
    ["membership, found by the tag", "membership", "prod", [byTag], ["k-2"]],
    ["whole, found by the name", "whole", "prod", [byTag, byName("prod")], ["k-2"]],
    ["ignored, the first answer is the whole list", "ignored", "prod", [byTag], ["k-2"]],
    ["refused, listed once unfiltered", "refused", "prod", [byTag, null], ["k-2"]],
    ["whole, the name renamed: not found", "whole", "renamed", [byTag, byName("renamed")], []],
    ["whole, a name a filter cannot carry: not sent", "whole", "prod;blue", [byTag], []],
  ])("%s", async (_title, reading, name, calls, ids) => {
    const service = scriptedList([other, ours], reading);
    const result = await lookup(service.list, {}, name);
    expect(result.map((o) => o.metadata.id)).toEqual(ids);
    expect(service.calls).toEqual(calls);
  });

  it("finds every object carrying the tag, and none being deleted or deleted", async () => {
    const second = object("k-3", "prod", [TAG, OWNER], "Active");
    const deleting = object("k-4", "prod", [TAG], "Deleting");
    const deleted = object("k-5", "prod", [TAG], "Deleted");
    const service = scriptedList([other, ours, deleting, second, deleted], "membership");
    expect((await lookup(service.list, {})).map((o) => o.metadata.id)).toEqual(["k-2", "k-3"]);
  });

  it("leaves out objects being deleted in any spelling, and in the names of vendor:stateNames", async () => {
    const deleting = object("k-4", "prod", [TAG], "DELETING");
    const removing = object("k-5", "prod", [TAG], "Removing");
    const service = scriptedList([ours, deleting, removing], "membership");
    const stateNames = stateNamesOf({ Removing: "deleting" });
    const result = await findCreated({
      what: 'Kaas "prod"',
      api: {},
      list: service.list,
      tag: TAG,
      name: "prod",
      stateNames,
    });
    expect(result.map((o) => o.metadata.id)).toEqual(["k-2"]);
  });

  it("sends the tag filter then the name filter when neither finds anything, and no unfiltered list", async () => {
    const service = scriptedList([other], "membership");
    expect(await lookup(service.list, {})).toEqual([]);
    expect(service.calls).toEqual([byTag, byName("prod")]);
  });

  it.each(["prod;blue", "prod(1)", "a,b", 'say "hi"', "back\\slash"])(
    "never sends a name filter for %j",
    async (name) => {
      const service = scriptedList([other], "membership");
      expect(await lookup(service.list, {}, name)).toEqual([]);
      expect(service.calls).toEqual([byTag]);
    },
  );

  it("remembers a refused tag filter for the same client only", async () => {
    const api = {};
    const service = scriptedList([other, ours], "refused");
    await lookup(service.list, api);
    await lookup(service.list, api);
    await lookup(service.list, {});
    expect(service.calls).toEqual([byTag, null, null, byTag, null]);
    expect(lines).toEqual([
      '[vendor-container] Kaas "prod": the service refuses the list filter (400); listing without filters from now on',
      '[vendor-container] Kaas "prod": the service refuses the list filter (400); listing without filters from now on',
    ]);
  });

  it("takes a refused name filter for this lookup alone: the tag filter's answer stands, and filters stay on", async () => {
    const api = {};
    const service = scriptedList([other], "nameRefused");
    expect(await lookup(service.list, api)).toEqual([]);
    expect(await lookup(service.list, api)).toEqual([]);
    expect(service.calls).toEqual([byTag, byName("prod"), byTag, byName("prod")]);
    expect(lines).toEqual([
      '[vendor-container] Kaas "prod": the service refuses the list filter on the name (400); the tag filter\'s answer stands',
      '[vendor-container] Kaas "prod": the service refuses the list filter on the name (400); the tag filter\'s answer stands',
    ]);
  });

  it.each<[string, Parameters<typeof scriptedList>[1], (string | null)[]]>([
    ["filters by the owner tag", "membership", [byOwner]],
    ["under a whole-array reading, finds them by the name", "whole", [byOwner, byName("prod")]],
  ])(
    "with the owner tag, %s: the interrupted create and the objects a state recorded",
    async (_t, reading, calls) => {
      const recorded = object("k-3", "prod", ["team-a", OWNER]);
      const service = scriptedList([other, ours, recorded], reading);
      const result = await findCreated({
        what: 'Kaas "prod"',
        api: {},
        list: service.list,
        tag: TAG,
        owner: OWNER,
        name: "prod",
      });
      expect(result.map((o) => o.metadata.id)).toEqual(["k-2", "k-3"]);
      expect(service.calls).toEqual(calls);
    },
  );

  it("filters by the creation tag when the owner tag holds a character a filter cannot carry", async () => {
    const owner = "pulumi-ct-owner:shop/dev/prod;blue";
    const service = scriptedList([other, ours], "membership");
    await findCreated({ what: 'Kaas "prod"', api: {}, list: service.list, tag: TAG, owner, name: "prod" });
    expect(service.calls).toEqual([byTag]);
  });

  it("passes on an error other than a 400", async () => {
    const failing: ListSource<ServiceObject> = async function* () {
      yield* [];
      throw new VendorApiError({ kind: "http", method: "GET", path: "/kaas", status: 503 });
    };
    await expect(lookup(failing, {})).rejects.toMatchObject({ status: 503 });
  });
});
