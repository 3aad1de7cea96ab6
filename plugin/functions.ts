/**
 * The package's functions as the plugin's invokes (`vendor-container:index:getKaas`, ...): the SDK's own
 * functions (sdk/kaas.ts, sdk/kaasBackup.ts, sdk/registry.ts), called with the plugin's configuration. A list
 * answers `{ items }` and the kubeconfig `{ kubeconfig }`, as a function of a package schema returns an object;
 * a list takes no `projection` here, since its items would have no type the schema could state.
 */
import { currentSettings } from "../provider/common/context";
import type { ListArgs } from "../sdk/dataSource";
import type * as SdkModule from "../sdk";
import type {
  BackupInfo,
  GetKaasArgs,
  GetRegistryArgs,
  KaasInfo,
  ListBackupsArgs,
  ListRegistriesArgs,
  RegistryInfo,
} from "../sdk";
import type { FunctionName } from "../sdk/kinds";
import { pluginToken } from "../provider/kinds";
import { requiredAs } from "../schemas/typed";
import type { VendorSettings } from "../rest/settings";
import { PACKAGE } from "./kinds";
import { markSecrets } from "./secrets";

/**
 * One invoke: its arguments `A` and result `R` are what the package schema states of it
 * (scripts/package-schema.mjs reads them from this table's types).
 */
export interface PluginFunction<A, R extends object> {
  /** What the function does, as the schema describes it. */
  description: string;
  run: (args: A, settings: VendorSettings) => Promise<R>;
  /** The properties of the result always returned as secrets. */
  secrets: readonly string[];
  /** `run` on the engine's arguments, its result as the invoke's outputs, `secrets` marked secret. */
  call: (
    args: Readonly<Record<string, unknown>>,
    settings: VendorSettings,
  ) => Promise<Record<string, unknown>>;
}

/**
 * The engine's arguments of an invoke as the function's `A`: the engine checks nothing of them against the
 * schema, and the SDK function checks what it reads (a missing id is refused there, naming it).
 */
const engineArguments = <A>(args: Readonly<Record<string, unknown>>): A => args as A;

/** A function's entry, typed by its arguments and result. */
const fn = <A, R extends object>(
  description: string,
  run: (args: A, settings: VendorSettings) => Promise<R>,
  secrets: readonly Extract<keyof R, string>[] = [],
): PluginFunction<A, R> => ({
  description,
  run,
  secrets,
  call: async (args, settings) =>
    markSecrets(Object.fromEntries(Object.entries(await run(engineArguments<A>(args), settings))), secrets),
});

/**
 * The SDK, required at the first invoke. It loads `@pulumi/pulumi` (for the functions' Output forms), about 300
 * modules and 60 MB, which a plugin process that only checks, diffs and applies resources never needs: loaded
 * at start, it was most of its start-up time and memory.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy on purpose, see above
const sdk = () => requiredAs<typeof SdkModule>(() => require("../sdk"));

/** A function of the table, whatever its arguments and result. */
type AnyPluginFunction = Pick<PluginFunction<never, object>, "description" | "call"> & {
  secrets: readonly string[];
};

/** The plugin's registry of functions: one entry for every function of the SDK (sdk/kinds.ts `FUNCTIONS`). */
export type PluginFunctionRegistry = { readonly [N in FunctionName]: AnyPluginFunction };

/** The arguments of a list on the plugin path: a list without a projection. */
type PluginListArgs<A extends ListArgs = ListArgs> = Omit<A, "projection">;

/** Every function the plugin serves, by name. */
export const PLUGIN_FUNCTIONS = {
  getKaas: fn<GetKaasArgs, KaasInfo>("Reads one cluster. Fails when it does not exist.", (args, settings) =>
    sdk().getKaas(args, { settings }),
  ),
  listKaas: fn<PluginListArgs, { items: KaasInfo[] }>(
    "Lists clusters across all pages.",
    async (args, settings) => ({ items: await sdk().listKaas({ ...args }, { settings }) }),
  ),
  getKubeconfig: fn<GetKaasArgs, { kubeconfig: string }>(
    "Downloads a cluster's kubeconfig, a secret.",
    async (args, settings) => ({ kubeconfig: await sdk().getKubeconfig(args, { settings }) }),
    ["kubeconfig"],
  ),
  listBackups: fn<PluginListArgs<ListBackupsArgs>, { items: BackupInfo[] }>(
    "Lists a cluster's backups across all pages.",
    async (args, settings) => ({ items: await sdk().listBackups({ ...args }, { settings }) }),
  ),
  getRegistry: fn<GetRegistryArgs, RegistryInfo>(
    "Reads one registry. Fails when it does not exist.",
    (args, settings) => sdk().getRegistry(args, { settings }),
  ),
  listRegistries: fn<PluginListArgs<ListRegistriesArgs>, { items: RegistryInfo[] }>(
    "Lists registries across all pages.",
    async (args, settings) => ({ items: await sdk().listRegistries({ ...args }, { settings }) }),
  ),
} satisfies PluginFunctionRegistry;

/** The token of a function: `vendor-container:index:getKaas`. */
export const functionToken = pluginToken;

/** Calls the function `token` names with `args`; throws for a token the plugin does not serve. */
export async function invoke(token: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const table: Readonly<Record<string, Pick<PluginFunction<never, object>, "call">>> = PLUGIN_FUNCTIONS;
  const name = Object.keys(table).find((key) => pluginToken(key) === token);
  if (name === undefined) throw new Error(`${PACKAGE}: unknown function ${token}; upgrade the plugin`);
  return table[name].call(args, currentSettings());
}
