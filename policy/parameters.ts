/**
 * Every rule's parameters are closed: a parameter its configuration schema does not list (a misspelt
 * `maxNodez`) is a violation of that rule, naming it, instead of being ignored while the rule keeps its default.
 */
import type {
  Policy,
  PolicyConfigSchema,
  ResourceValidation,
  ResourceValidationArgs,
  ResourceValidationPolicy,
  ReportViolation,
  StackValidation,
  StackValidationArgs,
  StackValidationPolicy,
} from "@pulumi/policy";

/** A configuration schema that lists every parameter of its rule and admits no other. */
export type ClosedConfigSchema = PolicyConfigSchema & { additionalProperties: false };

/**
 * What a rule reports when its configuration names a parameter outside its schema: its `message` is the
 * violation's text. It carries no stack trace, as it is the user's to fix, not a bug.
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

/** The violation text for `configured`'s parameters outside `schema`, or undefined when there are none. */
function unknownParameterMessage(
  name: string,
  schema: PolicyConfigSchema,
  configured: object,
): string | undefined {
  const unknown = unknownParameters(schema, configured);
  return unknown.length > 0
    ? new PolicyParameterError(name, unknown, Object.keys(schema.properties)).message
    : undefined;
}

/** Type token of the stack's root resource: the first resource of every run that a resource rule judges. */
const ROOT_STACK_TYPE = "pulumi:pulumi:Stack";

/**
 * `policy` with a closed configuration schema (`additionalProperties: false`). The engine validates a pack's
 * configuration against each rule's `properties` and `required` only (`@pulumi/policy` 1.21 sends nothing
 * else, and CLI 3.274 builds an open object schema of them), so the rule itself refuses what the schema leaves
 * out: it reports one violation naming the unknown parameters (a resource rule on the stack's root resource, a
 * stack rule on the stack) and judges nothing else, so a mandatory rule fails the preview and an advisory one
 * warns. It reports rather than throws: a rule that throws makes the engine abandon the update while the program
 * is still registering resources, and the program then dies with a gRPC error and a JavaScript stack trace.
 */
// Typed as the policy given: the copy keeps every member of `policy` and replaces only `configSchema` and the
// validation it wraps, with functions of the same signature. The signature says so once.
export function closedParameters<P extends ResourceValidationPolicy | StackValidationPolicy>(
  policy: P & { configSchema: PolicyConfigSchema },
): P & { configSchema: ClosedConfigSchema };
export function closedParameters(
  policy: Policy & {
    configSchema: PolicyConfigSchema;
    validateResource?: ResourceValidation | ResourceValidation[];
    validateStack?: StackValidation;
  },
): (ResourceValidationPolicy | StackValidationPolicy) & { configSchema: ClosedConfigSchema } {
  const schema: ClosedConfigSchema = { ...policy.configSchema, additionalProperties: false };
  if ("validateStack" in policy && policy.validateStack) {
    const validate = policy.validateStack;
    const validateStack = (args: StackValidationArgs, report: ReportViolation) => {
      const refused = unknownParameterMessage(policy.name, schema, args.getConfig());
      if (refused) return report(refused);
      return validate(args, report);
    };
    return { ...policy, configSchema: schema, validateStack };
  }
  const validations = policy.validateResource;
  const list = Array.isArray(validations) ? validations : validations ? [validations] : [];
  const validateResource = list.map(
    (validate, index) => (args: ResourceValidationArgs, report: ReportViolation) => {
      const refused = unknownParameterMessage(policy.name, schema, args.getConfig());
      if (refused) {
        // Once per run, from the first of the rule's validations: the root resource comes first.
        if (args.type === ROOT_STACK_TYPE && index === 0) report(refused);
        return;
      }
      return validate(args, report);
    },
  );
  return {
    ...policy,
    configSchema: schema,
    validateResource: validateResource.length === 1 ? validateResource[0] : validateResource,
  };
}
