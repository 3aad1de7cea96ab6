/**
 * The argument schemas: each kind's arguments are one object (`KAAS_ARGUMENTS`, ...) from which the input
 * type, the argument table of `check` and `diff`, and the SDK's seeds derive. What a schema says a program must
 * set is held three ways to one list written out here: the schema's `required` marks, the derived input type
 * (at compile time), and what `check` reports missing.
 */
import type { CheckContext } from "../../provider/common/arguments";
import { checkArguments, choice, flag, text, withBookkeeping } from "../../provider/common/arguments";
import type { Inputs } from "../../provider/common/check";
import { checkKind } from "../../provider/common/describedProvider";
import { KAAS } from "../../provider/kaas/descriptor";
import { KAAS_ARGUMENTS, type KaasInputs } from "../../provider/kaas/types";
import { KAAS_BACKUP } from "../../provider/kaasBackup/descriptor";
import { KAAS_BACKUP_ARGUMENTS, type KaasBackupInputs } from "../../provider/kaasBackup/types";
import { REGISTRY } from "../../provider/registry/descriptor";
import { REGISTRY_ARGUMENTS, type RegistryInputs } from "../../provider/registry/types";
import { checkVolumeAttachment } from "../../provider/volumeAttachment/check";
import {
  VOLUME_ATTACHMENT_ARGUMENTS,
  type VolumeAttachmentInputs,
} from "../../provider/volumeAttachment/types";
import { argumentSeeds } from "../../sdk/inputs";
import { CHECK_CONTEXT, baselineInputs } from "./support/kaas-fixtures";

/** The properties of `T` that are not optional. */
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
/** `true` exactly when `A` and `B` are the same type. */
type Same<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;

// Compile-time: the input types require exactly the arguments listed below (tsc checks the tests).
const typesRequire: [
  Same<RequiredKeys<KaasInputs>, "name" | "location" | "nodeCidr" | "kubernetesVersion" | "nodePools">,
  Same<RequiredKeys<KaasBackupInputs>, "kaasId" | "name" | "location">,
  Same<RequiredKeys<RegistryInputs>, "name" | "location" | "adminUsername">,
  Same<RequiredKeys<VolumeAttachmentInputs>, "kaasId" | "nodePoolName" | "nodeId" | "volumeUri">,
] = [true, true, true, true];

const ctx: CheckContext = { ...CHECK_CONTEXT, defaultProjectId: "proj-1" };
const VOLUME = "/projects/proj-1/providers/Vendor.Storage/blockStorages/v-1";

interface Case {
  kind: string;
  schema: Record<string, { required: boolean }>;
  /** The failures `check` reports for `news` on create. */
  check: (news: Inputs) => { property: string; reason: string }[];
  /** Inputs `check` accepts. */
  valid: Inputs;
  required: string[];
}

const CASES: Case[] = [
  {
    kind: "Kaas",
    schema: KAAS_ARGUMENTS,
    check: (news) => checkKind(KAAS, {}, news, ctx).failures,
    valid: baselineInputs(),
    required: ["name", "location", "nodeCidr", "kubernetesVersion", "nodePools"],
  },
  {
    kind: "KaasBackup",
    schema: KAAS_BACKUP_ARGUMENTS,
    check: (news) => checkKind(KAAS_BACKUP, {}, news, ctx).failures,
    valid: { kaasId: "kaas-1", name: "nightly", location: "ITBG-Bergamo", type: "Full", retentionDays: 7 },
    required: ["kaasId", "name", "location"],
  },
  {
    kind: "Registry",
    schema: REGISTRY_ARGUMENTS,
    check: (news) => checkKind(REGISTRY, {}, news, ctx).failures,
    valid: { name: "images", location: "ITBG-Bergamo", adminUsername: "ops", size: "Small" },
    required: ["name", "location", "adminUsername"],
  },
  {
    kind: "VolumeAttachment",
    schema: VOLUME_ATTACHMENT_ARGUMENTS,
    check: (news) => checkVolumeAttachment({}, news, ctx).failures,
    valid: { kaasId: "kaas-1", nodePoolName: "system", nodeId: "node-1", volumeUri: VOLUME },
    required: ["kaasId", "nodePoolName", "nodeId", "volumeUri"],
  },
];

it("the input types require the arguments the schemas mark required", () => {
  expect(typesRequire).toEqual([true, true, true, true]);
});

describe.each(CASES)("$kind", ({ schema, check, valid, required }) => {
  it("marks exactly its required arguments required", () => {
    expect(Object.keys(schema).filter((name) => schema[name].required)).toEqual(required);
  });

  it("accepts its valid inputs", () => {
    expect(check(valid)).toEqual([]);
  });

  it.each(required)("reports %s missing, naming it", (name) => {
    const { [name]: _left, ...news } = valid;
    const failures = check(news);
    expect(failures.map((failure) => failure.property)).toEqual([name]);
    expect(failures[0].reason).toMatch(/required/);
  });

  it("accepts its valid inputs without any one optional argument", () => {
    const optional = Object.keys(schema).filter((name) => !schema[name].required);
    const refused = optional.flatMap((name) => {
      const { [name]: _left, ...news } = valid;
      return check(news).map((failure) => `${name}: ${failure.property} ${failure.reason}`);
    });
    expect(refused).toEqual([]);
  });

  it("seeds every argument but the adoption ones in the SDK class", () => {
    const adoption = Object.keys(schema).filter((name) => name.startsWith("adopt"));
    expect(Object.entries(argumentSeeds(schema, adoption))).toEqual(
      Object.keys(schema)
        .filter((name) => !adoption.includes(name))
        .map((name) => [name, undefined]),
    );
  });
});

describe("arguments whose check derives from their type", () => {
  const schema = {
    label: text("update"),
    owner: text("replace", {
      required: true,
      pattern: /^[a-z]+$/,
      patternHint: "must be lower-case letters",
    }),
    enabled: flag("update"),
    tier: choice("update", ["Gold", "Silver"]),
  };
  const run = (news: Inputs) =>
    checkArguments(withBookkeeping(schema), {}, news, {}, { creationToken: false }).failures;

  it("accepts values of their types, and optional ones left out", () => {
    expect(run({ owner: "ops" })).toEqual([]);
    expect(run({ label: "x", owner: "ops", enabled: false, tier: "Silver" })).toEqual([]);
  });

  it("refuses values of other types, naming each argument, in the schema's order", () => {
    expect(run({ label: 7, owner: "Ops", enabled: "yes", tier: "Bronze" })).toEqual([
      { property: "label", reason: "must be a string, got number" },
      { property: "owner", reason: "must be lower-case letters" },
      { property: "enabled", reason: "must be a boolean, got string" },
      { property: "tier", reason: 'must be one of Gold, Silver, got "Bronze"' },
    ]);
  });

  it("reports a required one missing", () => {
    expect(run({})).toEqual([{ property: "owner", reason: "is required" }]);
  });

  it("marks what a program must set, for the input type", () => {
    expect(Object.entries(schema).map(([name, spec]) => [name, spec.required])).toEqual([
      ["label", false],
      ["owner", true],
      ["enabled", false],
      ["tier", false],
    ]);
  });
});
