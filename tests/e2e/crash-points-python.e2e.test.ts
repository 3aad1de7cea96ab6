/**
 * The crash-point suite (crash-points.e2e.test.ts, whose header says what it checks and how it finds its points)
 * on the provider plugin's door, with a Python program: `tests/e2e/programs/python`, which declares the generated
 * Python SDK's classes from the same stack config (`e2e:resources`) the JavaScript program reads, against the
 * plugin `pulumi-resource-vendor-container` configured by `vendor-container:*`.
 *
 * Operations: those of the dynamic suite that run under the emulator's default readings (the creates of Kaas,
 * KaasBackup and Registry, the replacement by a changed nodeCidr, the removal from the program), and `pulumi
 * refresh` of existing clusters. crash-points-yaml.e2e.test.ts runs the others under the strictest readings
 * (`STRICT_WIRE`) with a YAML program. Where the readings matter, in the lookup a create makes to find its
 * object again, each is met by one of the two files: the provider code behind the plugin is the same whatever
 * the program's language, so a reading met from YAML is met from Python too.
 *
 * `CRASH_POINTS=<regular expression>` and Jest's `-t` narrow it as in the dynamic suite (`-t "reading default
 * Kaas refresh"`).
 */
import path from "node:path";
import { PYTHON_SDK_DIR, ROOT } from "./support/engine";
import { OPERATIONS, REFRESH_OPERATION, crashPointSuite, underReading } from "./support/crash-suite";
import { PLUGIN_SCHEMA, pluginConfig, pluginProgram } from "./support/plugin";
import { POLL_MS, PROJECT, TOKEN } from "./support/suite";

/** The program every group's stack runs, copied once. */
let dir: string;
const env = { PYTHONPATH: PYTHON_SDK_DIR };

crashPointSuite(
  {
    suite: "crash-points-python",
    describe: "a Python program on the plugin, ",
    prepare: (s) => {
      dir = pluginProgram(s, "crash-python", path.join(ROOT, "tests/e2e/programs/python"));
    },
    stack: async (s, name, emulator) => {
      const config = {
        ...pluginConfig({ emulator }, TOKEN, PROJECT, POLL_MS),
        "e2e:schema": { value: PLUGIN_SCHEMA },
      };
      const stack = await s.stack(name, dir, config, env);
      return { stack, dir, declare: (declared) => s.declare(stack, declared) };
    },
    env,
    // The CLI, the language host and the plugin; with the program (`up`) the Python process that runs it too.
    minimumKilled: (command) => (command === "up" ? 4 : 3),
  },
  underReading("default", [...OPERATIONS, REFRESH_OPERATION]),
);
