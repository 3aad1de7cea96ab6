/**
 * What `createEmulator` (`app.ts`) returns: a request listener plus every control operation as a method, for
 * in-process tests. The control API (`control.ts`) serves these same methods over HTTP.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { KaasResponse } from "../../schemas/kaas";
import type { EmulatorClock } from "../base/clock";
import type { EmulatorConfig, EmulatorConfigInput } from "../kinds";
import type { FaultConfig } from "../composition/faults";
import { type HoldSpec, type HoldStatus, type RequestHold } from "../base/holds";
import type { AttachmentTruth, EmulatorStateSnapshot, ResourcePatch } from "../composition/operations";
import type { RequestLogEntry } from "../base/requests";
import { type SeedRequest, type SeedResult } from "../composition/seed";
import type { AnyResponse, Kind } from "../kinds";

/** The emulator: a request listener plus the control operations. */
export interface Emulator {
  /** `node:http` request listener serving the API, the token endpoint and the control API. */
  readonly handler: (req: IncomingMessage, res: ServerResponse) => void;
  readonly namespace: string;
  readonly clock: EmulatorClock;
  /** Emulator time, epoch ms. */
  now(): number;
  /** Moves the clock by `ms`; returns the new time. */
  advanceClock(ms: number): number;
  /** Sets the clock; returns the new time. */
  setClock(epochMs: number): number;
  /** The request log (a copy). */
  requests(): RequestLogEntry[];
  clearRequests(): void;
  getFaults(): FaultConfig;
  /** Replaces the fault configuration (missing keys take defaults) and reseeds the generator. */
  setFaults(faults: Partial<FaultConfig>): FaultConfig;
  getConfig(): EmulatorConfig;
  /** Deep-merges `patch` into the configuration. */
  updateConfig(patch: EmulatorConfigInput): EmulatorConfig;
  /**
   * Forgets every resource, request, issued token, clock offset and hold (a held request goes on); faults and
   * config return to the options.
   */
  reset(): void;
  /**
   * Holds the `nth` API request matching `spec`, before it is processed or after, its answer withheld, until
   * released (`holds.ts`). Throws a 400 validation problem naming each bad field.
   */
  hold(spec: HoldSpec): RequestHold;
  /** Every hold since the last reset, oldest first. */
  holds(): HoldStatus[];
  /** Releases the hold `id` (a held request goes on); throws a 404 problem when there is none. */
  releaseHold(id: string): HoldStatus;
  /** Releases every hold and forgets them; returns how many there were. */
  releaseHolds(): number;
  state(): EmulatorStateSnapshot;
  /**
   * Stores `count` settled (`Active`) objects of one kind in a project, named `<namePrefix>-0001`... (default
   * prefix `seed`) without tags, with ids from the counters of the create path; no request is logged. Throws
   * a 400 validation problem naming each bad field (`count` is an integer from 1 to 5000).
   */
  seed(request: SeedRequest): SeedResult;
  /** Simulates a platform upgrade job: the cluster's live version becomes `version`. */
  platformUpgrade(kaasId: string, version: string): KaasResponse;
  /** The volume attachments the cluster holds, in attach order, shown by the wire reading or not. */
  attachments(kaasId: string): AttachmentTruth[];
  /**
   * The node ids of each pool of the cluster, whatever the wire reading `nodeIds` lets responses show: what
   * `kubectl get nodes` shows a user of the real service, which has no endpoint listing nodes.
   */
  nodes(kaasId: string): { nodePool: string; nodeIds: string[] }[];
  /** Simulates the autoscaler (or any out-of-band scaling): the pool gets `nodes` nodes. */
  scaleNodePool(kaasId: string, poolName: string, nodes: number): KaasResponse;
  patchResource(kind: Kind, id: string, patch: ResourcePatch): AnyResponse;
  /** Revokes every issued OAuth2 token; returns how many. */
  revokeTokens(): number;
  /** The bearer token in the cluster's kubeconfig (a secret: for tests that check redaction). */
  kubeconfigToken(kaasId: string): string;
  /** Writes the state file now (no-op without one). */
  persist(): void;
}
