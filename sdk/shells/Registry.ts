// The serialized provider of Registry: this module's exports are the shell itself (see sdk/shell.ts).
import { createShell } from "../shell";

export = createShell("Registry");
