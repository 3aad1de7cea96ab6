/**
 * `vendor:kubeconfigRefresh` through the real engine, where what a refresh does depends on the config the engine
 * gives the provider: a refresh that does not run the program uses the config of the last run that did. Under
 * `onChange` (set before the first `up`) a `pulumi refresh` of a cluster that did not change reads the cluster
 * alone (one request) and keeps the kubeconfig of the state; once the setting is removed and a run with the
 * program has recorded that, the default `always` downloads it in every refresh. What each setting does with
 * each answer of the service (a download again once the cluster's answer changed, a state without a kubeconfig)
 * is the integration project's (tests/integration/kaas-provider.test.ts), and the refusal of an unknown value
 * the unit project's (tests/unit/rest-settings.test.ts).
 */
import type { Stack } from "@pulumi/pulumi/automation";
import { cluster } from "./support/args";
import { PROJECT, openSuite, stateOutputsOf, upWith, type Suite } from "./support/suite";

const PREFIX = `/projects/${PROJECT}/providers/Vendor.Container`;

describe("vendor:kubeconfigRefresh", () => {
  let s: Suite;
  let stack: Stack;

  beforeAll(async () => {
    s = await openSuite("kubeconfig-refresh");
    stack = await s.stack("dev", s.program("kubeconfig-refresh"), {
      "vendor:kubeconfigRefresh": { value: "onChange" },
    });
  });
  afterAll(async () => {
    await s?.close();
  });

  /**
   * The kubeconfig of the cluster's outputs in the state, which must be a secret there: `stack export` writes a
   * decrypted secret as its signature and its value as JSON in `plaintext`.
   */
  const kubeconfigOf = (outputs: Record<string, unknown>): string => {
    const value = outputs.kubeconfig as { plaintext?: string };
    expect(value).toEqual(
      expect.objectContaining({ "4dabf18193072939515e22adb298388d": expect.any(String) }),
    );
    return JSON.parse(value.plaintext ?? "null") as string;
  };

  /** The requests since the last `clearRequests`, as `METHOD /path` below the project's provider prefix. */
  const sent = () => s.requests().map((r) => `${r.method} ${r.path.replace(PREFIX, "")}`);

  /** The cluster's outputs in the state once it is created. */
  let created: Record<string, unknown>;

  it("downloads the kubeconfig of a cluster it creates", async () => {
    const { calls } = await upWith(s, stack, [cluster()]);
    expect(calls).toEqual(["POST /kaas", "PUT /kaas/kaas-0001"]);
    expect(sent().filter((r) => r.endsWith("/download"))).toEqual(["GET /kaas/kaas-0001/download"]);
    created = await stateOutputsOf(stack, "cluster");
    expect(kubeconfigOf(created)).toContain(s.emulator.emulator.kubeconfigToken("kaas-0001"));
  });

  it("onChange: a refresh of a cluster that did not change reads the cluster alone and keeps the kubeconfig", async () => {
    s.clearRequests();

    const refreshed = await stack.refresh({ expectNoChanges: true });

    expect(refreshed.summary.resourceChanges).toEqual({ same: 2 });
    expect(sent()).toEqual(["GET /kaas/kaas-0001"]);
    expect(await stateOutputsOf(stack, "cluster")).toEqual(created);
  });

  it("always (the default), once a run with the program recorded it: a refresh downloads the kubeconfig", async () => {
    await stack.removeConfig("vendor:kubeconfigRefresh");
    // A run with the program records the config that later runs without it use.
    await stack.refresh({ runProgram: true, expectNoChanges: true });
    s.clearRequests();
    await stack.refresh({ expectNoChanges: true });
    expect(sent()).toEqual(["GET /kaas/kaas-0001", "GET /kaas/kaas-0001/download"]);
  });
});
