/**
 * `vendor:kubeconfigRefresh` through the real engine: under `onChange` a `pulumi refresh` of a cluster that did
 * not change reads the cluster alone (one request), keeps the kubeconfig of the state, and downloads it again
 * once the cluster's answer shows a change (a platform upgrade); under the default `always` every refresh
 * downloads it. A refresh that does not run the program uses the config of the last run that did, so each
 * change of the setting is recorded by a run with the program first.
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
   * The kubeconfig of the cluster's state, which must be a secret there: `stack export` writes a decrypted
   * secret as its signature and its value as JSON in `plaintext`.
   */
  const stateKubeconfig = async (): Promise<string> => {
    const value = (await stateOutputsOf(stack, "cluster")).kubeconfig as { plaintext?: string };
    expect(value).toEqual(
      expect.objectContaining({ "4dabf18193072939515e22adb298388d": expect.any(String) }),
    );
    return JSON.parse(value.plaintext ?? "null") as string;
  };

  /** The requests since the last `clearRequests`, as `METHOD /path` below the project's provider prefix. */
  const sent = () => s.requests().map((r) => `${r.method} ${r.path.replace(PREFIX, "")}`);

  it("downloads the kubeconfig of a cluster it creates", async () => {
    const { calls } = await upWith(s, stack, [cluster()]);
    expect(calls).toEqual(["POST /kaas", "PUT /kaas/kaas-0001"]);
    expect(sent().filter((r) => r.endsWith("/download"))).toEqual(["GET /kaas/kaas-0001/download"]);
    expect(await stateKubeconfig()).toContain(s.emulator.emulator.kubeconfigToken("kaas-0001"));
  });

  it("onChange: a refresh of a cluster that did not change reads the cluster alone and keeps the kubeconfig", async () => {
    const before = await stateOutputsOf(stack, "cluster");
    s.clearRequests();

    const refreshed = await stack.refresh({ expectNoChanges: true });

    expect(refreshed.summary.resourceChanges).toEqual({ same: 2 });
    expect(sent()).toEqual(["GET /kaas/kaas-0001"]);
    expect(await stateOutputsOf(stack, "cluster")).toEqual(before);
  });

  it("onChange: a refresh downloads it again once the cluster's answer changed", async () => {
    s.emulator.emulator.platformUpgrade("kaas-0001", "1.33.2");
    s.clearRequests();

    await stack.refresh();

    expect(sent()).toEqual(["GET /kaas/kaas-0001", "GET /kaas/kaas-0001/download"]);
    expect((await stateOutputsOf(stack, "cluster")).currentKubernetesVersion).toBe("1.33.2");
    expect(await stateKubeconfig()).toContain(s.emulator.emulator.kubeconfigToken("kaas-0001"));

    // The next refresh finds nothing new again.
    s.clearRequests();
    await stack.refresh({ expectNoChanges: true });
    expect(sent()).toEqual(["GET /kaas/kaas-0001"]);
  });

  it("always (the default): every refresh downloads the kubeconfig", async () => {
    await stack.removeConfig("vendor:kubeconfigRefresh");
    // A run with the program records the config that later runs without it use.
    await stack.refresh({ runProgram: true, expectNoChanges: true });
    for (let i = 0; i < 2; i++) {
      s.clearRequests();
      await stack.refresh({ expectNoChanges: true });
      expect(sent()).toEqual(["GET /kaas/kaas-0001", "GET /kaas/kaas-0001/download"]);
    }
  });

  it("refuses a value it does not know, naming the setting", async () => {
    await stack.setConfig("vendor:kubeconfigRefresh", { value: "sometimes" });
    await expect(stack.refresh({ runProgram: true })).rejects.toThrow(
      'vendor:kubeconfigRefresh must be "always" or "onChange", got "sometimes"',
    );
    await stack.removeConfig("vendor:kubeconfigRefresh");
  });
});
