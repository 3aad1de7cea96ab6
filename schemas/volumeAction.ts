/**
 * The body of the three volume actions, built without loading the wire schemas: the VolumeAttachment provider
 * is loaded by `check`, which must not load TypeBox (see `tests/unit/lazy-loading.test.ts`).
 */
import type { VolumeAction } from "./volume";

/** `{volume: {uri}}` for the volume at `volumeUri` (spec §2.8, §4.1). */
export const volumeAction = (volumeUri: string): VolumeAction => ({ volume: { uri: volumeUri } });
