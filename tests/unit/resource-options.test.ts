/**
 * Resource options the classes honour or refuse: `customTimeouts` merged into `timeouts`,
 * `replaceOnChanges` passed to the provider's diff, `import` refused before any service call, and `get`
 * registered as a read of the id. The table of them in docs/resources.md is checked in tests/docs/resource-options-table.test.ts.
 */
import * as pulumi from "@pulumi/pulumi";
import { checkArguments, diffArguments, checkReplaceOnChanges } from "../../provider/common/arguments";
import { Problems } from "../../provider/common/check";
import { REGISTRY } from "../../provider/registry/descriptor";
import { UNKNOWN } from "../../provider/common/unknown";
import { mergeTimeouts, parseDuration, refuseImport, timeoutsFromCustomTimeouts } from "../../sdk/options";

interface Registered {
  type: string;
  name: string;
  id?: string;
  inputs: Record<string, unknown>;
}

const registered: Registered[] = [];

beforeAll(() => {
  return pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        registered.push({ type: args.type, name: args.name, id: args.id, inputs: args.inputs });
        return { id: args.id ?? `${args.name}-id`, state: args.inputs };
      },
      call: () => ({}),
    },
    "proj",
    "dev",
    false,
  );
});

async function settle<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply((value) => resolve(value)));
}

const registryArgs = { name: "images", location: "ITBG-Bergamo", adminUsername: "ops" };
const inputsOf = (name: string) => registered.find((r) => r.name === name)!.inputs;

describe("parseDuration", () => {
  it.each([
    ["30m", 1_800_000],
    ["1h", 3_600_000],
    ["90s", 90_000],
    ["1h30m", 5_400_000],
    ["2h0m5s", 7_205_000],
    [" 45m ", 2_700_000],
  ])("reads %p as %i ms", (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each([["soon"], [""], ["0s"], ["1.5h"], ["30"], ["m"], ["1m1h"]])("refuses %p", (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });
});

describe("customTimeouts", () => {
  it("become timeouts entries, trimmed", () => {
    expect(
      timeoutsFromCustomTimeouts("Registry", "images", { create: "30m", update: " 1h ", delete: "90s" }),
    ).toEqual({ create: "30m", update: "1h", delete: "90s" });
    expect(timeoutsFromCustomTimeouts("Registry", "images", undefined)).toEqual({});
  });

  it("refuses an entry that is not a duration, naming the option and the value", () => {
    expect(() => timeoutsFromCustomTimeouts("KaasBackup", "nightly", { create: "soon" })).toThrow(
      'KaasBackup "nightly": customTimeouts.create must be a duration like "30m", "1h", "90s" or "1h30m", ' +
        'got "soon"',
    );
    expect(() => timeoutsFromCustomTimeouts("Kaas", "prod", { delete: "1.5h" })).toThrow(
      'Kaas "prod": customTimeouts.delete must be a duration like "30m", "1h", "90s" or "1h30m", got "1.5h"',
    );
  });

  it("fill the operations the timeouts argument leaves out", () => {
    expect(mergeTimeouts("Kaas", "prod", { create: "2h" }, { update: "30m", delete: "10m" })).toEqual({
      create: "2h",
      update: "30m",
      delete: "10m",
    });
    expect(mergeTimeouts("Kaas", "prod", undefined, { create: "1h" })).toEqual({ create: "1h" });
    expect(mergeTimeouts("Kaas", "prod", { create: "1h" }, {})).toEqual({ create: "1h" });
    expect(mergeTimeouts("Kaas", "prod", undefined, {})).toBeUndefined();
  });

  it("accept the same duration set in both places, however written", () => {
    expect(mergeTimeouts("Kaas", "prod", { create: "90m" }, { create: "1h30m" })).toEqual({ create: "90m" });
  });

  it("refuse a deadline set to different durations in both places", () => {
    expect(() => mergeTimeouts("Registry", "images", { create: "40m" }, { create: "1h" })).toThrow(
      'Registry "images": timeouts.create is "40m" but the customTimeouts option sets create to "1h"; ' +
        "set it in one place only",
    );
  });

  it("reach the provider as the timeouts input of each class", async () => {
    const { Registry, KaasBackup } = await import("../../sdk");
    const registry = new Registry("timed", registryArgs, { customTimeouts: { create: "30m", delete: "5m" } });
    const backup = new KaasBackup(
      "timed-backup",
      { kaasId: "kaas-1", name: "b", location: "ITBG-Bergamo", timeouts: pulumi.output({ update: "2m" }) },
      { customTimeouts: { create: "1h" } },
    );
    await Promise.all([settle(registry.urn), settle(backup.urn)]);

    expect(inputsOf("timed").timeouts).toEqual({ create: "30m", delete: "5m" });
    expect(inputsOf("timed-backup").timeouts).toEqual({ create: "1h", update: "2m" });
  });

  it("fail the constructor when one is not a duration", async () => {
    const { Registry } = await import("../../sdk");
    expect(() => new Registry("bad-timeout", registryArgs, { customTimeouts: { update: "later" } })).toThrow(
      'Registry "bad-timeout": customTimeouts.update must be a duration like "30m", "1h", "90s" or "1h30m", ' +
        'got "later"',
    );
    expect(registered.find((r) => r.name === "bad-timeout")).toBeUndefined();
  });
});

describe("the import option", () => {
  const message =
    'Registry "images": the "import" resource option does not work for this package\'s resources (Pulumi ' +
    'cannot import into a dynamic resource). To take over the existing object, remove "import" and set the ' +
    'argument adoptId instead: new Registry("images", { ...args, adoptId: "registry-0001" })';

  it("is refused with a message that shows adoptId", () => {
    expect(() => refuseImport("Registry", "images", { import: "registry-0001" })).toThrow(message);
    expect(() => refuseImport("Registry", "images", {})).not.toThrow();
  });

  it("fails the constructor of every class before anything is registered", async () => {
    const { Kaas, KaasBackup, Registry, VolumeAttachment } = await import("../../sdk");
    expect(() => new Registry("images", registryArgs, { import: "registry-0001" })).toThrow(message);
    expect(() => new Kaas("prod", {} as never, { import: "kaas-0001" })).toThrow(
      'Kaas "prod": the "import" resource option does not work for this package\'s resources (Pulumi cannot ' +
        'import into a dynamic resource). To take over the existing object, remove "import" and set the ' +
        'argument adoptId instead: new Kaas("prod", { ...args, adoptId: "kaas-0001" })',
    );
    expect(() => new KaasBackup("nightly", {} as never, { import: "backup-0001" })).toThrow(
      'new KaasBackup("nightly", { ...args, adoptId: "backup-0001" })',
    );
    expect(() => new VolumeAttachment("data", {} as never, { import: "k:v" })).toThrow(
      'new VolumeAttachment("data", { ...args, adoptId: "k:v" })',
    );
    expect(registered.filter((r) => ["images", "prod", "nightly", "data"].includes(r.name))).toEqual([]);
  });
});

describe("replaceOnChanges", () => {
  it("reaches the provider as an input", async () => {
    const { Registry } = await import("../../sdk");
    const registry = new Registry("replaced", registryArgs, { replaceOnChanges: ["tags"] });
    await settle(registry.urn);
    expect(inputsOf("replaced").replaceOnChanges).toEqual(["tags"]);
  });

  it("is not an input when the option is not set", async () => {
    const { Registry } = await import("../../sdk");
    const registry = new Registry("plain", registryArgs);
    await settle(registry.urn);
    expect("replaceOnChanges" in inputsOf("plain")).toBe(false);
  });

  const state = { ...registryArgs, projectId: "p", tags: ["a"], billingPeriod: "Month" };

  it("replaces the resource when a named argument changes", () => {
    const news = { ...state, tags: ["b"], replaceOnChanges: ["tags"] };
    expect(diffArguments(REGISTRY.arguments, state, news)).toEqual({
      changes: true,
      replaces: ["tags"],
      updates: ["tags"],
    });
  });

  it("replaces on any change with *", () => {
    const news = { ...state, billingPeriod: "Year", replaceOnChanges: ["*"] };
    expect(diffArguments(REGISTRY.arguments, state, news).replaces).toEqual(["billingPeriod"]);
  });

  it("updates in place when another argument changes", () => {
    const news = { ...state, billingPeriod: "Year", replaceOnChanges: ["tags"] };
    expect(diffArguments(REGISTRY.arguments, state, news)).toEqual({
      changes: true,
      replaces: [],
      updates: ["billingPeriod"],
    });
  });

  it("does not replace for a value still unknown at preview", () => {
    const news = { ...state, tags: UNKNOWN, replaceOnChanges: ["tags"] };
    expect(diffArguments(REGISTRY.arguments, state, news)).toEqual({
      changes: true,
      replaces: [],
      updates: ["tags"],
    });
  });

  it("is no change itself", () => {
    expect(diffArguments(REGISTRY.arguments, state, { ...state, replaceOnChanges: ["tags"] })).toEqual({
      changes: false,
      replaces: [],
      updates: [],
    });
  });

  it("is accepted by check without joining the list of arguments", () => {
    const { failures } = checkArguments(
      REGISTRY.arguments,
      {},
      { ...registryArgs, replaceOnChanges: ["tags", "*"] },
      { defaultProjectId: "p" },
    );
    expect(failures).toEqual([]);
  });

  it("refuses names that are not top-level arguments of the kind", () => {
    const problems = new Problems();
    checkReplaceOnChanges(
      ["tags", "tags[0]", "creationToken", 3],
      ["name", "tags", "creationToken"],
      problems,
    );
    checkReplaceOnChanges("tags", ["tags"], problems);
    expect(problems.failures).toEqual([
      {
        property: "replaceOnChanges[1]",
        reason: '"tags[0]" is not an argument of this resource; name top-level arguments (name, tags) or "*"',
      },
      {
        property: "replaceOnChanges[2]",
        reason:
          '"creationToken" is not an argument of this resource; name top-level arguments (name, tags) or "*"',
      },
      {
        property: "replaceOnChanges[3]",
        reason: '3 is not an argument of this resource; name top-level arguments (name, tags) or "*"',
      },
      { property: "replaceOnChanges", reason: 'must be a list of argument names, got "tags"' },
    ]);
  });
});

describe("get", () => {
  it("reads the id with the bookkeeping the provider's read needs, and no argument", async () => {
    const { Kaas, KaasBackup, Registry, VolumeAttachment } = await import("../../sdk");
    const got = [
      Kaas.get("seen-kaas", "kaas-0001"),
      KaasBackup.get("seen-backup", "backup-0001", { kaasId: "kaas-0001" }),
      Registry.get("seen-registry", "registry-0001"),
      VolumeAttachment.get("seen-attachment", "kaas-0001:/v-1"),
    ];
    await Promise.all(got.map((r) => settle(r.urn)));

    const reads = registered
      .filter((r) => r.name.startsWith("seen-"))
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((r) => {
        const { __provider, ...inputs } = r.inputs;
        expect(typeof __provider).toBe("string");
        return [r.name, r.id, inputs];
      });
    expect(reads).toEqual([
      ["seen-attachment", "kaas-0001:/v-1", { creationScope: "proj/dev/seen-attachment", readOnly: true }],
      [
        "seen-backup",
        "backup-0001",
        { creationScope: "proj/dev/seen-backup", kaasId: "kaas-0001", readOnly: true },
      ],
      ["seen-kaas", "kaas-0001", { creationScope: "proj/dev/seen-kaas", readOnly: true }],
      ["seen-registry", "registry-0001", { creationScope: "proj/dev/seen-registry", readOnly: true }],
    ]);
  });

  it("gives typed outputs resolved from the read", async () => {
    const { Registry } = await import("../../sdk");
    const registry = Registry.get("typed", "registry-0002");
    expect(await settle(registry.registryId)).toBe("registry-0002");
  });
});
