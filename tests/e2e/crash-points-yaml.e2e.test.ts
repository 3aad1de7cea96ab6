/**
 * The crash-point suite (crash-points.e2e.test.ts, whose header says what it checks and how it finds its points)
 * on the provider plugin's door, with a YAML program: each group's Pulumi.yaml, written from what the group
 * declares (support/plugin.ts `yamlProgram`: each kind as `vendor-container:index:<kind>`, a reference as
 * `${resource.output}`), in a folder of its own since the file is the declaration, against the plugin
 * `pulumi-resource-vendor-container` configured by `vendor-container:*`.
 *
 * Operations: those of the dynamic suite that run under the emulator's strictest readings (`STRICT_WIRE`: the
 * creates of Kaas, KaasBackup and Registry, `up --replace`, the node pool resize, `pulumi destroy`), and `pulumi
 * import` of clusters made outside the stack. crash-points-python.e2e.test.ts runs the others under the default
 * readings with a Python program. Where the readings matter, in the lookup a create makes to find its object
 * again, each is met by one of the two files: the provider code behind the plugin is the same whatever the
 * program's language, so a reading met from Python is met from YAML too.
 *
 * `CRASH_POINTS=<regular expression>` and Jest's `-t` narrow it as in the dynamic suite (`-t "reading strict
 * Kaas import"`).
 */
import fs from "node:fs";
import path from "node:path";
import { IMPORT_OPERATION, OPERATIONS, crashPointSuite, underReading } from "./support/crash-suite";
import { pluginConfig, yamlProgram } from "./support/plugin";
import { POLL_MS, PROJECT, TOKEN, type Declared } from "./support/suite";

/** The project of every group's program. */
const PROJECT_NAME = "e2e-crash-yaml";

crashPointSuite(
  {
    suite: "crash-points-yaml",
    describe: "a YAML program on the plugin, ",
    prepare: () => undefined,
    stack: async (s, name, emulator) => {
      const dir = path.join(s.dir, "programs", `crash-yaml-${name}`);
      fs.mkdirSync(dir, { recursive: true });
      const declare = async (declared: Declared[]) =>
        fs.writeFileSync(path.join(dir, "Pulumi.yaml"), yamlProgram(PROJECT_NAME, declared));
      await declare([]);
      const stack = await s.stack(name, dir, pluginConfig({ emulator }, TOKEN, PROJECT, POLL_MS));
      return { stack, dir, declare };
    },
    // The CLI, the language host (which runs the program itself) and the plugin; the YAML host starts a plugin
    // of its own for the schema while the program runs.
    minimumKilled: () => 3,
  },
  underReading("strict", [...OPERATIONS, IMPORT_OPERATION]),
);
