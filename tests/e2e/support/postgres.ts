/**
 * A PostgreSQL server for the tests of the PostgreSQL state backend, started and stopped by
 * `scripts/postgres.sh` (which installs the server's Debian package first on a machine without it).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT } from "./engine";

const SCRIPT = path.join(ROOT, "scripts/postgres.sh");

/** A running server, its one database holding the Pulumi state. */
export interface PostgresServer {
  /** The backend URL: `postgres://pulumi@127.0.0.1:<port>/state?sslmode=disable`. */
  url: string;
  /** The server's folder (data, socket, log), removed by `stop`. */
  dir: string;
  /** Runs one SQL statement on the database; resolves with its rows, columns separated by `|`. */
  sql(query: string): string[];
  /** Stops the server and removes its folder; does nothing once stopped. */
  stop(): void;
  /** Stops the server and keeps its data, as an outage would (`resume` ends it). */
  pause(): void;
  /** Starts a paused server again, on the same port. */
  resume(): void;
}

const script = (...args: string[]) =>
  execFileSync("bash", [SCRIPT, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

/**
 * Starts a server in a new folder of the system's temporary folder: when the tests run as root the server runs as
 * the `postgres` user, which can reach that folder but not the repository's `.tools`.
 */
export function startPostgres(): PostgresServer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "e2e-postgres-"));
  const url = script("start", dir).trim();
  return {
    url,
    dir,
    sql: (query) =>
      script("sql", dir, query)
        .split("\n")
        .filter((line) => line !== ""),
    stop: () => void script("stop", dir),
    pause: () => void script("pause", dir),
    resume: () => void script("resume", dir),
  };
}
