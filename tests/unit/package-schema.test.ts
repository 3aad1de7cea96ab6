/**
 * The provider plugin's package schema (dist/plugin/schema.json, written by the build: scripts/package-schema.mjs)
 * states every kind as the plugin serves it: each argument of the kind's schema an input property, required and
 * create-only as its rule says, every computed output a property, the secrets secret; every function and every
 * setting. An argument added to a kind and not to the schema, or the other way round, fails here.
 */
import fs from "node:fs";
import path from "node:path";
import { KIND_NAMES } from "../../schemas/kinds";
import { PLUGIN_KINDS, tokenOf } from "../../plugin/kinds";
import { functionToken, PLUGIN_FUNCTIONS } from "../../plugin/functions";
import { CHECK_SETTING_SOURCES, SETTING_SOURCES } from "../../rest/settings";
import type { ArgumentSchema } from "../../provider/common/arguments";

interface PropertySpec {
  type?: string;
  $ref?: string;
  secret?: boolean;
  replaceOnChanges?: boolean;
  description?: string;
}
interface ResourceSpec {
  description?: string;
  inputProperties: Record<string, PropertySpec>;
  requiredInputs: string[];
  properties: Record<string, PropertySpec>;
  required: string[];
}
interface PackageSchema {
  name: string;
  pluginDownloadURL: string;
  language: { go: { importBasePath: string } };
  resources: Record<string, ResourceSpec>;
  functions: Record<string, { inputs: { properties: Record<string, PropertySpec> }; outputs: unknown }>;
  types: Record<string, { properties: Record<string, PropertySpec> }>;
  config: { variables: Record<string, PropertySpec> };
}

const schema = JSON.parse(
  fs.readFileSync(path.join(__dirname, "../../dist/plugin/schema.json"), "utf8"),
) as PackageSchema;

describe("the plugin's package schema", () => {
  it("is the package vendor-container with one resource per kind", () => {
    expect(schema.name).toBe("vendor-container");
    expect(Object.keys(schema.resources).sort()).toEqual(KIND_NAMES.map(tokenOf).sort());
  });

  describe.each(KIND_NAMES)("%s", (kind) => {
    const resource = () => schema.resources[tokenOf(kind)];
    const rules: ArgumentSchema = PLUGIN_KINDS[kind].arguments;

    it("has exactly the kind's arguments as input properties, each described", () => {
      expect(Object.keys(resource().inputProperties)).toEqual(Object.keys(rules));
      for (const [name, property] of Object.entries(resource().inputProperties))
        expect({ name, described: (property.description ?? "").length > 0 }).toEqual({
          name,
          described: true,
        });
    });

    it("requires what the kind requires, and replaces on what the kind replaces on", () => {
      const names = Object.keys(rules);
      expect(resource().requiredInputs).toEqual(names.filter((name) => rules[name].required));
      const replacing = Object.entries(resource().inputProperties)
        .filter(([, property]) => property.replaceOnChanges === true)
        .map(([name]) => name);
      expect(replacing).toEqual(names.filter((name) => rules[name].change === "replace"));
    });

    it("has every argument and every computed output as an output, the kind's secrets secret", () => {
      expect(Object.keys(resource().properties)).toEqual([
        ...Object.keys(rules),
        ...PLUGIN_KINDS[kind].computed,
      ]);
      const secret = Object.entries(resource().properties)
        .filter(([, property]) => property.secret === true)
        .map(([name]) => name)
        .sort();
      expect(secret).toEqual([...PLUGIN_KINDS[kind].secrets].sort());
      expect(resource().description).toEqual(expect.any(String));
    });
  });

  it("states a Kaas's arguments with their types", () => {
    const inputs = schema.resources["vendor-container:index:Kaas"].inputProperties;
    expect(inputs.name).toMatchObject({ type: "string" });
    expect(inputs.ha).toMatchObject({ type: "boolean" });
    expect(inputs.maxCumulativeVolumeSize).toMatchObject({ type: "number" });
    expect(inputs.tags).toMatchObject({ type: "array", items: { type: "string" } });
    expect(inputs.nodePools).toMatchObject({
      type: "array",
      items: { $ref: "#/types/vendor-container:index:NodePool" },
    });
    expect(inputs.autoscalerProfile).toMatchObject({ $ref: "pulumi.json#/Any" });
    const pool = schema.types["vendor-container:index:NodePool"];
    expect(Object.keys(pool.properties)).toEqual([
      "name",
      "nodes",
      "instance",
      "dataCenter",
      "autoscaling",
      "minCount",
      "maxCount",
    ]);
  });

  it("has every function, by token, and the kubeconfig's result secret", () => {
    expect(Object.keys(schema.functions)).toEqual(Object.keys(PLUGIN_FUNCTIONS).map(functionToken));
    expect(schema.functions["vendor-container:index:getKaas"].inputs.properties).toEqual({
      kaasId: expect.objectContaining({ type: "string" }),
      projectId: expect.objectContaining({ type: "string" }),
    });
    expect(schema.functions["vendor-container:index:getKubeconfig"].outputs).toMatchObject({
      properties: { kubeconfig: { type: "string", secret: true } },
    });
  });

  it("configures every setting as vendor-container:<name>, the credentials secret", () => {
    const keys = Object.values({ ...SETTING_SOURCES, ...CHECK_SETTING_SOURCES }).map(([key]) =>
      key.replace(/^vendor:/, ""),
    );
    expect(Object.keys(schema.config.variables)).toEqual(keys);
    const secret = Object.entries(schema.config.variables)
      .filter(([, v]) => v.secret)
      .map(([k]) => k);
    expect(secret).toEqual(["token", "clientSecret"]);
  });
});

describe("the schema's release addresses (scripts/release/config.mjs)", () => {
  it("names the release's plugin download URL, which the engine completes with the version", () => {
    expect(schema.pluginDownloadURL).toBe(
      "https://github.com/vendor-container/pulumi-vendor-container/releases/download/v${VERSION}",
    );
  });

  it("puts the Go SDK's package below the release's module path", () => {
    expect(schema.language.go.importBasePath).toBe(
      "github.com/vendor-container/pulumi-vendor-container/sdk/go/vendorcontainer",
    );
  });
});
