/**
 * The policy pack's page, docs/policy.md: its configuration example valid against the rules' schemas, its
 * table of rules and levels true, the launcher and folder named as they ship.
 */
import fs from "node:fs";
import path from "node:path";
import Ajv from "ajv";
import { vendorContainerPolicies } from "../../policy/index";

const ROOT = path.resolve(__dirname, "../..");

describe("the policy pack's page, docs/policy.md", () => {
  const section = fs.readFileSync(path.join(ROOT, "docs/policy.md"), "utf8");
  const policies = vendorContainerPolicies();

  it("gives a configuration example the engine accepts: known rules, levels and parameters in their schemas", () => {
    expect(section.startsWith("# Policy pack\n")).toBe(true);
    const example = JSON.parse(/```json\n([\s\S]*?)```/.exec(section)![1]) as Record<string, unknown>;
    expect(Object.keys(example).sort()).toEqual(policies.map((p) => p.name).sort());
    const ajv = new Ajv({ strict: false });
    const level = { type: "string", enum: ["advisory", "mandatory", "disabled"] };
    for (const policy of policies) {
      const validate = ajv.compile({
        anyOf: [
          level,
          {
            type: "object",
            properties: { enforcementLevel: level, ...policy.configSchema!.properties },
            additionalProperties: false,
          },
        ],
      });
      expect([policy.name, validate(example[policy.name]), validate.errors ?? null]).toEqual([
        policy.name,
        true,
        null,
      ]);
    }
  });

  it("lists every rule with its default level, marking the stack rules", () => {
    for (const policy of policies) {
      const marker = "validateStack" in policy ? " (stack)" : "";
      expect(section).toContain(`| \`${policy.name}\`${marker} | ${policy.enforcementLevel} | `);
    }
  });

  it("shows the launcher and the folder as they ship", () => {
    expect(section).toContain("--policy-pack node_modules/pulumi-vendor-container/policy/run-policy-pack");
    expect(section).toContain("--policy-pack node_modules/pulumi-vendor-container/policy ");
    expect(section).toContain("npm install pulumi-vendor-container @pulumi/pulumi @pulumi/policy");
  });
});
