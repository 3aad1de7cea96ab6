/**
 * The emulator's command line on a fixed `--port`, as a CI job starts it before `pulumi up` points
 * `VENDOR_BASE_URL` at `http://127.0.0.1:<port>`: it listens on exactly that port and says so, serves the API
 * there with the token given, and a port already taken fails the start naming the address, rather than
 * falling back to another port the job's configuration would not know.
 */
import net from "node:net";
import { main, type CliIo } from "../../emulator/cli";
import type { RunningEmulator } from "../../emulator";

/** A port that was free a moment ago (the system's choice for port 0, released again). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function fakeIo() {
  const out: string[] = [];
  const err: string[] = [];
  const exits: number[] = [];
  const io: CliIo = {
    stdout: (line) => out.push(line),
    stderr: (line) => err.push(line),
    onSignal: () => undefined,
    exit: (code) => exits.push(code),
  };
  return { io, out, err, exits };
}

const running: RunningEmulator[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((emulator) => emulator.close()));
});

it("listens on the port given and serves the API there with the token given", async () => {
  const port = await freePort();
  const { io, out, err } = fakeIo();
  const emulator = await main(["--port", String(port), "--token", "ci-token", "--fast"], io);
  if (emulator) running.push(emulator);

  expect(out).toEqual([`Emulator listening on http://127.0.0.1:${port}`]);
  expect(err).toEqual([]);
  expect(emulator?.port).toBe(port);
  const list = await fetch(`http://127.0.0.1:${port}/projects/ci-project/providers/Vendor.Container/kaas`, {
    headers: { authorization: "Bearer ci-token" },
  });
  expect(list.status).toBe(200);
  const refused = await fetch(
    `http://127.0.0.1:${port}/projects/ci-project/providers/Vendor.Container/kaas`,
    {
      headers: { authorization: "Bearer another-token" },
    },
  );
  expect(refused.status).toBe(401);
});

it("fails to start on a port already taken, naming the address, instead of listening elsewhere", async () => {
  const port = await freePort();
  const first = fakeIo();
  const emulator = await main(["--port", String(port)], first.io);
  if (emulator) running.push(emulator);

  const second = fakeIo();
  await expect(main(["--port", String(port)], second.io)).rejects.toThrow(
    `listen EADDRINUSE: address already in use 127.0.0.1:${port}`,
  );
  expect(second.out).toEqual([]);
  expect(second.exits).toEqual([]);
});
