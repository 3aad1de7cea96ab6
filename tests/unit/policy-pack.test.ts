/**
 * The policy pack as a whole: its rules, their default enforcement levels and configuration schemas (whose
 * defaults are the rules' own), the helpers every rule reads values with, the pack folder users point
 * `--policy-pack` at (shipped in the npm package, with a version, an entry point and an executable launcher).
 * Its page, docs/policy.md, is checked in tests/docs/policy-page.test.ts.
 */
import fs from "node:fs";
import path from "node:path";
import Ajv from "ajv";
import {
  UnknownValueError,
  unknownCheckingProxy,
  type ResourceValidationPolicy,
  type StackValidationPolicy,
} from "@pulumi/policy";
import { POLICY_PACK_NAME, vendorContainerPolicies } from "../../policy/index";
import { PolicyParameterError } from "../../policy/parameters";
import { isUnknown, matchesAny, plainProps, stackOfUrn } from "../../policy/values";
import {
  ALL_UNKNOWN_MARKERS,
  UNKNOWN,
  runResourcePolicy,
  runStackPolicy,
  type StackEntry,
} from "./support/policy-args";

const ROOT = path.resolve(__dirname, "../..");
const readJson = (file: string) => JSON.parse(fs.readFileSync(path.join(ROOT, file), "utf8"));

describe("the rules of the pack", () => {
  const policies = vendorContainerPolicies();

  it("are these, each with its default enforcement level", () => {
    expect(
      policies.map((p) => [p.name, p.enforcementLevel, "validateStack" in p ? "stack" : "resource"]),
    ).toEqual([
      ["kaas-ha-in-production", "mandatory", "resource"],
      ["kaas-authorized-ip-ranges", "mandatory", "resource"],
      ["kaas-kubernetes-minimum-version", "mandatory", "resource"],
      ["kaas-kubernetes-end-of-support", "advisory", "stack"],
      ["kaas-node-pool-size", "mandatory", "resource"],
      ["kaas-backup-required", "mandatory", "stack"],
      ["registry-billing-period", "advisory", "resource"],
      ["volume-attachment-node-pool", "mandatory", "stack"],
    ]);
    expect(POLICY_PACK_NAME).toBe("vendor-container");
  });

  it("document each parameter with a default", () => {
    for (const policy of policies) {
      const properties = Object.entries(policy.configSchema?.properties ?? {});
      expect(properties.length).toBeGreaterThan(0);
      for (const [name, schema] of properties) {
        expect([policy.name, name, typeof schema === "object" && schema.default !== undefined]).toEqual([
          policy.name,
          name,
          true,
        ]);
        expect([policy.name, name, typeof schema === "object" && typeof schema.description]).toEqual([
          policy.name,
          name,
          "string",
        ]);
      }
    }
  });

  /** A parameter each rule does not have: a misspelling of one of its own, as users make them. */
  const MISSPELT: Record<string, [string, string]> = {
    "kaas-ha-in-production": ["stack", "stacks"],
    "kaas-authorized-ip-ranges": ["minPrefix", "minPrefixLength, requireForPrivateClusters"],
    "kaas-kubernetes-minimum-version": ["minVersion", "minimumVersion"],
    "kaas-kubernetes-end-of-support": ["minDaysLeft", "minDaysOfSupportLeft"],
    "kaas-node-pool-size": ["maxNodez", "minNodes, maxNodes"],
    "kaas-backup-required": ["retentionDays", "stacks, minRetentionDays"],
    "registry-billing-period": ["billingPeriods", "allowedBillingPeriods"],
    "volume-attachment-node-pool": ["allowedPools", "allowedNodePools"],
  };

  it("close their configuration schemas: a parameter outside them is invalid", () => {
    expect(Object.keys(MISSPELT)).toEqual(policies.map((p) => p.name));
    const ajv = new Ajv({ strict: false });
    for (const policy of policies) {
      const schema = policy.configSchema as { additionalProperties?: unknown } & typeof policy.configSchema;
      expect([policy.name, schema?.additionalProperties]).toEqual([policy.name, false]);
      const validate = ajv.compile({ type: "object", ...schema });
      const [misspelt] = MISSPELT[policy.name];
      expect([policy.name, validate({ [misspelt]: 3 })]).toEqual([policy.name, false]);
      expect(validate.errors?.map((e) => [e.keyword, e.params])).toEqual([
        ["additionalProperties", { additionalProperty: misspelt }],
      ]);
    }
  });

  it.each(Object.entries(MISSPELT))(
    "%s reports a parameter outside its schema, naming it and its own parameters, and judges nothing else",
    async (name, [misspelt, known]) => {
      const policy = vendorContainerPolicies().find((p) => p.name === name)!;
      const config = { [misspelt]: 3 };
      // A resource rule reports it on the stack's root resource, which every run validates first.
      const reported =
        "validateStack" in policy
          ? await runStackPolicy(policy as StackValidationPolicy, everything, { config })
          : await runResourcePolicy(
              policy as ResourceValidationPolicy,
              "Kaas",
              "cluster",
              everything[0].props,
              {
                config,
                type: "pulumi:pulumi:Stack",
              },
            );
      const message = `${name}: unknown parameter "${misspelt}" in the policy pack configuration; the parameters of ${name} are ${known}`;
      expect(reported).toEqual([{ message }]);
      expect(new PolicyParameterError(name, [misspelt], known.split(", ")).stack).toBe(message);
    },
  );

  it("reports a parameter outside the schema once, on the root resource, and judges no resource", async () => {
    const config = { maxNodez: 3, minNodez: 1 };
    const policy = vendorContainerPolicies().find((p) => p.name === "kaas-node-pool-size")!;
    const tooBig = { ...everything[0].props, nodePools: [{ name: "workers", nodes: 900 }] };
    await expect(
      runResourcePolicy(
        policy as ResourceValidationPolicy,
        "Registry",
        "images",
        {},
        {
          config,
          type: "pulumi:pulumi:Stack",
        },
      ),
    ).resolves.toEqual([
      {
        message:
          'kaas-node-pool-size: unknown parameters "maxNodez", "minNodez" in the policy pack configuration; the parameters of kaas-node-pool-size are minNodes, maxNodes',
      },
    ]);
    await expect(
      runResourcePolicy(policy as ResourceValidationPolicy, "Kaas", "cluster", tooBig, { config }),
    ).resolves.toEqual([]);
    // The parameters it has still work.
    await expect(
      runResourcePolicy(policy as ResourceValidationPolicy, "Kaas", "cluster", tooBig, {
        config: { maxNodes: 3 },
      }),
    ).resolves.toHaveLength(1);
  });

  /** A stack that breaks every rule at its defaults, once. */
  const everything: StackEntry[] = [
    {
      kind: "Kaas",
      name: "cluster",
      props: {
        kaasId: "kaas-0001",
        kubernetesVersion: "1.30.1",
        currentKubernetesVersion: "1.30.1",
        kubernetesVersionEndOfSupportDate: "2020-01-31T00:00:00Z",
        nodePools: [{ name: "system", nodes: 40 }],
        authorizedIpRanges: ["0.0.0.0/0"],
      },
    },
    { kind: "Registry", name: "images", props: { name: "images" } },
    { kind: "VolumeAttachment", name: "data", props: { kaasId: "kaas-0001", nodePoolName: "gpu" } },
  ];

  /** What each rule reports on `everything`, with `config` per rule. */
  async function reportsOnEverything(config: (policyName: string) => Record<string, unknown> | undefined) {
    const out: Record<string, string[]> = {};
    for (const policy of vendorContainerPolicies({ now: () => new Date("2026-11-26T00:00:00Z") })) {
      const given = config(policy.name);
      if ("validateStack" in policy) {
        const reported = await runStackPolicy(policy as StackValidationPolicy, everything, { config: given });
        out[policy.name] = reported.map((r) => r.message);
      } else {
        out[policy.name] = [];
        for (const e of everything) {
          const reported = await runResourcePolicy(
            policy as ResourceValidationPolicy,
            e.kind,
            e.name,
            e.props,
            {
              config: given,
            },
          );
          out[policy.name].push(...reported.map((r) => r.message));
        }
      }
    }
    return out;
  }

  it("each report their own violation, the same with no configuration or with the schema's defaults", async () => {
    const none = await reportsOnEverything(() => undefined);
    expect(Object.fromEntries(Object.entries(none).map(([k, v]) => [k, v.length]))).toEqual({
      "kaas-ha-in-production": 1,
      "kaas-authorized-ip-ranges": 1,
      "kaas-kubernetes-minimum-version": 1,
      "kaas-kubernetes-end-of-support": 1,
      "kaas-node-pool-size": 1,
      "kaas-backup-required": 1,
      "registry-billing-period": 1,
      "volume-attachment-node-pool": 1,
    });
    // The engine may send each parameter's schema default: the rules read them as their own defaults.
    const schemaDefaults = (name: string) => {
      const policy = vendorContainerPolicies().find((p) => p.name === name)!;
      return Object.fromEntries(
        Object.entries(policy.configSchema!.properties).map(([key, schema]) => [
          key,
          typeof schema === "object" ? schema.default : undefined,
        ]),
      );
    };
    expect(await reportsOnEverything(schemaDefaults)).toEqual(none);
  });
});

describe("reading values", () => {
  it("recognises every unknown marker of @pulumi/policy, and nothing else", () => {
    expect(ALL_UNKNOWN_MARKERS).toHaveLength(7);
    for (const marker of ALL_UNKNOWN_MARKERS) expect([marker, isUnknown(marker)]).toEqual([marker, true]);
    for (const value of [
      "",
      "unknown",
      "00000000-0000-0000-0000-000000000000",
      null,
      undefined,
      0,
      false,
      {},
    ]) {
      expect(isUnknown(value)).toBe(false);
    }
  });

  it("reads unknowns through the library's proxy without tripping it", () => {
    const props = unknownCheckingProxy({
      ha: UNKNOWN.boolean,
      nodePools: [UNKNOWN.object],
      name: "prod",
    }) as Record<string, unknown>;
    expect(() => props.ha).toThrow(UnknownValueError);
    expect(plainProps(props)).toEqual({ ha: UNKNOWN.boolean, nodePools: [UNKNOWN.object], name: "prod" });
  });

  it.each([
    ["urn:pulumi:prod::platform::pulumi-nodejs:dynamic/vendor-container:Kaas::cluster", "prod"],
    ["urn:pulumi:prod-eu.1::platform::pulumi:pulumi:Stack::platform-prod-eu.1", "prod-eu.1"],
  ])("reads the stack of %s", (urn, stack) => {
    expect(stackOfUrn(urn)).toBe(stack);
  });

  it.each([
    [["prod"], "prod", true],
    [["prod"], "preprod", false],
    [["prod-*"], "prod-eu", true],
    [["prod-*"], "prod", false],
    [["*-prod"], "eu-west-prod", true],
    [["prod.eu"], "prodxeu", false],
    [["prod.eu"], "prod.eu", true],
    [["*"], "anything", true],
    [[], "prod", false],
  ])("patterns %j match %s: %s", (patterns, name, expected) => {
    expect(matchesAny(patterns, name)).toBe(expected);
  });
});

describe("the pack folder", () => {
  const pack = readJson("policy/package.json");

  it("carries the package's version, which PolicyPack requires and reports", () => {
    expect(pack.version).toBe(readJson("package.json").version);
  });

  it("starts the compiled entry point, built from policy/pack.ts", () => {
    expect(path.resolve(ROOT, "policy", pack.main)).toBe(path.join(ROOT, "dist/policy/pack.js"));
    expect(fs.existsSync(path.join(ROOT, "policy/pack.ts"))).toBe(true);
    expect(readJson("tsconfig.build.json").include).toContain("policy");
  });

  it("is a Node.js policy project", () => {
    const manifest = fs.readFileSync(path.join(ROOT, "policy/PulumiPolicy.yaml"), "utf8");
    expect(manifest).toMatch(/^runtime: nodejs$/m);
  });

  it("has an executable launcher that runs @pulumi/pulumi's run-policy-pack on the folder", () => {
    const launcher = path.join(ROOT, "policy/run-policy-pack");
    expect(fs.statSync(launcher).mode & 0o111).toBe(0o111);
    const lines = fs
      .readFileSync(launcher, "utf8")
      .split("\n")
      .filter((line) => line && !line.startsWith("#"));
    expect(lines).toEqual([
      'cd "$(dirname "$0")" || exit 1',
      'runner="$(node -p \'require.resolve("@pulumi/pulumi/cmd/run-policy-pack")\')" || exit 1',
      'exec node "$runner" "$1" .',
    ]);
  });

  it("ships in the npm package, with the rules importable as pulumi-vendor-container/policy", () => {
    const manifest = readJson("package.json");
    expect(manifest.files).toEqual(
      expect.arrayContaining([
        "dist/**/*.js",
        "policy/PulumiPolicy.yaml",
        "policy/package.json",
        "policy/run-policy-pack",
      ]),
    );
    expect(manifest.exports["./policy"]).toEqual({
      types: "./dist/policy/index.d.ts",
      default: "./dist/policy/index.js",
    });
    expect(manifest.peerDependencies["@pulumi/policy"]).toBe("^1.21.0");
    expect(manifest.peerDependenciesMeta["@pulumi/policy"]).toEqual({ optional: true });
  });
});
