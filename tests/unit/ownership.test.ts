/**
 * The tags of an object the state tracks (provider/common/ownership.ts): `ownedMetadata` computes the one
 * metadata update that gives a live object the owner tag of its resource and no creation tag, keeping its name,
 * location and user tags; `retag` sends it, only when the tags differ, after the object settled, and leaves
 * alone an object that is gone or that another resource owns.
 */
import type { KindDescriptor, KindInputs } from "../../provider/common/describedProvider";
import type { ServiceObject } from "../../provider/common/lifecycle";
import { ownedMetadata, retag } from "../../provider/common/ownership";
import { VendorContainerClient } from "../../rest/client";
import { VendorApiError } from "../../rest/errors";
import { resolveSettings } from "../../rest/settings";
import type { MetadataRequest } from "../../schemas";

const CREATION = "pulumi-ct-0123456789abcdef0123";
const OWNER = "pulumi-ct-owner:shop/dev/prod";

/** A live object as the service answers it, with the metadata fields `ownedMetadata` reads. */
interface Live extends ServiceObject {
  metadata: ServiceObject["metadata"] & { name?: string | null; location?: { value?: string | null } | null };
}

const live = (tags: string[] | null, over: Partial<Live["metadata"]> = {}, state = "Active"): Live => ({
  metadata: { id: "kaas-0001", name: "prod-live", location: { value: "ITMI-Milano" }, tags, ...over },
  status: { state },
});

const DECLARED = { name: "prod", location: "ITBG-Bergamo" };

describe("ownedMetadata", () => {
  it("is undefined when the object already carries exactly the user tags and the owner tag, in any order", () => {
    expect(ownedMetadata(live(["team:a", OWNER]), "shop/dev/prod", DECLARED)).toBeUndefined();
    expect(ownedMetadata(live([OWNER, "team:a"]), "shop/dev/prod", DECLARED)).toBeUndefined();
    expect(ownedMetadata(live([]), undefined, DECLARED)).toBeUndefined();
    expect(ownedMetadata(live(null), undefined, DECLARED)).toBeUndefined();
  });

  it("drops the creation tag, keeping the live name, location and user tags", () => {
    expect(ownedMetadata(live(["team:a", CREATION, OWNER, "env:prod"]), "shop/dev/prod", DECLARED)).toEqual({
      name: "prod-live",
      location: { value: "ITMI-Milano" },
      tags: ["team:a", "env:prod", OWNER],
    });
  });

  it("replaces an owner tag naming a former scope, and adds a missing one", () => {
    expect(
      ownedMetadata(live(["team:a", "pulumi-ct-owner:shop/old/prod"]), "shop/dev/prod", DECLARED),
    ).toEqual({
      name: "prod-live",
      location: { value: "ITMI-Milano" },
      tags: ["team:a", OWNER],
    });
    expect(ownedMetadata(live(["team:a"]), "shop/dev/prod", DECLARED)?.tags).toEqual(["team:a", OWNER]);
  });

  it("with no owner, drops every tag of the package and keeps the user tags", () => {
    expect(ownedMetadata(live(["team:a", CREATION, OWNER]), undefined, DECLARED)?.tags).toEqual(["team:a"]);
  });

  it("takes the declared name and location where the object reports none", () => {
    expect(
      ownedMetadata(live([CREATION], { name: null, location: null }), "shop/dev/prod", DECLARED),
    ).toEqual({
      name: "prod",
      location: { value: "ITBG-Bergamo" },
      tags: [OWNER],
    });
    // An update sends the location only when it is known.
    expect(ownedMetadata(live([CREATION], { name: "", location: null }), "shop/dev/prod", {})).toEqual({
      name: "",
      tags: [OWNER],
    });
  });
});

describe("retag", () => {
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

  const api = new VendorContainerClient(
    resolveSettings(() => undefined, { VENDOR_BASE_URL: "http://127.0.0.1:9", VENDOR_TOKEN: "t" }),
    { pollIntervalMs: 5 },
  );

  /**
   * A kind whose object answers `answers` in turn (the last one from then on), and takes a metadata update as
   * the service does: its tags are replaced, and the next answers show them.
   */
  function scripted(answers: (Live | undefined)[], lostAnswer?: "applied" | "not applied") {
    let lose = lostAnswer;
    let reads = 0;
    let tags = answers[0]?.metadata.tags;
    let last: Live | undefined;
    const sent: { id: string; metadata: MetadataRequest; stateWhenSent: string | null | undefined }[] = [];
    const descriptor = {
      timeouts: { create: 60_000, update: 60_000, delete: 60_000 },
      calls: {
        path: (_api: unknown, _inputs: unknown, id: string) => `/kaas/${id}`,
        find: async () => {
          const answer = answers[Math.min(reads++, answers.length - 1)];
          last = answer && { ...answer, metadata: { ...answer.metadata, tags } };
          return last;
        },
        updateMetadata: async (_api: unknown, _inputs: unknown, id: string, metadata: MetadataRequest) => {
          sent.push({ id, metadata, stateWhenSent: last?.status?.state });
          const losing = lose;
          lose = undefined;
          if (losing !== "not applied") tags = metadata.tags;
          if (losing) throw new VendorApiError({ kind: "network", method: "PUT", path: `/kaas/${id}` });
        },
      },
    } as unknown as KindDescriptor<ServiceObject, KindInputs>;
    return { descriptor, sent, tags: () => tags };
  }

  const STATE = {
    projectId: "p-1",
    name: "prod",
    location: "ITBG-Bergamo",
    creationToken: "t",
  } as KindInputs;
  const OPTIONS = {
    owner: "shop/dev/prod",
    what: 'Kaas "prod"',
    describe: "the engine recorded the id: releasing the creation tag of",
  };

  it("sends one metadata update keeping the live name, location and user tags, and says so", async () => {
    const kind = scripted([live(["team:a", CREATION, OWNER])]);

    expect(await retag(kind.descriptor, api, STATE, "kaas-0001", OPTIONS)).toBe("retagged");

    expect(kind.sent).toEqual([
      {
        id: "kaas-0001",
        metadata: { name: "prod-live", location: { value: "ITMI-Milano" }, tags: ["team:a", OWNER] },
        stateWhenSent: "Active",
      },
    ]);
    expect(kind.tags()).toEqual(["team:a", OWNER]);
    expect(lines).toContain(
      '[vendor-container] Kaas "prod": the engine recorded the id: releasing the creation tag of kaas-0001',
    );
  });

  it("waits until a busy object settled before it sends the update", async () => {
    const kind = scripted([
      live([CREATION, OWNER], {}, "InCreation"),
      live([CREATION, OWNER], {}, "InCreation"),
      live([CREATION, OWNER]),
    ]);

    expect(await retag(kind.descriptor, api, STATE, "kaas-0001", OPTIONS)).toBe("retagged");

    expect(kind.sent.map((s) => s.stateWhenSent)).toEqual(["Active"]);
  });

  it("sends nothing when the tags already are those of a tracked object", async () => {
    const kind = scripted([live(["team:a", OWNER])]);

    expect(await retag(kind.descriptor, api, STATE, "kaas-0001", OPTIONS)).toBe("unchanged");

    expect(kind.sent).toEqual([]);
    expect(lines).toEqual([]);
  });

  it("sends nothing for an object that is gone", async () => {
    const kind = scripted([undefined]);

    expect(await retag(kind.descriptor, api, STATE, "kaas-0001", OPTIONS)).toBe("gone");

    expect(kind.sent).toEqual([]);
  });

  it("with from, leaves alone an object whose owner tag names another resource", async () => {
    const kind = scripted([live([CREATION, "pulumi-ct-owner:other/stack/elsewhere"])]);

    expect(await retag(kind.descriptor, api, STATE, "kaas-0001", { ...OPTIONS, from: "shop/old/prod" })).toBe(
      "owned elsewhere",
    );

    expect(kind.sent).toEqual([]);
  });

  it("with from, retags an object whose owner tag names that scope, or that has none", async () => {
    const former = scripted([live(["pulumi-ct-owner:shop/old/prod"])]);
    const none = scripted([live(["team:a"])]);
    const options = { ...OPTIONS, from: "shop/old/prod" };

    expect(await retag(former.descriptor, api, STATE, "kaas-0001", options)).toBe("retagged");
    expect(await retag(none.descriptor, api, STATE, "kaas-0001", options)).toBe("retagged");

    expect([former.tags(), none.tags()]).toEqual([[OWNER], ["team:a", OWNER]]);
  });

  it("reads the tags again after an update whose answer was lost, and does not send it again once applied", async () => {
    const kind = scripted([live([CREATION, OWNER])], "applied");

    expect(await retag(kind.descriptor, api, STATE, "kaas-0001", OPTIONS)).toBe("retagged");

    expect(kind.sent).toHaveLength(1);
    expect(kind.tags()).toEqual([OWNER]);
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^\[vendor-container\] Kaas "prod": the tag update's outcome is unknown \(.*\); reading the tags again$/,
      ),
    );
  });

  it("sends the update again after one whose answer was lost and that was not applied", async () => {
    const kind = scripted([live([CREATION, OWNER])], "not applied");

    expect(await retag(kind.descriptor, api, STATE, "kaas-0001", OPTIONS)).toBe("retagged");

    expect(kind.sent.map((s) => s.metadata.tags)).toEqual([[OWNER], [OWNER]]);
    expect(kind.tags()).toEqual([OWNER]);
  });
});
