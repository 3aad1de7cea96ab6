/**
 * Two readings of the published interface through the real engine, in one stack against one emulator: a
 * registry with `vpcUri` and `subnetUri` created while the service accepts a `vpc` in the create and while it
 * refuses one (`registryVpc`; api-notes "Registry"), and a volume detached after its node is gone, with the
 * node-level detach answered 400 (`goneNode`; api-notes "Volumes").
 */
import type { Stack } from "@pulumi/pulumi/automation";
import { STRICT_WIRE } from "../../emulator";
import { SYSTEM_POOL, attachment, cluster, registry } from "./support/args";
import { PROJECT, openSuite, upWith, type Declared, type Suite } from "./support/suite";

const KAAS = "kaas-0001";
const NETWORK = `/projects/${PROJECT}/providers/Vendor.Network`;
const VPC = `${NETWORK}/vpcs/vpc-e2e`;
const SUBNET = `${VPC}/subnets/subnet-e2e`;

describe("wire readings through pulumi: the registry's VPC and the detach on a gone node", () => {
  let s: Suite;
  let stack: Stack;
  /** The second node of the system pool, as `kubectl get nodes` shows it. */
  let node: string;

  beforeAll(async () => {
    s = await openSuite("readings", { wire: { ...STRICT_WIRE, registryVpc: "accepted" } });
    stack = await s.stack("dev", s.program("readings"));
  });
  afterAll(async () => {
    await s?.close();
  });

  const small = () => cluster({ nodePools: [SYSTEM_POOL] });
  const images = (name: string): Declared => ({
    ...registry({ name: `e2e-${name}`, vpcUri: VPC, subnetUri: SUBNET }),
    name,
  });

  it("creates a registry with vpcUri and subnetUri while the service accepts a vpc in the create", async () => {
    const { calls, outputs } = await upWith(s, stack, [small(), images("accepted")]);
    node = s.emulator.emulator.nodes(KAAS)[0].nodeIds[1];
    // The cluster and the registry are created side by side: the order of their calls is not fixed.
    expect(calls.sort()).toEqual(
      ["POST /kaas", `PUT /kaas/${KAAS}`, "POST /registries", "PUT /registries/registry-0001"].sort(),
    );
    expect([
      outputs["accepted.state"],
      outputs["accepted.currentVpcUri"],
      outputs["accepted.currentSubnetUri"],
    ]).toEqual(["Active", VPC, SUBNET]);
  });

  it("creates one while the service refuses a vpc in the create, and attaches a volume", async () => {
    s.emulator.emulator.updateConfig({ wire: { registryVpc: "rejected" } });
    const { calls, outputs } = await upWith(s, stack, [
      small(),
      images("accepted"),
      images("rejected"),
      attachment(node),
    ]);
    expect(calls.sort()).toEqual(
      [
        "POST /registries",
        "PUT /registries/registry-0002",
        `POST /kaas/${KAAS}/nodePools/system/nodes/${node}/attach`,
      ].sort(),
    );
    expect([
      outputs["rejected.state"],
      outputs["rejected.currentVpcUri"],
      outputs["rejected.currentSubnetUri"],
    ]).toEqual(["Active", VPC, SUBNET]);
  });

  it("detaches at cluster level when the node is gone and its detach is answered 400", async () => {
    s.emulator.emulator.scaleNodePool(KAAS, "system", 1);
    s.emulator.emulator.advanceClock(60_000);
    const { calls, summary } = await upWith(s, stack, [small(), images("accepted"), images("rejected")]);
    expect(summary.resourceChanges).toEqual({ same: 4, delete: 1 });
    expect(calls).toEqual([
      `POST /kaas/${KAAS}/nodePools/system/nodes/${node}/detach`,
      `POST /kaas/${KAAS}/detach`,
    ]);
    expect(
      s
        .requests()
        .filter((r) => r.mutating)
        .map((r) => r.status),
    ).toEqual([400, 202]);
    s.emulator.emulator.advanceClock(1000);
    expect(s.emulator.emulator.attachments(KAAS)).toEqual([]);
  });
});
