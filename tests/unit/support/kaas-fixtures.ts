/**
 * Kaas test fixtures: a valid baseline, state built the way the provider builds it (inputs plus
 * `computedOutputs` of a service answer), paths into inputs for the unknown-value tables, and fast-check
 * arbitraries of valid inputs.
 */
import fc from "fast-check";
import type { KaasResponse, NodePoolResponse } from "../../../schemas";
import type { Inputs } from "../../../provider/common/check";
import type { CheckContext } from "../../../provider/common/arguments";
import { checkKind } from "../../../provider/common/describedProvider";
import { KAAS } from "../../../provider/kaas/descriptor";
import { computedOutputs } from "../../../provider/kaas/mapping";
import type { CheckedKaasInputs, NodePoolArgs } from "../../../provider/kaas/types";

/** What `check` of a Kaas knows in these tests: always a clock, for `upgradeDate`. */
export type KaasCheckContext = CheckContext & { now: number };

/** The clock of every check in these tests: 2026-06-01T12:00:00Z. */
export const NOW = Date.parse("2026-06-01T12:00:00Z");
/** The project id the stack configuration supplies. */
export const DEFAULT_PROJECT_ID = "proj-from-config";
/** The check context: fixed clock and a configured default project. */
export const CHECK_CONTEXT: KaasCheckContext = { now: NOW, defaultProjectId: DEFAULT_PROJECT_ID };
/** The kubeconfig placed in state by `stateOf`. */
export const KUBECONFIG = "apiVersion: v1\nkind: Config\n";

/** A valid cluster: one fixed pool, one autoscaling pool, every common optional argument set. */
export function baselineInputs(): Inputs {
  return {
    projectId: "proj-1",
    name: "prod",
    location: "ITBG-Bergamo",
    tags: ["team-a", "env-prod"],
    nodeCidr: { address: "10.10.0.0/16", name: "prod-nodes" },
    podCidr: "100.64.0.0/16",
    securityGroupName: "prod-sg",
    kubernetesVersion: "1.33.2",
    nodePools: [
      { name: "system", nodes: 3, instance: "K4A8", dataCenter: "ITBG-1" },
      {
        name: "workers",
        nodes: 4,
        instance: "K8A16",
        dataCenter: "ITBG-2",
        autoscaling: true,
        minCount: 2,
        maxCount: 10,
      },
    ],
    ha: false,
    maxCumulativeVolumeSize: 500,
    billingPeriod: "Month",
    identity: { clientId: "client-1", clientSecret: "s3cret" },
    authorizedIpRanges: ["203.0.113.0/24"],
    enablePrivateCluster: false,
    creationScope: "shop/dev/prod",
  };
}

/** Every argument set, with an existing VPC and subnet instead of `preset`. */
export function fullInputs(): Inputs {
  const { podCidr: _podCidr, ...rest } = baselineInputs();
  return {
    ...rest,
    podCidr: "10.244.0.0/16",
    preset: false,
    vpcUri: "/projects/proj-1/providers/Vendor.Network/vpcs/vpc-1",
    subnetUri: "/projects/proj-1/providers/Vendor.Network/vpcs/vpc-1/subnets/sn-1",
    upgradeDate: "2026-07-01T02:00:00Z",
    autoscalerProfile: { "scale-down-delay-after-add": "10m", expander: "least-waste" },
    deleteOnCascade: true,
    timeouts: { create: "1h", update: "40m", delete: "90s" },
    adoptId: "kaas-9",
  };
}

/** The checked (normalised) form of `raw`; throws when check reports any problem. */
export function checked(
  raw: Inputs,
  olds: Inputs = {},
  ctx: KaasCheckContext = CHECK_CONTEXT,
): CheckedKaasInputs {
  const { inputs, failures } = checkKind(KAAS, olds, raw, ctx);
  if (failures.length > 0) throw new Error(`fixture is invalid: ${JSON.stringify(failures)}`);
  return inputs;
}

/**
 * `from` with arguments replaced (`undefined` removes one), still typed as checked inputs: the mapping tests
 * patch in values `check` accepts, and remove optional arguments only.
 */
export function withArguments(from: CheckedKaasInputs, patch: Inputs): CheckedKaasInputs {
  const inputs: Inputs = { ...from, ...patch };
  for (const [key, value] of Object.entries(patch)) if (value === undefined) delete inputs[key];
  return inputs as CheckedKaasInputs;
}

/** How a faithful service answer may differ from the declared inputs. */
export interface ResponseOptions {
  id?: string;
  state?: string;
  /** The version running now (default: the declared one). */
  liveVersion?: string;
  /** A scheduled upgrade. */
  upgradeTo?: { value: string; scheduledAt?: string | null };
  /** Live node counts by pool name (default: the declared counts). */
  liveNodes?: Record<string, number>;
  /**
   * How pools answer their zone: `code` (`{code, name}`, the default) or `name` (the published `{name}` only,
   * a display label `Zone <code>` that differs from the code).
   */
  dataCenter?: "code" | "name";
}

const BILLING_ANSWER: Record<string, string> = { Hour: "hourly", Month: "monthly", Year: "yearly" };

/**
 * The service's answer for a cluster created from `inputs` (checked inputs), in the spellings the service
 * uses: lower-case `nodecidr`/`podcidr`, pool `instance` and `dataCenter` objects, `monthly` billing and
 * `hourly` when none was asked for (as the emulator answers), the creation tag among the tags. Pools also carry
 * node ids, as the emulator renders them under its `nodeIds: shown` reading: the provider must ignore them.
 */
export function responseFor(inputs: Inputs, options: ResponseOptions = {}): KaasResponse {
  const id = options.id ?? "kaas-1";
  const project = inputs.projectId as string;
  const prefix = `/projects/${project}/providers/Vendor.Container`;
  const nodeCidr = inputs.nodeCidr as { address: string; name: string };
  const pools: NodePoolResponse[] = (inputs.nodePools as NodePoolArgs[]).map((pool) => {
    const autoscaling = pool.autoscaling === true;
    const nodes = options.liveNodes?.[pool.name] ?? pool.nodes;
    return {
      name: pool.name,
      nodes,
      autoscaling,
      minCount: autoscaling ? (pool.minCount ?? null) : null,
      maxCount: autoscaling ? (pool.maxCount ?? null) : null,
      instance: { name: pool.instance, cpu: "4", ram: "8", diskSizeGb: "50", price: 0.1 },
      dataCenter:
        options.dataCenter === "name"
          ? { name: `Zone ${pool.dataCenter}` }
          : { code: pool.dataCenter, name: `Zone ${pool.dataCenter}` },
      nodeIds: Array.from({ length: nodes }, (_, i) => `${pool.name}-node-${i + 1}`),
    };
  });
  const tags = [
    ...((inputs.tags as string[] | undefined) ?? []),
    `pulumi-ct-${inputs.creationToken as string}`,
  ];
  const period = inputs.billingPeriod as string | undefined;
  return {
    metadata: {
      id,
      uri: `${prefix}/kaas/${id}`,
      name: inputs.name as string,
      location: { value: inputs.location as string },
      tags,
      creationDate: "2026-05-01T10:00:00Z",
      category: { name: "Container", provider: "Vendor.Container", typology: { id: "kaas", name: "KaaS" } },
    },
    status: {
      state: options.state ?? "Active",
      failureReason: null,
      error: null,
      disableStatusInfo: { isDisabled: false, reasons: [] },
    },
    properties: {
      preset: inputs.preset === true,
      vpc: {
        uri:
          (inputs.vpcUri as string | undefined) ??
          `/projects/${project}/providers/Vendor.Network/vpcs/vpc-${id}`,
      },
      subnet: {
        uri:
          (inputs.subnetUri as string | undefined) ??
          `/projects/${project}/providers/Vendor.Network/vpcs/vpc-${id}/subnets/subnet-${id}`,
      },
      kubernetesVersion: {
        value: options.liveVersion ?? (inputs.kubernetesVersion as string),
        endOfSupportDate: "2026-10-31T00:00:00.000Z",
        recommended: true,
        upgradeTo: options.upgradeTo ?? null,
      },
      nodePools: pools,
      podcidr: { address: (inputs.podCidr as string | undefined) ?? "10.244.0.0/16" },
      nodecidr: { ...nodeCidr, uri: `${prefix}/kaas/${id}/nodecidr` },
      securityGroup: {
        name: (inputs.securityGroupName as string | undefined) ?? `sg-${id}`,
        uri: `/projects/${project}/providers/Vendor.Network/securityGroups/sg-${id}`,
      },
      ha: inputs.ha === true,
      storage: { maxCumulativeVolumeSize: (inputs.maxCumulativeVolumeSize as number | undefined) ?? null },
      billingPlan: { billingPeriod: period ? BILLING_ANSWER[period] : "hourly" },
      managementIp: "198.51.100.7",
      identity: { clientId: (inputs.identity as { clientId?: string } | undefined)?.clientId ?? null },
      apiServerAccessProfile: {
        authorizedIpRanges: (inputs.authorizedIpRanges as string[] | undefined) ?? null,
        enablePrivateCluster: inputs.enablePrivateCluster === true,
      },
    },
    data: { private: { phase: { name: "Ready" } } },
  };
}

/** The state (`olds` of diff): the inputs plus the computed outputs of `response`, as the provider stores them. */
export function stateOf(inputs: Inputs, response: KaasResponse = responseFor(inputs)): Inputs {
  return { ...inputs, ...computedOutputs(response, KUBECONFIG) };
}

/** One step of a path into inputs: an object key or an array index. */
export type Path = (string | number)[];

/** `nodePools[1].minCount` */
export const formatPath = (path: Path): string =>
  path.map((step, i) => (typeof step === "number" ? `[${step}]` : i === 0 ? step : `.${step}`)).join("");

/** Every path into `value` (objects and arrays and their members, depth first), not the root. */
export function pathsOf(value: unknown, prefix: Path = []): Path[] {
  const children: [string | number, unknown][] = Array.isArray(value)
    ? value.map((v, i) => [i, v])
    : value !== null && typeof value === "object"
      ? Object.entries(value)
      : [];
  return children.flatMap(([step, child]) => [[...prefix, step], ...pathsOf(child, [...prefix, step])]);
}

/** The value at `path`. */
export function getAt(value: unknown, path: Path): unknown {
  return path.reduce<unknown>((v, step) => (v as Record<string | number, unknown>)[step], value);
}

/** A deep copy of `value` with `path` set to `replacement`. */
export function setAt<T>(value: T, path: Path, replacement: unknown): T {
  const copy = structuredClone(value);
  const parent = getAt(copy, path.slice(0, -1)) as Record<string | number, unknown>;
  parent[path[path.length - 1]] = replacement;
  return copy;
}

/** Paths under `value` that hold `undefined` (an output must have none). */
export function undefinedPaths(value: unknown, prefix: Path = []): string[] {
  if (value === undefined) return [formatPath(prefix) || "(root)"];
  if (Array.isArray(value)) return value.flatMap((v, i) => undefinedPaths(v, [...prefix, i]));
  if (value !== null && typeof value === "object")
    return Object.entries(value).flatMap(([k, v]) => undefinedPaths(v, [...prefix, k]));
  return [];
}

// ---------------------------------------------------------------------------------------------------------
// Arbitraries of valid inputs.

const octet = fc.integer({ min: 0, max: 255 });

/** `a.b.c.d/prefix` with the host bits cleared. */
export function formatCidr(address: number, prefix: number): string {
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  const base = (address & mask) >>> 0;
  return `${base >>> 24}.${(base >>> 16) & 255}.${(base >>> 8) & 255}.${base & 255}/${prefix}`;
}

const ipv4 = (a: number, b: number, c: number, d: number) => ((a << 24) >>> 0) + (b << 16) + (c << 8) + d;

/** A CIDR within 10.0.0.0/8, 172.16.0.0/12 or 192.168.0.0/16. */
export const privateCidrArb: fc.Arbitrary<string> = fc.oneof(
  fc
    .tuple(octet, octet, octet, fc.integer({ min: 8, max: 32 }))
    .map(([b, c, d, prefix]) => formatCidr(ipv4(10, b, c, d), prefix)),
  fc
    .tuple(fc.integer({ min: 16, max: 31 }), octet, octet, fc.integer({ min: 12, max: 32 }))
    .map(([b, c, d, prefix]) => formatCidr(ipv4(172, b, c, d), prefix)),
  fc
    .tuple(octet, octet, fc.integer({ min: 16, max: 32 }))
    .map(([c, d, prefix]) => formatCidr(ipv4(192, 168, c, d), prefix)),
);

/** Any IPv4 CIDR. */
export const cidrArb: fc.Arbitrary<string> = fc
  .tuple(octet, octet, octet, octet, fc.integer({ min: 0, max: 32 }))
  .map(([a, b, c, d, prefix]) => formatCidr(ipv4(a, b, c, d), prefix));

/** `1.33` or `1.33.2` style versions. */
export const versionArb: fc.Arbitrary<string> = fc
  .tuple(fc.integer({ min: 28, max: 36 }), fc.option(fc.integer({ min: 0, max: 20 }), { nil: undefined }))
  .map(([minor, patch]) => (patch === undefined ? `1.${minor}` : `1.${minor}.${patch}`));

/** An ISO date-time after `NOW` (within about a year). */
export const futureDateArb: fc.Arbitrary<string> = fc
  .integer({ min: 60_000, max: 400 * 24 * 3600_000 })
  .map((ms) => new Date(NOW + ms).toISOString());

/** A node pool name: 1-40 lower-case letters, digits or '-', starting and ending with a letter or digit. */
export const poolNameArb: fc.Arbitrary<string> = fc.stringMatching(/^[a-z0-9]([-a-z0-9]{0,38}[a-z0-9])?$/);

const instanceArb = fc.constantFrom("K2A4", "K4A8", "K8A16");
const zoneArb = fc.constantFrom("ITBG-1", "ITBG-2", "ITBG-3");
const nameArb = fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/);

/** A pool with a fixed node count (`autoscaling` absent or false). */
export const fixedPoolArb: fc.Arbitrary<NodePoolArgs> = fc.record(
  {
    name: poolNameArb,
    nodes: fc.integer({ min: 1, max: 50 }),
    instance: instanceArb,
    dataCenter: zoneArb,
    autoscaling: fc.constant(false),
  },
  { noNullPrototype: true, requiredKeys: ["name", "nodes", "instance", "dataCenter"] },
);

/** An autoscaling pool with `minCount <= nodes <= maxCount`. */
export const autoscalingPoolArb: fc.Arbitrary<NodePoolArgs> = fc
  .record({
    name: poolNameArb,
    instance: instanceArb,
    dataCenter: zoneArb,
    minCount: fc.integer({ min: 0, max: 5 }),
    span: fc.integer({ min: 1, max: 10 }),
  })
  .chain(({ span, ...pool }) =>
    fc.integer({ min: pool.minCount, max: pool.minCount + span }).map((nodes) => ({
      ...pool,
      nodes,
      autoscaling: true,
      maxCount: pool.minCount + span,
    })),
  );

/** One to four pools with unique names. */
export const nodePoolsArb: fc.Arbitrary<NodePoolArgs[]> = fc.uniqueArray(
  fc.oneof(fixedPoolArb, autoscalingPoolArb),
  {
    selector: (pool) => pool.name,
    minLength: 1,
    maxLength: 4,
  },
);

const uriArb = (kind: string) =>
  fc
    .integer({ min: 1, max: 99 })
    .map((n) => `/projects/proj-1/providers/Vendor.Network/${kind}/${kind}-${n}`);

/** The network arguments: preset (explicit or defaulted) or an existing VPC and subnet. */
export const networkArb: fc.Arbitrary<Inputs> = fc.oneof(
  fc.constant({}),
  fc.constant({ preset: true }),
  fc.record(
    { vpcUri: uriArb("vpcs"), subnetUri: uriArb("subnets"), preset: fc.constant(false) },
    { noNullPrototype: true, requiredKeys: ["vpcUri", "subnetUri"] },
  ),
);

export const nodeCidrArb = fc.record({ address: privateCidrArb, name: nameArb }, { noNullPrototype: true });
export const identityArb = fc.record(
  { clientId: nameArb, clientSecret: fc.string({ minLength: 1, maxLength: 12 }) },
  { noNullPrototype: true, requiredKeys: [] },
);
export const autoscalerProfileArb = fc.record(
  {
    "scale-down-delay-after-add": fc.constantFrom("5m", "10m", "20m"),
    expander: fc.constantFrom("random", "least-waste", "priority"),
  },
  { noNullPrototype: true, requiredKeys: [] },
);
const durationArb = fc.oneof(
  fc.constantFrom("40m", "1h", "1h30m", "90s", "2h5m10s"),
  fc.integer({ min: 1, max: 600 }),
);
const tagArb = nameArb.filter((tag) => !tag.startsWith("pulumi-ct-"));

/** Valid Kaas inputs as a program declares them (before check). */
export const kaasInputsArb: fc.Arbitrary<Inputs> = fc
  .tuple(
    fc.record(
      {
        projectId: fc.constantFrom("proj-1", "proj-2"),
        name: nameArb,
        location: fc.constantFrom("ITBG-Bergamo", "ITMI-Milano"),
        tags: fc.array(tagArb, { maxLength: 3 }),
        nodeCidr: nodeCidrArb,
        podCidr: cidrArb,
        securityGroupName: nameArb,
        kubernetesVersion: versionArb,
        upgradeDate: futureDateArb,
        nodePools: nodePoolsArb,
        ha: fc.boolean(),
        maxCumulativeVolumeSize: fc.integer({ min: 1, max: 100_000 }),
        billingPeriod: fc.constantFrom("Hour", "Month", "Year"),
        identity: identityArb,
        authorizedIpRanges: fc.array(cidrArb, { maxLength: 3 }),
        enablePrivateCluster: fc.boolean(),
        autoscalerProfile: autoscalerProfileArb,
        deleteOnCascade: fc.boolean(),
        timeouts: fc.record(
          { create: durationArb, update: durationArb, delete: durationArb },
          { noNullPrototype: true, requiredKeys: [] },
        ),
        adoptId: fc.constantFrom("kaas-1", "kaas-2"),
        creationScope: fc.constantFrom("shop/dev/prod", "shop/prod/prod"),
      },
      {
        noNullPrototype: true,
        requiredKeys: ["name", "location", "nodeCidr", "kubernetesVersion", "nodePools"],
      },
    ),
    networkArb,
  )
  .map(([inputs, network]) => ({ ...inputs, ...network }));

/** Valid Kaas inputs after check (defaults applied, creation token set), as diff and mapping see them. */
export const checkedKaasInputsArb: fc.Arbitrary<CheckedKaasInputs> = kaasInputsArb.map((raw) => checked(raw));
