/** Body of the attach and detach actions (spec §2.8 "Volume references", §4.1). */
import { Type, type Static, type TSchema } from "@sinclair/typebox";
import { Nullable, Strict } from "./common";

/** `{volume: {uri}}`: the block-storage URI to attach or detach. */
export const VolumeAction = Strict({ volume: Strict({ uri: Nullable(Type.String({ minLength: 1 })) }) });
export type VolumeAction = Static<typeof VolumeAction>;

/** The VolumeAttachment schemas the endpoint table names (`WIRE_SCHEMAS`), by those names. */
export const VOLUME_ATTACHMENT_WIRE_SCHEMAS = { VolumeAction } as const satisfies Record<string, TSchema>;
