/**
 * A state backend that goes away during a create, through the real engine on a PostgreSQL backend: the server
 * stops while `pulumi up` creates two clusters, and stays down until the CLI gives up saving the state
 * (`failed to save snapshot`). The clusters exist in the service, the state holds neither. After the server
 * is back, `pulumi cancel` and the same `pulumi up` track exactly the two clusters the program declares, with
 * no second create request, and the next preview shows no change. The lookup that finds them depends on how the
 * service reads filters: here under the emulator's strictest readings (published interface only: filters
 * refused, so the lookup reads the whole list); a lookup after a lost state write under every filter reading
 * is interrupted.e2e.test.ts's (a killed run) and the integration projects'.
 */
import { STRICT_WIRE } from "../../emulator";
import { cluster } from "./support/args";
import { startPostgres, type PostgresServer } from "./support/postgres";
import { waitFor } from "./support/processes";
import { PROJECT, openSuite, type Suite, trackedOf } from "./support/suite";

const KAAS_PATH = `/projects/${PROJECT}/providers/Vendor.Container/kaas`;
/** Long enough for the CLI to give up saving the state: it retries for about a minute. */
const CLI_GIVES_UP_MS = 5 * 60 * 1000;

let pg: PostgresServer;

beforeAll(() => {
  pg = startPostgres();
});
afterAll(() => {
  pg?.stop();
});

describe("published interface only", () => {
  let s: Suite;
  let dir: string;

  beforeAll(async () => {
    s = await openSuite("pg-outage", { wire: STRICT_WIRE });
    s.env.PULUMI_BACKEND_URL = pg.url;
    dir = s.program("pg-outage");
  });
  afterAll(async () => {
    await s?.close();
  });

  const posts = () => s.requests().filter((r) => r.method === "POST" && r.path === KAAS_PATH);
  /** The clusters the service holds that are not deleted: name -> id. */
  const live = () =>
    Object.fromEntries(
      s.emulator.emulator
        .state()
        .kaas.filter((k) => k.status?.state !== "Deleted")
        .map((k) => [k.metadata.name ?? "", k.metadata.id]),
    );

  it("the state backend down until the CLI gives up, then cancel and up: the two declared clusters, tracked, no second create", async () => {
    const stack = await s.stack("outage", dir);
    const declared = [
      cluster({}, "first"),
      cluster({ nodeCidr: { address: "10.21.0.0/16", name: "second-nodes" } }, "second"),
    ];
    await s.declare(stack, declared);
    s.clearRequests();
    // Provisioning outlasts the moment the server stops, so both creates return while it is down.
    s.emulator.emulator.updateConfig({ durations: { kaasCreateMs: 3000 } });

    const run = s.cli(["up", "--yes", "--skip-preview", "--stack", "outage"], dir);
    await waitFor("both create requests", () => posts().filter((r) => (r.status ?? 0) < 300).length === 2);
    pg.pause();
    let timer: NodeJS.Timeout | undefined;
    const failed = await Promise.race([
      run.done,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error("the CLI never gave up")), CLI_GIVES_UP_MS);
      }),
    ]).finally(() => clearTimeout(timer));
    pg.resume();
    expect(failed.code).not.toBe(0);
    expect(failed.output).toContain("failed to save snapshot");
    const created = live();
    expect(Object.keys(created).sort()).toEqual(["e2e-first", "e2e-second"]);

    const cancel = await s.cli(["cancel", "--yes", "--stack", "outage"], dir).done;
    expect(cancel.code).toBe(0);
    await stack.up();
    expect(await trackedOf(stack)).toEqual({ first: created["e2e-first"], second: created["e2e-second"] });
    expect(posts()).toHaveLength(2);
    expect(live()).toEqual(created);
    await stack.preview({ expectNoChanges: true });

    await stack.destroy();
    expect(live()).toEqual({});
  });
});
