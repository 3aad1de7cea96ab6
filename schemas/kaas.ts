/**
 * Wire schemas of the KaaS (managed Kubernetes cluster) endpoints: spec §2.2-§2.5 and §4.1, with the parts
 * the spec leaves "not shown" filled from the reference (api-notes "KaaS").
 */
import { Type, type Static } from "@sinclair/typebox";
import {
  BillingPlanRequest,
  BillingPlanResponse,
  DateTime,
  Int32,
  LinkedResourceResponse,
  ListEnvelope,
  MetadataRequest,
  MetadataResponse,
  Nullable,
  Phase,
  StatusResponse,
  Strict,
  UriRef,
  UriRefResponse,
} from "./common";

/** Node pool item of the insert body and of the full list sent in a cluster update (api-notes). */
export const NodePoolRequest = Strict({
  name: Type.String({ minLength: 1 }),
  nodes: Type.Integer({ minimum: 0, maximum: 2147483647 }),
  instance: Type.String({ minLength: 1 }),
  dataCenter: Type.String({ minLength: 1 }),
  autoscaling: Type.Optional(Nullable(Type.Boolean())),
  minCount: Type.Optional(Nullable(Int32)),
  maxCount: Type.Optional(Nullable(Int32)),
});
export type NodePoolRequest = Static<typeof NodePoolRequest>;

/** `storage` on input: the cluster-wide cap on the sum of volume sizes, in GB (spec §2.2, §8). */
export const StorageRequest = Strict({ maxCumulativeVolumeSize: Nullable(Int32) });

/** API server access profile (spec §2.2). */
export const ApiServerAccessProfile = Strict({
  authorizedIpRanges: Type.Optional(Nullable(Type.Array(Type.String()))),
  enablePrivateCluster: Type.Optional(Type.Boolean()),
});

/** KaaS insert body (`KaasInsertDto`, spec §2.2). */
export const KaasInsert = Strict({
  metadata: MetadataRequest,
  properties: Strict({
    preset: Type.Optional(Type.Boolean()),
    vpc: Type.Optional(UriRef),
    subnet: Type.Optional(UriRef),
    nodeCidr: Strict({ address: Type.String({ minLength: 1 }), name: Type.String({ minLength: 1 }) }),
    podCidr: Type.Optional(Nullable(Type.String())),
    securityGroup: Type.Optional(Strict({ name: Type.String({ minLength: 1 }) })),
    kubernetesVersion: Strict({ value: Type.String({ minLength: 1 }) }),
    nodePools: Type.Array(NodePoolRequest, { minItems: 1 }),
    ha: Type.Optional(Nullable(Type.Boolean())),
    storage: Type.Optional(StorageRequest),
    billingPlan: Type.Optional(BillingPlanRequest),
    identity: Type.Optional(
      Strict({
        clientId: Type.Optional(Nullable(Type.String())),
        clientSecret: Type.Optional(Nullable(Type.String())),
      }),
    ),
    // Untyped in the spec (§2.2): any JSON value is passed through.
    autoscalerProfile: Type.Optional(Type.Unknown()),
    apiServerAccessProfile: Type.Optional(ApiServerAccessProfile),
  }),
});
export type KaasInsert = Static<typeof KaasInsert>;

/** KaaS update body (`KaasUpdateDto`, spec §2.3; the fields after `ha` from the reference). */
export const KaasUpdate = Strict({
  metadata: MetadataRequest,
  properties: Strict({
    kubernetesVersion: Type.Optional(
      Strict({ value: Type.String({ minLength: 1 }), upgradeDate: Type.Optional(Nullable(DateTime)) }),
    ),
    nodePools: Type.Optional(Type.Array(NodePoolRequest, { minItems: 1 })),
    ha: Type.Optional(Type.Boolean()),
    storage: Type.Optional(StorageRequest),
    billingPlan: Type.Optional(BillingPlanRequest),
    apiServerAccessProfile: Type.Optional(ApiServerAccessProfile),
  }),
});
export type KaasUpdate = Static<typeof KaasUpdate>;

/**
 * Body of `PUT .../kaas/{id}/nodePools/{nodePoolName}`: a partial update. Note `minNode/maxNode` here
 * versus `minCount/maxCount` everywhere else (api-notes).
 */
export const NodePoolUpdate = Strict({
  metadata: Type.Optional(MetadataRequest),
  properties: Strict({
    instance: Type.Optional(Nullable(Type.String({ minLength: 1 }))),
    nodes: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 2147483647 }))),
    autoscaling: Type.Optional(Nullable(Type.Boolean())),
    minNode: Type.Optional(Nullable(Int32)),
    maxNode: Type.Optional(Nullable(Int32)),
  }),
});
export type NodePoolUpdate = Static<typeof NodePoolUpdate>;

/**
 * Node pool as answered: `instance` is an object, `dataCenter` is `{name}` (the published shape, where the name
 * may be a display label rather than the zone code sent on input) or `{code, name}`.
 */
export const NodePoolResponse = Type.Object({
  name: Type.String(),
  nodes: Type.Optional(Nullable(Type.Integer())),
  autoscaling: Type.Optional(Nullable(Type.Boolean())),
  minCount: Type.Optional(Nullable(Type.Integer())),
  maxCount: Type.Optional(Nullable(Type.Integer())),
  creationDate: Type.Optional(Nullable(Type.String())),
  instance: Type.Optional(
    Nullable(
      Type.Object({
        name: Type.Optional(Nullable(Type.String())),
        cpu: Type.Optional(Nullable(Type.String())),
        ram: Type.Optional(Nullable(Type.String())),
        diskSizeGb: Type.Optional(Nullable(Type.String())),
        price: Type.Optional(Nullable(Type.Number())),
      }),
    ),
  ),
  dataCenter: Type.Optional(
    Nullable(
      Type.Object({
        name: Type.Optional(Nullable(Type.String())),
        code: Type.Optional(Nullable(Type.String())),
      }),
    ),
  ),
  // No node ids: no published response carries them and no endpoint lists a pool's nodes (api-notes "What the
  // published interface does not show"). The emulator may render `nodeIds` (wire reading `nodeIds: shown`);
  // leaving them out of this schema keeps the provider from ever reading them.
});
export type NodePoolResponse = Static<typeof NodePoolResponse>;

/** An attached volume as the cluster reports it (bookkeeping of attach/detach, spec §4.1). */
export const AttachedVolumeResponse = Type.Object({
  uri: Type.String(),
  nodePoolName: Type.Optional(Nullable(Type.String())),
  nodeId: Type.Optional(Nullable(Type.String())),
  sizeGb: Type.Optional(Nullable(Type.Integer())),
});
export type AttachedVolumeResponse = Static<typeof AttachedVolumeResponse>;

/** KaaS response (`KaasResponseDto`, spec §2.4) with the reference's spellings (`nodecidr`, `nodesPool`). */
export const KaasResponse = Type.Object({
  metadata: MetadataResponse,
  status: Type.Optional(Nullable(StatusResponse)),
  properties: Type.Object({
    preset: Type.Optional(Nullable(Type.Boolean())),
    vpc: Type.Optional(Nullable(UriRefResponse)),
    subnet: Type.Optional(Nullable(UriRefResponse)),
    kubernetesVersion: Type.Optional(
      Nullable(
        Type.Object({
          value: Type.Optional(Nullable(Type.String())),
          endOfSupportDate: Type.Optional(Nullable(Type.String())),
          recommended: Type.Optional(Nullable(Type.Boolean())),
          upgradeTo: Type.Optional(
            Nullable(
              Type.Object({
                value: Type.Optional(Nullable(Type.String())),
                scheduledAt: Type.Optional(Nullable(Type.String())),
              }),
            ),
          ),
        }),
      ),
    ),
    nodePools: Type.Optional(Nullable(Type.Array(NodePoolResponse))),
    nodesPool: Type.Optional(Nullable(Type.Array(NodePoolResponse))),
    podcidr: Type.Optional(Nullable(Type.Object({ address: Type.Optional(Nullable(Type.String())) }))),
    nodecidr: Type.Optional(
      Nullable(
        Type.Object({
          address: Type.Optional(Nullable(Type.String())),
          name: Type.Optional(Nullable(Type.String())),
          uri: Type.Optional(Nullable(Type.String())),
        }),
      ),
    ),
    securityGroup: Type.Optional(
      Nullable(
        Type.Object({
          name: Type.Optional(Nullable(Type.String())),
          uri: Type.Optional(Nullable(Type.String())),
        }),
      ),
    ),
    ha: Type.Optional(Nullable(Type.Boolean())),
    storage: Type.Optional(
      Nullable(Type.Object({ maxCumulativeVolumeSize: Type.Optional(Nullable(Type.Integer())) })),
    ),
    billingPlan: Type.Optional(Nullable(BillingPlanResponse)),
    managementIp: Type.Optional(Nullable(Type.String())),
    identity: Type.Optional(Nullable(Type.Object({ clientId: Type.Optional(Nullable(Type.String())) }))),
    autoscalerProfile: Type.Optional(Type.Unknown()),
    apiServerAccessProfile: Type.Optional(
      Nullable(
        Type.Object({
          authorizedIpRanges: Type.Optional(Nullable(Type.Array(Type.String()))),
          enablePrivateCluster: Type.Optional(Nullable(Type.Boolean())),
        }),
      ),
    ),
    attachedVolumes: Type.Optional(Nullable(Type.Array(AttachedVolumeResponse))),
    linkedResources: Type.Optional(Nullable(Type.Array(LinkedResourceResponse))),
  }),
  data: Type.Optional(
    Nullable(
      Type.Object({
        private: Type.Optional(Nullable(Type.Object({ phase: Type.Optional(Nullable(Phase)) }))),
      }),
    ),
  ),
});
export type KaasResponse = Static<typeof KaasResponse>;

/** KaaS list response (spec §2.5). */
export const KaasList = ListEnvelope(KaasResponse);

/** Query of the cluster delete: `deleteOnCascade` also deletes the elastic IPs the cluster used. */
export const KaasDeleteQuery = Type.Object({ deleteOnCascade: Type.Optional(Type.Boolean()) });

/** Kubeconfig download: JSON `{name, content}` with base64 content (api-notes); raw text is also accepted. */
export const KubeconfigDownload = Type.Object({
  name: Type.Optional(Nullable(Type.String())),
  content: Type.String(),
});
export type KubeconfigDownload = Static<typeof KubeconfigDownload>;
