// The serialized provider of VolumeAttachment: this module's exports are the shell itself (see sdk/shell.ts).
import { createShell } from "../shell";

export = createShell("VolumeAttachment");
