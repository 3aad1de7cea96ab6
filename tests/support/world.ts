/**
 * The world every test layer runs in, written once: the project, credentials and location the emulator
 * accepts, valid arguments of each kind to start from, and the emulator on loopback behind a front that can
 * capture the access tokens it issues, lose the answer of a create, or play a scripted gateway. The harness of
 * the integration projects (`tests/integration/support/harness.ts`: the providers configured against it, as
 * the engine configures them) and the end-to-end suite (`tests/e2e/support/suite.ts`: the real engine against
 * it) are both built on this.
 */
import type http from "node:http";
import { startEmulator, type RunningEmulator, type StartEmulatorOptions } from "../../emulator";

/** The project id of every test. */
export const PROJECT = "p-test";
/** The static bearer token the emulators accept: a secret that must never show in plain text. */
export const TOKEN = "test-token-7f3c9a51d2b84e06";
/** The OAuth2 client the emulators accept. */
export const CLIENT_ID = "ci-client";
export const CLIENT_SECRET = "ci-client-secret-0123456789";
/** The location of every resource. */
export const LOCATION = "ITBG-Bergamo";
/** The service's path prefix of `PROJECT`. */
export const API_PREFIX = `/projects/${PROJECT}/providers/Vendor.Container`;
/** A volume to attach (any block storage URI: the emulator does not check that it exists). */
export const DATA_VOLUME = `/projects/${PROJECT}/providers/Vendor.Storage/blockStorages/data-1`;

// ---- Valid arguments of each kind ----

type Args = Record<string, unknown>;

export const SYSTEM_POOL = { name: "system", nodes: 2, instance: "K4A8", dataCenter: "ITBG-1" };
export const WORKER_POOL = {
  name: "workers",
  nodes: 2,
  instance: "K8A16",
  dataCenter: "ITBG-2",
  autoscaling: true,
  minCount: 1,
  maxCount: 6,
};

/** The node network of a cluster. */
export const NODE_CIDR = { address: "10.20.0.0/16", name: "cluster-nodes" };

/** A cluster named `name` with the two pools; `overrides` replace top-level arguments. */
export const kaasInputs = (name: string, overrides: Args = {}): Args => ({
  name,
  location: LOCATION,
  kubernetesVersion: "1.32.5",
  nodeCidr: NODE_CIDR,
  nodePools: [SYSTEM_POOL, WORKER_POOL],
  authorizedIpRanges: ["192.168.10.0/24"],
  ...overrides,
});

/** A backup "nightly" of cluster `kaasId` (an id, or a reference the program resolves). */
export const backupInputs = (kaasId: unknown, overrides: Args = {}): Args => ({
  kaasId,
  name: "nightly",
  location: LOCATION,
  retentionDays: 7,
  billingPeriod: "Month",
  ...overrides,
});

/** A registry named `name`. */
export const registryInputs = (name: string, overrides: Args = {}): Args => ({
  name,
  location: LOCATION,
  adminUsername: "ops",
  size: "Small",
  adminPasswordResetTrigger: "initial",
  ...overrides,
});

/** An attachment of `DATA_VOLUME` to node `nodeId` of the system pool of cluster `kaasId`. */
export const attachmentInputs = (kaasId: unknown, nodeId: string, overrides: Args = {}): Args => ({
  kaasId,
  nodePoolName: "system",
  nodeId,
  volumeUri: DATA_VOLUME,
  ...overrides,
});

// ---- The service ----

/** Options of {@link startService}: the emulator's, and what its front does. */
export interface ServiceOptions extends StartEmulatorOptions {
  /**
   * Loses the answer of the first successful create of each kind (`POST .../kaas`, `.../backups`,
   * `.../registries`): the service creates the object, the client sees the connection drop. The emulator's
   * own `dropAfterProcessingRate` does this at random on every method; this makes the ambiguous create
   * certain, once per kind.
   */
  loseFirstCreateAnswers?: boolean;
  /**
   * A scripted gateway in front of the service: sees every API request (not the token endpoint) and either
   * answers it itself or calls `forward` to let the emulator process it (see {@link loseAnswer}).
   */
  gateway?: (req: http.IncomingMessage, res: http.ServerResponse, forward: () => void) => void;
}

/** A listening emulator and what its front saw. */
export interface Service extends RunningEmulator {
  /** Every access token the token endpoint answered, captured from its responses. */
  issuedTokens: string[];
  /** `POST <path>` of each create whose answer was lost (`loseFirstCreateAnswers`). */
  lostAnswers: string[];
}

/** The collection paths a POST creates in. */
const CREATE_PATH = /\/(kaas|backups|registries)$/;

/**
 * Starts an emulator on 127.0.0.1 (port 0 unless `options` say otherwise) accepting `TOKEN` and the OAuth2
 * client, with its front before its request listener.
 */
export async function startService(options: ServiceOptions = {}): Promise<Service> {
  const { loseFirstCreateAnswers, gateway, ...emulatorOptions } = options;
  const running = await startEmulator({
    tokens: [TOKEN],
    clients: [{ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }],
    ...emulatorOptions,
  });
  const issuedTokens: string[] = [];
  const lostAnswers: string[] = [];
  const { emulator, server } = running;
  server.removeAllListeners("request");
  server.on("request", (req: http.IncomingMessage, res: http.ServerResponse) => {
    const path = (req.url ?? "").split("?")[0];
    if (path === "/oauth2/token") {
      captureTokens(res, issuedTokens);
    } else {
      if (loseFirstCreateAnswers && req.method === "POST" && CREATE_PATH.test(path)) {
        loseAnswerOnce(req, res, path, lostAnswers);
      }
      if (gateway) return gateway(req, res, () => emulator.handler(req, res));
    }
    emulator.handler(req, res);
  });
  return { ...running, issuedTokens, lostAnswers };
}

/** Records the `access_token` of the JSON body the token endpoint writes. */
function captureTokens(res: http.ServerResponse, into: string[]): void {
  const end = res.end.bind(res) as (...args: unknown[]) => http.ServerResponse;
  res.end = ((...args: unknown[]) => {
    const chunk = args[0];
    if (typeof chunk === "string" || Buffer.isBuffer(chunk)) {
      try {
        const body: unknown = JSON.parse(String(chunk));
        const token =
          typeof body === "object" && body !== null ? Reflect.get(body, "access_token") : undefined;
        if (typeof token === "string") into.push(token);
      } catch {
        // Not JSON: nothing issued.
      }
    }
    return end(...args);
  }) as typeof res.end;
}

/**
 * Lets the emulator process the request, then destroys the connection instead of answering when the answer
 * is the first 2xx of its collection kind.
 */
function loseAnswerOnce(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  path: string,
  lost: string[],
): void {
  const kind = CREATE_PATH.exec(path)?.[1];
  let status = 0;
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => http.ServerResponse;
  const end = res.end.bind(res) as (...args: unknown[]) => http.ServerResponse;
  let head: unknown[] = [];
  res.writeHead = ((...args: unknown[]) => {
    status = Number(args[0]);
    head = args;
    return res;
  }) as typeof res.writeHead;
  res.end = ((...args: unknown[]) => {
    const alreadyLost = lost.some((p) => CREATE_PATH.exec(p)?.[1] === kind);
    if (status >= 200 && status < 300 && !alreadyLost) {
      lost.push(`POST ${path}`);
      req.socket.destroy();
      return res;
    }
    if (head.length > 0) writeHead(...head);
    return end(...args);
  }) as typeof res.end;
}

/** Lets the emulator process the request, then destroys the connection instead of sending its answer. */
export function loseAnswer(req: http.IncomingMessage, res: http.ServerResponse): void {
  res.writeHead = (() => res) as unknown as typeof res.writeHead;
  res.end = (() => {
    req.socket.destroy();
    return res;
  }) as unknown as typeof res.end;
}
