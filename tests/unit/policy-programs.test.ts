/**
 * The package's own programs meet its policy pack: the template (`templates/kaas-typescript`), the platform
 * program of `examples/environments` and the programs of the other examples, each stack run through Pulumi's
 * mock monitor, and every rule of the pack, mandatory and at its defaults, run on the resources the stack
 * registers, as the engine runs them.
 */
import path from "node:path";
import type { ResourceValidationPolicy, StackValidationPolicy } from "@pulumi/policy";
import { PRODUCTION_STACKS, vendorContainerPolicies } from "../../policy/index";
import { matchesAny, typeToken } from "../../policy/values";
import type { KindName } from "../../provider";
import { KINDS } from "../support/kinds";
import { runResourcePolicy, runStackPolicy, type StackEntry } from "./support/policy-args";

const ROOT = path.resolve(__dirname, "../..");

// The programs import the package by name, as users do.
jest.mock("pulumi-vendor-container", () => jest.requireActual("../../sdk"), { virtual: true });

/**
 * A resource of the package a program registered: its kind, name, inputs (the serialized provider left out) and
 * outputs (what the stack rules read: the engine gives them the resources' outputs).
 */
interface Declared {
  kind: KindName;
  name: string;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
}

const kindOf = (type: string) => KINDS.find((kind) => typeToken(kind) === type);

/**
 * Runs the program `entry` as stack `stack` of `project` with `config`, in a module registry of its own (the
 * program runs at import), and resolves with the package's resources it registered.
 */
async function runProgram(
  entry: string,
  project: string,
  stack: string,
  config: Record<string, string>,
): Promise<Declared[]> {
  const declared: Declared[] = [];
  let pending = 0;
  jest.isolateModules(() => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const pulumi = require("@pulumi/pulumi") as typeof import("@pulumi/pulumi");
    pulumi.runtime.setAllConfig(
      Object.fromEntries(Object.entries(config).map(([key, value]) => [`${project}:${key}`, value])),
    );
    void pulumi.runtime.setMocks(
      {
        newResource: (args) => {
          pending += 1;
          const kind = kindOf(args.type);
          const { __provider: _serialized, ...inputs } = args.inputs as Record<string, unknown>;
          // A created cluster has its id as its kaasId output, which a backup takes as its own kaasId; the platform
          // program exports its pools.
          const state =
            kind === "Kaas" ? { ...inputs, kaasId: `${args.name}-id`, currentNodePools: [] } : inputs;
          if (kind) declared.push({ kind, name: args.name, inputs, outputs: state });
          pending -= 1;
          return { id: `${args.name}-id`, state };
        },
        call: () => ({}),
      },
      project,
      stack,
      false,
    );
    // The program runs at import, in this registry, against the mocks just set.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require(entry);
  });
  // Registrations reach the mock monitor asynchronously: wait until they stop coming.
  let seen = -1;
  while (seen !== declared.length || pending > 0) {
    seen = declared.length;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return declared;
}

/** Every violation the pack reports on `declared` in stack `stack`, each as `rule: message`. */
async function violations(declared: Declared[], stack: string): Promise<string[]> {
  const reported: string[] = [];
  const entries: StackEntry[] = declared.map((d) => ({ kind: d.kind, name: d.name, props: d.outputs }));
  for (const policy of vendorContainerPolicies()) {
    if ("validateStack" in policy) {
      for (const r of await runStackPolicy(policy as StackValidationPolicy, entries, { stack })) {
        reported.push(`${policy.name}: ${r.message}`);
      }
    } else {
      for (const d of declared) {
        const found = await runResourcePolicy(policy as ResourceValidationPolicy, d.kind, d.name, d.inputs, {
          stack,
        });
        reported.push(...found.map((r) => `${policy.name}: ${r.message}`));
      }
    }
  }
  return reported;
}

// Each program is required in this process, so its first test compiles the program and the package's SDK with
// ts-jest: seconds on a loaded machine, beyond jest's default 5 s.
jest.setTimeout(60_000);

describe("templates/kaas-typescript", () => {
  const entry = path.join(ROOT, "templates/kaas-typescript/index.ts");
  // The template's defaults, as `pulumi new` stores them.
  const defaults = { location: "ITBG-Bergamo", kubernetesVersion: "1.33.2", nodeCount: "2" };

  it.each([
    ["dev", ["Kaas cluster", "Registry images"]],
    ["prod", ["Kaas cluster", "KaasBackup backup", "Registry images"]],
    ["prod-eu", ["Kaas cluster", "KaasBackup backup", "Registry images"]],
  ])("passes every rule of the pack in stack %s, declaring %j", async (stack, resources) => {
    const declared = await runProgram(entry, "my-clusters", stack, defaults);
    expect(declared.map((d) => `${d.kind} ${d.name}`).sort()).toEqual(resources);
    const cluster = declared.find((d) => d.kind === "Kaas")!;
    expect([cluster.inputs.authorizedIpRanges, cluster.inputs.ha]).toEqual([["10.0.0.0/8"], stack !== "dev"]);
    expect(await violations(declared, stack)).toEqual([]);
  });

  it("takes the networks that may reach the API server from the stack config", async () => {
    const declared = await runProgram(entry, "my-clusters", "dev", {
      ...defaults,
      authorizedIpRanges: '["203.0.113.0/24"]',
    });
    expect(declared.find((d) => d.kind === "Kaas")!.inputs.authorizedIpRanges).toEqual(["203.0.113.0/24"]);
  });

  it("counts as production exactly the stacks the pack does by default", () => {
    // The template cannot import the pack's patterns (a program's TypeScript resolves no subpath exports), so
    // it spells them out: this keeps the two in step.
    expect(PRODUCTION_STACKS).toEqual(["prod", "prod-*", "*-prod", "production"]);
    const templateProduction = (stack: string) =>
      ["prod", "production"].includes(stack) || stack.startsWith("prod-") || stack.endsWith("-prod");
    for (const stack of ["prod", "prod-eu", "eu-prod", "production", "dev", "preprod", "prodx", "staging"]) {
      expect([stack, templateProduction(stack)]).toEqual([stack, matchesAny(PRODUCTION_STACKS, stack)]);
    }
  });

  it("fails the pack without the template's choices: the check above can fail", async () => {
    const declared = await runProgram(entry, "my-clusters", "prod", defaults);
    const withoutBackup = declared.filter((d) => d.kind !== "KaasBackup");
    expect(await violations(withoutBackup, "prod")).toEqual([
      'kaas-backup-required: Kaas "cluster" kaasId: no KaasBackup backs up this cluster; every cluster of stack "prod" needs a KaasBackup with kaasId set to its kaasId, keeping at least 7 days (minRetentionDays)',
    ]);
  });
});

describe("examples/environments: the platform stack of each environment", () => {
  const entry = path.join(ROOT, "examples/environments/platform/index.ts");

  it.each([
    ["dev", ["Kaas cluster", "Registry images"]],
    ["staging", ["Kaas cluster", "Registry images"]],
    ["prod", ["Kaas cluster", "KaasBackup cluster-backup", "Registry images"]],
    ["pr-128", ["Kaas cluster", "Registry images"]],
  ])("passes every rule of the pack in %s, declaring %j", async (stack, resources) => {
    const declared = await runProgram(entry, "vendor-environments-platform", stack, {});
    expect(declared.map((d) => `${d.kind} ${d.name}`).sort()).toEqual(resources);
    expect(await violations(declared, stack)).toEqual([]);
  });

  it("backs up prod's cluster in the platform stack, keeping 14 days", async () => {
    const declared = await runProgram(entry, "vendor-environments-platform", "prod", {});
    expect(declared.find((d) => d.kind === "KaasBackup")!.inputs).toEqual({
      kaasId: "cluster-id",
      creationScope: "vendor-environments-platform/prod/cluster-backup",
      name: "prod-platform",
      location: "ITBG-Bergamo",
      retentionDays: 14,
    });
  });
});

describe("the examples' programs, in the stacks their READMEs create", () => {
  it.each([
    [
      "examples/cluster",
      "vendor-container-cluster",
      "demo",
      ["Kaas cluster", "KaasBackup nightly", "Registry images"],
    ],
    [
      "examples/cluster",
      "vendor-container-cluster",
      "prod",
      ["Kaas cluster", "KaasBackup nightly", "Registry images"],
    ],
    ["examples/kubernetes", "vendor-container-kubernetes", "dev", ["Kaas cluster"]],
    ["examples/ci-pipeline", "vendor-container-pipeline", "dev", ["Kaas cluster", "KaasBackup nightly"]],
    ["examples/ci-pipeline", "vendor-container-pipeline", "prod", ["Kaas cluster", "KaasBackup nightly"]],
  ])(
    "%s (project %s) passes every rule of the pack in stack %s, declaring %j",
    async (folder, project, stack, resources) => {
      const declared = await runProgram(path.join(ROOT, folder, "index.ts"), project, stack, {});
      expect(declared.map((d) => `${d.kind} ${d.name}`).sort()).toEqual(resources);
      expect(await violations(declared, stack)).toEqual([]);
    },
  );
});
