/**
 * What the provider plugin reads of its run (plugin/run.ts): the resources of an exported state, the object
 * the state tracks for a URN (a replacement's create is told from a create whose state lost its object by it),
 * the resource that tracks an object, and the stack of the root resource.
 */
import { holderIn, stackOfRootUrn, stateResources, trackedForCreate, trackedIn } from "../../plugin/run";

const KAAS = "vendor-container:index:Kaas";
const urn = (name: string, type = KAAS) => `urn:pulumi:dev::shop::${type}::${name}`;

describe("stateResources", () => {
  it.each([
    ["a stack never updated", { version: 3, deployment: { manifest: {} } }, []],
    [
      "resources with ids, the stack and providers' alike, pending deletions marked",
      {
        version: 3,
        deployment: {
          resources: [
            { urn: urn("shop-dev", "pulumi:pulumi:Stack"), type: "pulumi:pulumi:Stack" },
            { urn: urn("cluster"), id: "kaas-0001", delete: true },
            { urn: urn("cluster"), id: "kaas-0002" },
            { urn: urn("pending"), id: "" },
          ],
        },
      },
      [
        { urn: urn("cluster"), id: "kaas-0001", delete: true },
        { urn: urn("cluster"), id: "kaas-0002", delete: false },
      ],
    ],
    ["no deployment", { version: 3 }, undefined],
    ["resources that are no list", { deployment: { resources: {} } }, undefined],
    ["no object", "[]", undefined],
  ])("reads %s", (_case, exported, expected) => {
    expect(stateResources(exported)).toEqual(expected);
  });
});

describe("trackedIn", () => {
  const resources = [
    { urn: urn("cluster"), id: "kaas-0001", delete: true },
    { urn: urn("cluster"), id: "kaas-0002", delete: false },
    { urn: urn("half"), id: "kaas-0003", delete: true },
    { urn: urn("half"), id: "kaas-0004", delete: true },
  ];
  it.each([
    ["the live object, not the one pending deletion", urn("cluster"), "kaas-0002"],
    ["the newest one pending deletion, when none is live", urn("half"), "kaas-0004"],
    ["null for a resource the state does not hold", urn("other"), null],
    ["null for another type of the same name", urn("cluster", "vendor-container:index:Registry"), null],
  ])("answers %s", (_case, of, expected) => {
    expect(trackedIn(resources, of)).toBe(expected);
  });
});

describe("trackedForCreate", () => {
  const resources = [{ urn: urn("cluster"), id: "kaas-0001", delete: false }];
  it("answers what the state tracks: the object a replacement replaces, or none", () => {
    expect(trackedForCreate(resources, urn("cluster"), "shop/dev/cluster", "shop/dev")).toBe("kaas-0001");
    expect(trackedForCreate(resources, urn("new"), "shop/dev/new", "shop/dev")).toBeNull();
  });
  it("refuses, rather than guess, when the state could not be read", () => {
    expect(() => trackedForCreate(undefined, urn("cluster"), "shop/dev/cluster", "shop/dev")).toThrow(
      new Error(
        "shop/dev/cluster: its lookup found objects of this resource, but the state of stack shop/dev could not " +
          "be read (pulumi stack export; the line before says why) to tell the object a replacement replaces " +
          "from an interrupted create to resume. Nothing was created; run the command again.",
      ),
    );
  });
});

describe("holderIn", () => {
  const resources = [
    { urn: urn("old"), id: "kaas-0001", delete: true },
    { urn: urn("restored"), id: "kaas-0002", delete: false },
    { urn: urn("images", "vendor-container:index:Registry"), id: "kaas-0002", delete: false },
  ];
  it.each([
    ["the resource of the type that tracks it", "kaas-0002", urn("restored")],
    ["null when only a pending deletion holds it", "kaas-0001", null],
    ["null when none does", "kaas-0009", null],
  ])("answers %s", (_case, id, expected) => {
    expect(holderIn(resources, KAAS, id)).toBe(expected);
  });
});

it("reads the stack of the root resource's URN, and nothing of an unset root", () => {
  expect(stackOfRootUrn("urn:pulumi:copy::shop::pulumi:pulumi:Stack::shop-copy")).toBe("shop/copy");
  expect(stackOfRootUrn("")).toBeUndefined();
});
