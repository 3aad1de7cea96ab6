/**
 * The contract of each kind as its users see it: which argument replaces the resource, which updates it in
 * place and which is ignored, and which names are outputs only. The expectations are written out here from
 * the spec (§2.3: the cluster update body; §2.6: only `billingPeriod` of a backup is updatable; §8: HA
 * cannot be turned off) and the SDK's documentation of each argument, and are driven only through the
 * public provider interface (`provider(kind).check` then `.diff`), never through the implementation's own
 * tables, so a wrong row in them fails here.
 */
import { provider } from "../../provider/index";
import {
  KAAS_ARGUMENTS,
  KAAS_BACKUP_ARGUMENTS,
  KAAS_BACKUP_COMPUTED_OUTPUTS,
  KAAS_COMPUTED_OUTPUTS,
  REGISTRY_ARGUMENTS,
  REGISTRY_COMPUTED_OUTPUTS,
  VOLUME_ATTACHMENT_ARGUMENTS,
  VOLUME_ATTACHMENT_COMPUTED_OUTPUTS,
} from "../support/output-names";

type Inputs = Record<string, unknown>;
type Effect = "replace" | "update" | "ignore";

/** One argument: a valid other value and what changing it does. */
interface Row {
  argument: string;
  /** The new value (`undefined` removes the argument). */
  value: unknown;
  effect: Effect;
}

interface Contract {
  kind: string;
  /** A valid set of arguments, as the SDK class passes them (with `creationScope`). */
  base: Inputs;
  rows: Row[];
  /** Every argument the kind accepts, as its SDK class documents them. */
  arguments: string[];
  /** The defaults `check` fills in for `base`. */
  defaults: Inputs;
  /** Names that are outputs only: never arguments, never returned by `check`. */
  computed: string[];
  /** Whether `check` adds a `creationToken` (all kinds but VolumeAttachment, which has no create call). */
  token: boolean;
  deleteBeforeReplace: boolean;
}

const SCOPE = "shop/dev/res";
const VOLUME = "/projects/proj-1/providers/Vendor.Storage/blockStorages/v-1";

const CONTRACTS: Contract[] = [
  {
    kind: "Kaas",
    base: {
      projectId: "proj-1",
      name: "prod",
      location: "ITBG-Bergamo",
      tags: ["team-a"],
      nodeCidr: { address: "10.10.0.0/16", name: "prod-nodes" },
      podCidr: "100.64.0.0/16",
      securityGroupName: "prod-sg",
      kubernetesVersion: "1.33.2",
      nodePools: [{ name: "system", nodes: 3, instance: "K4A8", dataCenter: "ITBG-1" }],
      creationScope: SCOPE,
    },
    rows: [
      { argument: "projectId", value: "proj-2", effect: "replace" },
      { argument: "name", value: "prod-2", effect: "update" },
      { argument: "location", value: "ITMI-Milano", effect: "replace" },
      { argument: "tags", value: ["team-b"], effect: "update" },
      { argument: "nodeCidr", value: { address: "10.11.0.0/16", name: "prod-nodes" }, effect: "replace" },
      { argument: "podCidr", value: "100.65.0.0/16", effect: "replace" },
      { argument: "securityGroupName", value: "other-sg", effect: "replace" },
      // Spec §2.3: the update body carries the version (with an optional upgradeDate), the pools and ha.
      { argument: "kubernetesVersion", value: "1.34.0", effect: "update" },
      { argument: "upgradeDate", value: "2099-01-01T02:00:00Z", effect: "update" },
      {
        argument: "nodePools",
        value: [{ name: "system", nodes: 5, instance: "K4A8", dataCenter: "ITBG-1" }],
        effect: "update",
      },
      { argument: "ha", value: true, effect: "update" },
      { argument: "maxCumulativeVolumeSize", value: 900, effect: "update" },
      { argument: "billingPeriod", value: "Year", effect: "update" },
      { argument: "identity", value: { clientId: "client-2", clientSecret: "s3cret" }, effect: "replace" },
      { argument: "authorizedIpRanges", value: ["198.51.100.0/24"], effect: "update" },
      { argument: "enablePrivateCluster", value: true, effect: "update" },
      { argument: "autoscalerProfile", value: { expander: "random" }, effect: "replace" },
      { argument: "deleteOnCascade", value: true, effect: "update" },
      { argument: "timeouts", value: { create: "2h" }, effect: "update" },
      { argument: "adoptId", value: "kaas-7", effect: "ignore" },
      { argument: "adoptFromScope", value: "shop/dev/old", effect: "ignore" },
      { argument: "creationScope", value: "shop/dev/other", effect: "update" },
    ],
    arguments: [...KAAS_ARGUMENTS, "adoptId", "adoptFromScope"],
    defaults: { preset: true },
    computed: KAAS_COMPUTED_OUTPUTS,
    token: true,
    deleteBeforeReplace: false,
  },
  {
    kind: "KaasBackup",
    base: {
      projectId: "proj-1",
      kaasId: "kaas-1",
      name: "nightly",
      location: "ITBG-Bergamo",
      type: "Full",
      retentionDays: 7,
      billingPeriod: "Month",
      creationScope: SCOPE,
    },
    // sdk/kaasBackup.ts: billingPeriod, name and tags update in place; type, retentionDays, kaasId,
    // location and projectId replace (spec §2.6: the update body carries billingPeriod only).
    rows: [
      { argument: "projectId", value: "proj-2", effect: "replace" },
      { argument: "kaasId", value: "kaas-2", effect: "replace" },
      { argument: "name", value: "weekly", effect: "update" },
      { argument: "location", value: "ITMI-Milano", effect: "replace" },
      { argument: "tags", value: ["t"], effect: "update" },
      { argument: "type", value: "Incremental", effect: "replace" },
      { argument: "retentionDays", value: 30, effect: "replace" },
      { argument: "billingPeriod", value: "Year", effect: "update" },
      { argument: "timeouts", value: { create: "5m" }, effect: "update" },
      { argument: "adoptId", value: "backup-9", effect: "ignore" },
      { argument: "adoptFromScope", value: "shop/dev/old", effect: "ignore" },
      { argument: "creationScope", value: "shop/dev/other", effect: "update" },
    ],
    arguments: [...KAAS_BACKUP_ARGUMENTS, "adoptId", "adoptFromScope"],
    defaults: {},
    computed: KAAS_BACKUP_COMPUTED_OUTPUTS,
    token: true,
    deleteBeforeReplace: false,
  },
  {
    kind: "Registry",
    base: {
      projectId: "proj-1",
      name: "images",
      location: "ITBG-Bergamo",
      adminUsername: "ops",
      size: "Small",
      billingPeriod: "Month",
      creationScope: SCOPE,
    },
    // sdk/registry.ts: billingPeriod, publicIpUri, name and tags update in place, and so does the
    // password reset trigger; the rest replaces.
    rows: [
      { argument: "projectId", value: "proj-2", effect: "replace" },
      { argument: "name", value: "images-2", effect: "update" },
      { argument: "location", value: "ITMI-Milano", effect: "replace" },
      { argument: "tags", value: ["t"], effect: "update" },
      { argument: "securityGroupUri", value: "/sg/2", effect: "replace" },
      { argument: "publicIpUri", value: "/ip/2", effect: "update" },
      { argument: "blockStorageUri", value: "/bs/2", effect: "replace" },
      { argument: "size", value: "Medium", effect: "replace" },
      { argument: "adminUsername", value: "ops2", effect: "replace" },
      { argument: "billingPeriod", value: "Year", effect: "update" },
      { argument: "adminPasswordResetTrigger", value: "2026-12", effect: "update" },
      { argument: "timeouts", value: { create: "5m" }, effect: "update" },
      { argument: "adoptId", value: "registry-9", effect: "ignore" },
      { argument: "adoptFromScope", value: "shop/dev/old", effect: "ignore" },
      { argument: "creationScope", value: "shop/dev/other", effect: "update" },
    ],
    arguments: [...REGISTRY_ARGUMENTS, "adoptId", "adoptFromScope"],
    defaults: { preset: true },
    computed: REGISTRY_COMPUTED_OUTPUTS,
    token: true,
    deleteBeforeReplace: false,
  },
  {
    kind: "VolumeAttachment",
    base: {
      projectId: "proj-1",
      kaasId: "kaas-1",
      nodePoolName: "system",
      nodeId: "node-1",
      volumeUri: VOLUME,
    },
    // sdk/volumeAttachment.ts: any change replaces it, detaching first; adoptId is ignored after create.
    rows: [
      { argument: "projectId", value: "proj-2", effect: "replace" },
      { argument: "kaasId", value: "kaas-2", effect: "replace" },
      { argument: "nodePoolName", value: "workers", effect: "replace" },
      { argument: "nodeId", value: "node-2", effect: "replace" },
      {
        argument: "volumeUri",
        value: "/projects/proj-1/providers/Vendor.Storage/blockStorages/v-2",
        effect: "replace",
      },
      { argument: "timeouts", value: { create: "5m" }, effect: "update" },
      { argument: "adoptId", value: `kaas-1:${VOLUME}`, effect: "ignore" },
      { argument: "creationScope", value: "shop/dev/other", effect: "ignore" },
    ],
    arguments: [...VOLUME_ATTACHMENT_ARGUMENTS, "adoptId"],
    defaults: {},
    computed: VOLUME_ATTACHMENT_COMPUTED_OUTPUTS,
    token: false,
    deleteBeforeReplace: true,
  },
];

/** `check` through the public interface; fails the test on any check failure. */
async function checked(kind: string, news: Inputs, olds: Inputs = {}): Promise<Inputs> {
  const { inputs, failures } = await provider(kind).check(olds, news);
  expect(failures).toEqual([]);
  return inputs;
}

/** `base` with one argument set (`undefined` removes it). */
function withArgument(base: Inputs, argument: string, value: unknown): Inputs {
  const next: Inputs = { ...base, [argument]: value };
  if (value === undefined) delete next[argument];
  return next;
}

const expected = (contract: Contract, row: Row) => ({
  changes: row.effect !== "ignore",
  replaces: row.effect === "replace" ? [row.argument] : [],
  deleteBeforeReplace: contract.deleteBeforeReplace,
});

describe.each(CONTRACTS.map((c) => [c.kind, c] as const))("%s", (_kind, contract) => {
  it("covers every argument the SDK documents", () => {
    const covered = new Set([...Object.keys(contract.base), ...contract.rows.map((r) => r.argument)]);
    expect(contract.arguments.filter((a) => !covered.has(a))).toEqual(
      // Arguments that cannot change alone: preset, vpcUri and subnetUri go together (covered below).
      contract.kind === "Kaas" || contract.kind === "Registry" ? ["preset", "vpcUri", "subnetUri"] : [],
    );
  });

  it("has no changes against its own state", async () => {
    const state = await checked(contract.kind, contract.base);
    const news = await checked(contract.kind, contract.base, state);
    await expect(provider(contract.kind).diff("id-1", state, news)).resolves.toEqual({
      changes: false,
      replaces: [],
      deleteBeforeReplace: contract.deleteBeforeReplace,
    });
  });

  it.each(contract.rows.map((row) => [row.argument, row.effect, row] as const))(
    "a change of %s: %s",
    async (_argument, _effect, row) => {
      const state = await checked(contract.kind, contract.base);
      const news = await checked(contract.kind, withArgument(contract.base, row.argument, row.value), state);
      await expect(provider(contract.kind).diff("id-1", state, news)).resolves.toEqual(
        expected(contract, row),
      );
      if (!contract.token) {
        expect(news).not.toHaveProperty("creationToken");
        return;
      }
      // A resource in the state keeps its creation token, whatever changed (creationScope included).
      expect(state.creationToken).toMatch(/^[0-9a-f]{20}$/);
      expect(news.creationToken).toBe(state.creationToken);
    },
  );

  if (contract.token) {
    // The engine checks a replacement with no old inputs: its token comes from the scope and the backend
    // only, so it is the token of the resource it replaces, and no argument (a secret least of all) seeds it.
    it.each(
      contract.rows
        .filter((row) => row.argument !== "creationScope")
        .map((row) => [row.argument, row] as const),
    )("a new resource differing in %s gets the same creation token", async (_argument, row) => {
      const state = await checked(contract.kind, contract.base);
      const fresh = await checked(contract.kind, withArgument(contract.base, row.argument, row.value));
      expect(fresh.creationToken).toBe(state.creationToken);
    });

    it("a new resource of another creationScope gets another creation token", async () => {
      const state = await checked(contract.kind, contract.base);
      const other = await checked(contract.kind, { ...contract.base, creationScope: "shop/dev/other" });
      expect(other.creationToken).toMatch(/^[0-9a-f]{20}$/);
      expect(other.creationToken).not.toBe(state.creationToken);
    });
  }

  it("check returns no computed output and refuses each as an argument", async () => {
    const inputs = await checked(contract.kind, contract.base);
    expect(Object.keys(inputs).filter((k) => contract.computed.includes(k))).toEqual([]);
    for (const name of contract.computed) {
      const { failures } = await provider(contract.kind).check({}, { ...contract.base, [name]: "x" });
      // A credential's refusal reaches the engine without its value (engine-failures.test.ts).
      expect(failures).toContainEqual(
        name === "kubeconfig"
          ? {
              property: "",
              reason: expect.stringMatching(/^kubeconfig = \[secret\]: is not a known argument/),
            }
          : { property: name, reason: expect.stringMatching(/^is not a known argument/) },
      );
    }
  });

  it("check keeps exactly the declared arguments, its defaults and the creation token", async () => {
    const token = contract.token ? { creationToken: expect.stringMatching(/^[0-9a-f]{20}$/) } : {};
    await expect(provider(contract.kind).check({}, contract.base)).resolves.toEqual({
      inputs: { ...contract.base, ...contract.defaults, ...token },
      failures: [],
    });
  });
});

describe("arguments that only change together", () => {
  const network = { preset: false, vpcUri: "/vpcs/v-1", subnetUri: "/subnets/s-1" };

  it.each([
    ["Kaas", "vpcUri", "/vpcs/v-2"],
    ["Kaas", "subnetUri", "/subnets/s-2"],
    ["Registry", "vpcUri", "/vpcs/v-2"],
    ["Registry", "subnetUri", "/subnets/s-2"],
  ])(
    "%s replaces when %s changes, keeping the creation token of the state",
    async (kind, argument, value) => {
      const contract = CONTRACTS.find((c) => c.kind === kind)!;
      const base = { ...contract.base, ...network };
      const state = await checked(kind, base);
      const news = await checked(kind, { ...base, [argument]: value }, state);
      await expect(provider(kind).diff("id-1", state, news)).resolves.toEqual({
        changes: true,
        replaces: [argument],
        deleteBeforeReplace: false,
      });
      expect(news.creationToken).toBe(state.creationToken);
    },
  );

  it.each(["Kaas", "Registry"])(
    "%s replaces when it moves from its own network to preset, keeping the creation token of the state",
    async (kind) => {
      const contract = CONTRACTS.find((c) => c.kind === kind)!;
      const state = await checked(kind, { ...contract.base, ...network });
      const news = await checked(kind, contract.base, state);
      expect(news.preset).toBe(true);
      const result = await provider(kind).diff("id-1", state, news);
      expect({ ...result, replaces: [...result.replaces].sort() }).toEqual({
        changes: true,
        replaces: ["preset", "subnetUri", "vpcUri"],
        deleteBeforeReplace: false,
      });
      expect(news.creationToken).toBe(state.creationToken);
    },
  );

  it.each(["Kaas", "Registry"])("%s has no change when preset is given as its default", async (kind) => {
    const contract = CONTRACTS.find((c) => c.kind === kind)!;
    const state = await checked(kind, contract.base);
    const news = await checked(kind, { ...contract.base, preset: true }, state);
    await expect(provider(kind).diff("id-1", state, news)).resolves.toEqual({
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
    });
    expect(news.creationToken).toBe(state.creationToken);
  });
});

describe("Kaas refusals that must not become replacements", () => {
  const contract = CONTRACTS[0];

  it("refuses turning ha off at check (spec §8)", async () => {
    const state = await checked("Kaas", { ...contract.base, ha: true });
    const { failures } = await provider("Kaas").check(state, { ...contract.base, ha: false });
    expect(failures).toEqual([
      {
        property: "ha",
        reason:
          "cannot be disabled: the service cannot turn high availability off once enabled, and replacing the cluster would destroy it; keep ha: true",
      },
    ]);
  });

  it("refuses a version downgrade at check", async () => {
    const state = await checked("Kaas", contract.base);
    const { failures } = await provider("Kaas").check(state, {
      ...contract.base,
      kubernetesVersion: "1.32.9",
    });
    expect(failures).toEqual([
      {
        property: "kubernetesVersion",
        reason: "cannot go down from 1.33.2 to 1.32.9: the service does not downgrade clusters",
      },
    ]);
  });
});
