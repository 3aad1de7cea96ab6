/**
 * Registry wire mapping: the computed outputs of a service answer (exact values, sparse answers, no
 * undefined, nothing secret), their agreement with the computed-key list, and a state written before some
 * outputs existed.
 */
import { checkKind, diffKind } from "../../provider/common/describedProvider";
import { REGISTRY } from "../../provider/registry/descriptor";
import {
  registryComputed,
  registryInsertBody,
  registryLiveInputs,
  vpcMismatch,
} from "../../provider/registry/mapping";
import type { RegistryResponse } from "../../schemas";
import { undefinedPaths } from "./support/kaas-fixtures";
import { REGISTRY_COMPUTED_OUTPUTS } from "../support/output-names";

const NETWORK = "/projects/proj-1/providers/Vendor.Network";
const VPC = `${NETWORK}/vpcs/vpc-registry-1`;
const SUBNET = `${VPC}/subnets/subnet-registry-1`;
const SECURITY_GROUP = `${NETWORK}/securityGroups/sg-images`;
const PUBLIC_IP = `${NETWORK}/elasticIps/eip-1`;
const BLOCK_STORAGE = "/projects/proj-1/providers/Vendor.Storage/blockStorages/bs-1";

/** A complete answer for a preset registry, with a password-like field the service should never send. */
function answer(): RegistryResponse {
  return {
    metadata: {
      id: "registry-1",
      uri: "/projects/proj-1/providers/Vendor.Container/containerRegistries/registry-1",
      name: "images",
      tags: [],
    },
    status: { state: "Active" },
    properties: {
      preset: true,
      vpc: { uri: VPC },
      subnet: { uri: SUBNET },
      securityGroup: { uri: SECURITY_GROUP },
      publicIp: { uri: PUBLIC_IP },
      blockStorage: { uri: BLOCK_STORAGE },
      billingPlan: { billingPeriod: "monthly" },
      adminUser: { username: "ops", password: "never-in-state" } as { username: string },
      size: "Medium",
    },
    data: {
      private: { passwordSet: true, adminPasswordLastSetDate: "2026-05-01T10:00:00Z" },
      info: {
        version: null,
        privateBaseUrl: "https://registry-1.internal.example",
        publicBaseUrl: "https://images.example",
        fqdn: "images.example",
      },
    },
  };
}

describe("registryComputed", () => {
  it("maps a complete answer exactly, with the network, storage, size and admin user the service reports", () => {
    expect(registryComputed(answer(), "2.11.1")).toStrictEqual({
      registryId: "registry-1",
      uri: "/projects/proj-1/providers/Vendor.Container/containerRegistries/registry-1",
      state: "Active",
      fqdn: "images.example",
      publicBaseUrl: "https://images.example",
      privateBaseUrl: "https://registry-1.internal.example",
      engineVersion: "2.11.1",
      passwordSet: true,
      adminPasswordLastSetDate: "2026-05-01T10:00:00Z",
      currentVpcUri: VPC,
      currentSubnetUri: SUBNET,
      currentSecurityGroupUri: SECURITY_GROUP,
      currentBlockStorageUri: BLOCK_STORAGE,
      currentPublicIpUri: PUBLIC_IP,
      currentSize: "Medium",
      currentAdminUsername: "ops",
    });
  });

  it("never carries a password the answer might hold into the outputs", () => {
    expect(JSON.stringify(registryComputed(answer(), null))).not.toContain("never-in-state");
  });

  it("maps a bare answer to nulls, with no undefined anywhere", () => {
    const outputs = registryComputed({ metadata: { id: "registry-2" }, properties: {} }, null);
    expect(outputs).toStrictEqual({
      registryId: "registry-2",
      uri: null,
      state: null,
      fqdn: null,
      publicBaseUrl: null,
      privateBaseUrl: null,
      engineVersion: null,
      passwordSet: null,
      adminPasswordLastSetDate: null,
      currentVpcUri: null,
      currentSubnetUri: null,
      currentSecurityGroupUri: null,
      currentBlockStorageUri: null,
      currentPublicIpUri: null,
      currentSize: null,
      currentAdminUsername: null,
    });
    expect(undefinedPaths(outputs)).toEqual([]);
  });

  it("produces exactly the computed outputs the SDK class declares", () => {
    expect(Object.keys(registryComputed(answer(), null)).sort()).toEqual(
      [...REGISTRY_COMPUTED_OUTPUTS].sort(),
    );
  });
});

describe("a state written before the network, storage, size and admin user were outputs", () => {
  const declared = checkKind(
    REGISTRY,
    {},
    {
      name: "images",
      location: "ITBG-Bergamo",
      adminUsername: "ops",
      size: "Medium",
      publicIpUri: PUBLIC_IP,
      billingPeriod: "Month",
    },
    { defaultProjectId: "proj-1" },
  ).inputs;
  const older = Object.fromEntries(
    Object.entries(registryComputed(answer(), null)).filter(([k]) => !k.startsWith("current")),
  );

  it("shows no change against the unchanged program", () => {
    expect(diffKind(REGISTRY, { ...declared, ...older }, declared)).toStrictEqual({
      changes: false,
      replaces: [],
      updates: [],
    });
  });

  it("refreshes to the declared inputs: the preset-created URIs are outputs, not inputs", () => {
    expect(registryLiveInputs(declared, answer())).toStrictEqual(declared);
  });
});

describe("the billing period on refresh", () => {
  const declared = (billingPeriod?: string) =>
    checkKind(
      REGISTRY,
      {},
      {
        name: "images",
        location: "ITBG-Bergamo",
        adminUsername: "ops",
        publicIpUri: PUBLIC_IP,
        ...(billingPeriod ? { billingPeriod } : {}),
      },
      { defaultProjectId: "proj-1" },
    ).inputs;

  it("does not adopt the service's default when the program declares none", () => {
    const inputs = declared();
    expect(registryLiveInputs(inputs, answer()).billingPeriod).toBeUndefined();
    expect(registryLiveInputs(inputs, answer())).toStrictEqual(inputs);
  });

  it("takes a declared period changed out of band, in the input spelling", () => {
    expect(registryLiveInputs(declared("Year"), answer()).billingPeriod).toBe("Month");
  });
});

describe('the registry\'s VPC (api-notes "Registry"): never sent, checked against the answer', () => {
  const OTHER_VPC = `${NETWORK}/vpcs/vpc-other`;
  const check = (network: Record<string, unknown>) =>
    checkKind(
      REGISTRY,
      {},
      { name: "images", location: "ITBG-Bergamo", adminUsername: "ops", ...network },
      { defaultProjectId: "proj-1" },
    );

  it("sends the subnet and no vpc when vpcUri and subnetUri are declared", () => {
    const { inputs, failures } = check({ vpcUri: VPC, subnetUri: SUBNET });
    expect(failures).toEqual([]);
    expect(registryInsertBody(inputs).properties).toStrictEqual({
      subnet: { uri: SUBNET },
      adminUser: { username: "ops" },
    });
  });

  it.each<[string, Record<string, unknown>, { property: string; reason: string }[]]>([
    ["takes subnetUri alone", { subnetUri: SUBNET }, []],
    ["takes vpcUri with subnetUri", { vpcUri: VPC, subnetUri: SUBNET }, []],
    [
      "refuses vpcUri without subnetUri",
      { vpcUri: VPC },
      [{ property: "subnetUri", reason: "is required together with vpcUri" }],
    ],
    [
      "refuses preset false without subnetUri",
      { preset: false },
      [{ property: "preset", reason: "is false but subnetUri is not given: there would be no network" }],
    ],
    [
      "refuses preset true with subnetUri",
      { preset: true, subnetUri: SUBNET },
      [
        {
          property: "preset",
          reason: "cannot be true together with vpcUri or subnetUri: the service would create its own VPC",
        },
      ],
    ],
  ])("check %s", (_label, network, failures) => {
    expect(check(network).failures).toEqual(failures);
  });

  it.each<[string, Record<string, unknown>, string | null, string | undefined]>([
    ["no vpcUri declared", { subnetUri: SUBNET }, OTHER_VPC, undefined],
    ["the reported VPC", { vpcUri: VPC, subnetUri: SUBNET }, VPC, undefined],
    [
      "the same VPC as a full URL",
      { vpcUri: `https://api.example${VPC}/`, subnetUri: SUBNET },
      VPC,
      undefined,
    ],
    ["no VPC reported", { vpcUri: VPC, subnetUri: SUBNET }, null, undefined],
    [
      "another VPC",
      { vpcUri: OTHER_VPC, subnetUri: SUBNET },
      VPC,
      `vpcUri "${OTHER_VPC}" is not the registry's VPC: the service reports "${VPC}" for subnetUri ` +
        `"${SUBNET}"; set vpcUri to that VPC, or leave it out`,
    ],
  ])("vpcMismatch with %s", (_label, network, reported, expected) => {
    const live = answer();
    live.properties.vpc = { uri: reported };
    expect(vpcMismatch(check(network).inputs, live)).toBe(expected);
  });
});
