/**
 * Server lifecycle: `startEmulator` listens with the emulator's request listener on a `node:http` server and
 * hands back its URL and a `close` that persists the state file and closes every connection.
 */
import http from "node:http";
import { createEmulator, type Emulator, type EmulatorOptions } from "./app";

/** Options of `startEmulator`: the emulator's options plus where to listen. */
export interface StartEmulatorOptions extends EmulatorOptions {
  /** TCP port; 0 (the default) picks a free one. */
  port?: number;
  /** Interface to bind. Default `127.0.0.1`. */
  host?: string;
}

/** A listening emulator. */
export interface RunningEmulator {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  url: string;
  port: number;
  emulator: Emulator;
  server: http.Server;
  /** Persists the state file, closes every connection and stops listening. */
  close(): Promise<void>;
}

/** Creates an emulator and listens; resolves once it accepts connections. */
export async function startEmulator(options: StartEmulatorOptions = {}): Promise<RunningEmulator> {
  const emulator = createEmulator(options);
  const server = http.createServer(emulator.handler);
  // Longer than the clients' idle keep-alive, so the server never closes a socket a client is about to reuse
  // (a reset there would make a POST create ambiguous for no reason).
  server.keepAliveTimeout = 65_000;
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  // A server listening on TCP answers its address as an object; a string is a pipe's or socket's path.
  if (address === null || typeof address === "string") throw new Error(`emulator is not listening on TCP`);
  const port = address.port;
  const urlHost = host.includes(":") ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    emulator,
    server,
    close() {
      closing ??= new Promise<void>((resolve) => {
        // Held requests go on, so that none waits for ever; their clients are disconnected just after.
        emulator.releaseHolds();
        emulator.persist();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
