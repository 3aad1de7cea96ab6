/**
 * Every rule's parameters are closed: a parameter its configuration schema does not list (a misspelt
 * `maxNodez`) fails the preview, naming it, instead of being ignored while the rule keeps its default.
 */
import type {
  PolicyConfigSchema,
  ResourceValidationArgs,
  ResourceValidationPolicy,
  ReportViolation,
  StackValidationArgs,
  StackValidationPolicy,
} from "@pulumi/policy";

/** A configuration schema that lists every parameter of its rule and admits no other. */
export type ClosedConfigSchema = PolicyConfigSchema & { additionalProperties: false };

/**
 * The error a rule fails with when its configuration names a parameter outside its schema. It carries no stack
 * trace: `@pulumi/policy` prints an error's `stack` to the CLI, and this one is the user's to fix, not a bug.
 */
export class PolicyParameterError extends Error {
  constructor(policyName: string, unknown: readonly string[], known: readonly string[]) {
    const names = unknown.map((name) => `"${name}"`).join(", ");
    super(
      `${policyName}: unknown ${unknown.length === 1 ? "parameter" : "parameters"} ${names} in the policy pack configuration; the parameters of ${policyName} are ${known.join(", ")}`,
    );
    this.name = "PolicyParameterError";
    this.stack = this.message;
  }
}

/** The parameters of `configured` (a rule's `getConfig()`) that `schema` does not list, in their order. */
export function unknownParameters(schema: PolicyConfigSchema, configured: object): string[] {
  return Object.keys(configured).filter((key) => !Object.hasOwn(schema.properties, key));
}

function refuseUnknown(name: string, schema: PolicyConfigSchema, configured: object): void {
  const unknown = unknownParameters(schema, configured);
  if (unknown.length > 0) throw new PolicyParameterError(name, unknown, Object.keys(schema.properties));
}

/**
 * `policy` with a closed configuration schema (`additionalProperties: false`), refusing any other parameter
 * before it judges anything. The engine validates a pack's configuration against each rule's `properties` and
 * `required` only (`@pulumi/policy` 1.21 sends nothing else, and CLI 3.274 builds an open object schema of
 * them), so the rule itself refuses what the schema leaves out: it throws, which fails the preview at whatever
 * enforcement level (except `disabled`, which runs nothing).
 */
export function closedParameters<P extends ResourceValidationPolicy | StackValidationPolicy>(
  policy: P & { configSchema: PolicyConfigSchema },
): P & { configSchema: ClosedConfigSchema } {
  type Closed = P & { configSchema: ClosedConfigSchema };
  const schema: ClosedConfigSchema = { ...policy.configSchema, additionalProperties: false };
  if ("validateStack" in policy && policy.validateStack) {
    const validate = policy.validateStack;
    const validateStack = (args: StackValidationArgs, report: ReportViolation) => {
      refuseUnknown(policy.name, schema, args.getConfig());
      return validate(args, report);
    };
    return { ...policy, configSchema: schema, validateStack } as unknown as Closed;
  }
  const resourcePolicy = policy as ResourceValidationPolicy;
  const validations = resourcePolicy.validateResource;
  const list = Array.isArray(validations) ? validations : validations ? [validations] : [];
  const validateResource = list.map((validate) => (args: ResourceValidationArgs, report: ReportViolation) => {
    refuseUnknown(policy.name, schema, args.getConfig());
    return validate(args, report);
  });
  return {
    ...policy,
    configSchema: schema,
    validateResource: validateResource.length === 1 ? validateResource[0] : validateResource,
  } as unknown as Closed;
}
