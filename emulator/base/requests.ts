/**
 * The emulator's request log (`GET /_emulator/requests`): one entry per API request, never bodies, headers or
 * tokens, the oldest dropped first beyond the limit.
 */
import { iso } from "./clock";

/** One request log entry: never bodies, headers or tokens. */
export interface RequestLogEntry {
  seq: number;
  /** Emulator time of receipt, ISO. */
  time: string;
  method: string;
  path: string;
  /** Query parameters; values of secret-looking names are redacted. */
  query: Record<string, string>;
  /** Status answered (or that would have been, for `dropped: "after"`); null when dropped before processing. */
  status: number | null;
  /**
   * The `status.state` the answer shows when it is one object (a create, a read, an update answered with the
   * object), as the client reads it; absent for lists, empty answers and problems. Where a client polling an
   * object stands (`holds.ts`).
   */
  state?: string;
  /** True for POST, PUT, DELETE and PATCH of API routes. */
  mutating: boolean;
  /** Set when the connection was destroyed: before processing, or after processing without an answer. */
  dropped?: "before" | "after";
  /**
   * Set when the request was processed and then answered an injected status (`status`) instead of its real
   * answer (`FaultConfig.errorAfterProcessingRates`): the status of the real answer, which the client never saw.
   */
  processedStatus?: number;
}

/** Query parameter names whose values the log redacts. */
const SECRET_NAMES = /token|secret|password|key|auth/i;

/** The log of the requests received, numbered from 1 since the start or the last reset. */
export class RequestLog {
  private entries: RequestLogEntry[] = [];
  private seq = 0;

  /** `limit`: entries kept. */
  constructor(private readonly limit: number) {}

  /**
   * A new entry for a request received at `now` (epoch ms), with the next sequence number; not yet recorded
   * (its status is known later).
   */
  open(method: string, url: URL, now: number): RequestLogEntry {
    return {
      seq: ++this.seq,
      time: iso(now),
      method,
      path: url.pathname,
      query: Object.fromEntries(
        [...url.searchParams].map(([k, v]) => [k, SECRET_NAMES.test(k) ? "[redacted]" : v]),
      ),
      status: null,
      mutating: ["POST", "PUT", "DELETE", "PATCH"].includes(method) && url.pathname !== "/oauth2/token",
    };
  }

  /** Appends `entry`, dropping the oldest beyond the limit. */
  record(entry: RequestLogEntry): void {
    this.entries.push(entry);
    if (this.entries.length > this.limit) this.entries = this.entries.slice(this.entries.length - this.limit);
  }

  /** A copy of the entries, oldest first. */
  list(): RequestLogEntry[] {
    return this.entries.map((e) => ({ ...e, query: { ...e.query } }));
  }

  /** Forgets the entries; the numbering goes on. */
  clear(): void {
    this.entries = [];
  }

  /** Forgets the entries and numbers the next request 1 again. */
  reset(): void {
    this.entries = [];
    this.seq = 0;
  }
}
