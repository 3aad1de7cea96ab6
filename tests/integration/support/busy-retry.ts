/**
 * The busy-retry scenario of the REST client against the emulator, run by the client's tests
 * (`client.test.ts`) and again under each shape of problem body (`problem-shapes.test.ts`): an update sent
 * while the cluster is still updating is refused as busy (a 400, `rest/busy.ts`), probed and retried until
 * the cluster settles.
 */
import type { Emulator } from "../../../emulator";
import type { VendorContainerClient } from "../../../rest/client";
import { PROJECT, within } from "./harness";

/**
 * Updates active cluster `id` twice in a row and checks that the second update, refused as busy while the
 * first runs, is retried (each refusal probed with a GET) until it goes through, and that it took effect.
 */
export async function expectBusyUpdateRetriedUntilSettled(
  emu: Emulator,
  client: VendorContainerClient,
  id: string,
): Promise<void> {
  emu.clearRequests();
  // A long update on the emulator clock, ended by a clock jump once a retry met the busy cluster: the
  // outcome does not depend on how fast this machine runs the retries.
  emu.updateConfig({ durations: { kaasUpdateMs: 60_000 } });
  await client.call("updateKaas", { projectId: PROJECT, id }, { metadata: { name: "one" }, properties: {} });
  const second = client.call(
    "updateKaas",
    { projectId: PROJECT, id },
    { metadata: { name: "two" }, properties: {} },
  );
  while (!emu.requests().some((r) => r.method === "PUT" && r.status === 400)) {
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  emu.advanceClock(61_000);
  await second;
  const puts = emu
    .requests()
    .filter((r) => r.method === "PUT")
    .map((r) => r.status);
  expect(puts[0]).toBe(200);
  expect(puts.at(-1)).toBe(200);
  expect(puts.slice(1, -1).length).toBeGreaterThan(0);
  expect(new Set(puts.slice(1, -1))).toEqual(new Set([400]));
  // Each busy refusal was probed with a GET before it was retried.
  const busyRefusals = puts.length - 2;
  expect(emu.requests().filter((r) => r.method === "GET").length).toBeGreaterThanOrEqual(busyRefusals);

  emu.advanceClock(61_000);
  const settled = await client.waitUntilSettled(() => client.find("getKaas", { projectId: PROJECT, id }), {
    what: `Kaas ${id}`,
    path: `/kaas/${id}`,
    deadline: within(),
  });
  expect(settled.metadata.name).toBe("two");
}
