#!/usr/bin/env node
/**
 * `pulumi-vendor-container-emulator`: runs the emulator as a process. Prints exactly one line,
 * `Emulator listening on http://HOST:PORT`, to stdout once it accepts connections; on SIGINT or SIGTERM it
 * persists the state file (if any), closes and exits 0.
 */
import { parseArgs as parseCommandLine, type ParseArgsConfig } from "node:util";
import {
  FAST_DURATIONS,
  STRICT_WIRE,
  WIRE_CHOICES,
  startEmulator,
  type Durations,
  type FaultConfig,
  type RunningEmulator,
  type StartEmulatorOptions,
  type WireReadings,
} from "./index";
// Straight from the module rather than through `index.ts`, so the package's public exports stay as they are.
import { isProvisioningOutcome } from "./base/transitions";
import { PROVISIONED_KINDS, defaultFaults } from "./composition/faults";
import { isKindOf } from "./generic/tables";
import { KINDS } from "./kinds";
import { errorCode, errorMessage } from "./base/errors";
import { wireReadingNames } from "./base/config";
import type { DurationPhase } from "./base/durations";
import { durationsOfPhase } from "./composition/config";

/** One element of the command line as `parseArgs` reads it. */
type Token = NonNullable<ReturnType<typeof parseCommandLine>["tokens"]>[number];

/** Usage text of `--help`. */
export const USAGE = `Usage: pulumi-vendor-container-emulator [options]

  --port N               TCP port (default 0: a free port)
  --host H               interface to bind (default 127.0.0.1)
  --state FILE           JSON state file, loaded at start and written after each change
  --token T              accepted static bearer token (repeatable; default emulator-token)
  --client-id X          OAuth2 client id for POST /oauth2/token (with --client-secret)
  --client-secret Y      OAuth2 client secret
  --token-ttl S          lifetime of issued access tokens, seconds (default 3600)
  --namespace NS         provider namespace path segment (default Vendor.Container)
  --seed N               seed of derived secrets and faults (default 1)
  --fast                 every asynchronous operation completes within 50 ms
  --create-ms N          duration of creations
  --update-ms N          duration of updates
  --delete-ms N          duration of deletions
  --versions A,B,...     admissible Kubernetes versions
  --error-rate S=R       inject status S (429, 500, 502, 503, 504) with probability R (repeatable)
  --drop-rate R          probability of dropping a connection before processing
  --drop-after-rate R    probability of dropping a connection after processing
  --error-after-processing S=R
                         process the request, then answer status S (502, 503, 504) instead of its
                         real answer with probability R (repeatable)
  --latency-ms N         latency added to every API request
  --rate-limit R/B       token bucket: R requests per second, burst B
  --provisioning K=O     provisioning outcome of kind K (${PROVISIONED_KINDS.join(", ")}): ok, stuck or fail
  --wire K=V             reading of what the published interface leaves open (repeatable):
                           attachments=attachedVolumes|linkedResources|hidden, nodeIds=shown|hidden,
                           errors=array|map|absent, dataCenter=code|name,
                           filters=membership|whole|ignored|refused,
                           registryVpc=accepted|rejected, goneNode=404|400,
                           states=service|upper|alternate
  --strict               the published interface only (every --wire at its strictest); later --wire
                         options still apply
  --help                 print this text
`;

/** Thrown for a command line that cannot work; the message is shown with the usage. */
export class UsageError extends Error {}

/** The options of the command line, as `node:util`'s `parseArgs` reads them. */
const OPTIONS = {
  port: { type: "string" },
  host: { type: "string" },
  state: { type: "string" },
  token: { type: "string", multiple: true },
  "client-id": { type: "string" },
  "client-secret": { type: "string" },
  "token-ttl": { type: "string" },
  namespace: { type: "string" },
  seed: { type: "string" },
  fast: { type: "boolean" },
  "create-ms": { type: "string" },
  "update-ms": { type: "string" },
  "delete-ms": { type: "string" },
  versions: { type: "string" },
  "error-rate": { type: "string", multiple: true },
  "drop-rate": { type: "string" },
  "drop-after-rate": { type: "string" },
  "error-after-processing": { type: "string", multiple: true },
  "latency-ms": { type: "string" },
  "rate-limit": { type: "string" },
  provisioning: { type: "string", multiple: true },
  wire: { type: "string", multiple: true },
  strict: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const satisfies NonNullable<ParseArgsConfig["options"]>;

type OptionName = keyof typeof OPTIONS;
/** The options that take a value. */
type ValueOption = {
  [N in OptionName]: (typeof OPTIONS)[N]["type"] extends "string" ? N : never;
}[OptionName];
/** The flags, `--help` apart. */
type FlagOption = Exclude<OptionName, ValueOption | "help">;

/** The start options being built, one command-line option after the other. */
interface Draft {
  options: StartEmulatorOptions;
  durations: Partial<Durations>;
  faults: Partial<FaultConfig>;
  tokens: string[];
  wire: Partial<WireReadings>;
  clientId?: string;
  clientSecret?: string;
}

function numberArg(flag: string, text: string | undefined): number {
  const value = Number(text);
  if (text === undefined || text === "" || !Number.isFinite(value))
    throw new UsageError(`${flag} needs a number`);
  return value;
}

/**
 * What `--create-ms`, `--update-ms` or `--delete-ms` does to the draft: every duration of `phase`, of every kind
 * (`KindModule.durations`: a registry's admin password reset is an update), takes the value.
 */
function phaseDurations(phase: DurationPhase): (draft: Draft, value: string, flag: string) => void {
  const names = durationsOfPhase(phase);
  return (d, v, flag) => {
    const ms = numberArg(flag, v);
    for (const name of names) d.durations[name] = ms;
  };
}

/**
 * What each option with a value does to the draft. Applied in command-line order, since later options
 * override earlier ones (`--create-ms` after `--fast`, `--wire` after `--strict`).
 */
const VALUE_OPTIONS: { readonly [N in ValueOption]: (draft: Draft, value: string, flag: string) => void } = {
  port: (d, v, flag) => (d.options.port = numberArg(flag, v)),
  host: (d, v) => (d.options.host = v),
  state: (d, v) => (d.options.stateFile = v),
  token: (d, v) => d.tokens.push(v),
  "client-id": (d, v) => (d.clientId = v),
  "client-secret": (d, v) => (d.clientSecret = v),
  "token-ttl": (d, v, flag) => (d.options.tokenTtlSeconds = numberArg(flag, v)),
  namespace: (d, v) => (d.options.namespace = v),
  seed: (d, v, flag) => (d.options.seed = numberArg(flag, v)),
  "create-ms": phaseDurations("create"),
  "update-ms": phaseDurations("update"),
  "delete-ms": phaseDurations("delete"),
  versions: (d, v) =>
    (d.options.kubernetesVersions = v
      .split(",")
      .map((version) => version.trim())
      .filter(Boolean)),
  "error-rate": (d, v, flag) => {
    const [status, rate] = v.split("=");
    d.faults.errorRates = { ...d.faults.errorRates, [Number(status)]: numberArg(flag, rate) };
  },
  "drop-rate": (d, v, flag) => (d.faults.dropRate = numberArg(flag, v)),
  "drop-after-rate": (d, v, flag) => (d.faults.dropAfterProcessingRate = numberArg(flag, v)),
  // Like --error-rate, the status is checked by the emulator at start, with the fault configuration.
  "error-after-processing": (d, v, flag) => {
    const [status, rate] = v.split("=");
    d.faults.errorAfterProcessingRates = {
      ...d.faults.errorAfterProcessingRates,
      [Number(status)]: numberArg(flag, rate),
    };
  },
  "latency-ms": (d, v, flag) => (d.faults.latencyMs = numberArg(flag, v)),
  "rate-limit": (d, v, flag) => {
    const [rate, burst] = v.split("/");
    d.faults.rateLimit = { ratePerSecond: numberArg(flag, rate), burst: numberArg(flag, burst ?? rate) };
  },
  provisioning: (d, v, flag) => {
    const [kind, outcome] = v.split("=");
    if (!isKindOf(KINDS, kind)) throw new UsageError(`${flag} needs one of ${PROVISIONED_KINDS.join(", ")}`);
    if (!isProvisioningOutcome(outcome)) throw new UsageError(`${flag} needs kind=outcome, e.g. kaas=fail`);
    d.faults.provisioning = { ...(d.faults.provisioning ?? defaultFaults().provisioning), [kind]: outcome };
  },
  wire: (d, v, flag) => {
    const [key, reading] = v.split("=");
    const name = wireReadingNames().find((known) => known === key);
    const choices: readonly string[] | undefined = name === undefined ? undefined : WIRE_CHOICES[name];
    if (!choices) throw new UsageError(`${flag} needs one of ${Object.keys(WIRE_CHOICES).join(", ")}`);
    if (!choices.includes(reading)) throw new UsageError(`${flag} ${key} needs one of ${choices.join(", ")}`);
    Object.assign(d.wire, { [key]: reading });
  },
};

/** What each flag does to the draft. */
const FLAG_OPTIONS: { readonly [N in FlagOption]: (draft: Draft) => void } = {
  fast: (d) => Object.assign(d.durations, FAST_DURATIONS),
  strict: (d) => Object.assign(d.wire, STRICT_WIRE),
};

const isValueOption = (name: string): name is ValueOption => Object.hasOwn(VALUE_OPTIONS, name);
const isFlagOption = (name: string): name is FlagOption => Object.hasOwn(FLAG_OPTIONS, name);

/**
 * Why strict parsing refused `argv`, worded as the CLI words it, found by reading `argv` again leniently:
 * the first unknown option, argument or option without its value. "help" when `--help` comes before it.
 */
function refusalOf(argv: string[], parseError: string): UsageError | "help" {
  const { tokens } = parseCommandLine({
    args: argv,
    options: OPTIONS,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  for (const token of tokens) {
    if (token.kind === "positional") return new UsageError(`unknown option ${token.value}`);
    if (token.kind === "option-terminator") return new UsageError("unknown option --");
    if (token.name === "help") return "help";
    const spelled = token.inlineValue ? `${token.rawName}=${token.value}` : token.rawName;
    if (isFlagOption(token.name) && token.value !== undefined)
      return new UsageError(`unknown option ${spelled}`);
    if (!isValueOption(token.name) && !isFlagOption(token.name))
      return new UsageError(`unknown option ${spelled}`);
    // A value that looks like an option is strict parsing's "ambiguous" argument: the value was left out.
    if (
      isValueOption(token.name) &&
      (token.value === undefined || (!token.inlineValue && token.value.startsWith("-")))
    )
      return new UsageError(`${token.rawName} needs a value`);
  }
  return new UsageError(parseError);
}

/** The start options of the finished draft: only what the command line set. */
function optionsOf(draft: Draft): StartEmulatorOptions {
  const { options, durations, faults, tokens, wire, clientId, clientSecret } = draft;
  if ((clientId === undefined) !== (clientSecret === undefined)) {
    throw new UsageError("--client-id and --client-secret go together");
  }
  if (tokens.length > 0) options.tokens = tokens;
  if (clientId !== undefined && clientSecret !== undefined) options.clients = [{ clientId, clientSecret }];
  if (Object.keys(durations).length > 0) options.durations = durations;
  if (Object.keys(wire).length > 0) options.wire = wire;
  if (Object.keys(faults).length > 0) options.faults = faults;
  return options;
}

/**
 * Parses the command line into start options (strictly: unknown options, arguments and missing values are
 * usage errors). Returns "help" for `--help` or `-h`, unless an option before it is refused.
 */
export function parseArgs(argv: string[]): StartEmulatorOptions | "help" {
  let tokens: Token[];
  try {
    ({ tokens } = parseCommandLine({ args: argv, options: OPTIONS, strict: true, tokens: true }));
  } catch (error) {
    if (!String(errorCode(error)).startsWith("ERR_PARSE_ARGS_")) throw error;
    const refusal = refusalOf(argv, errorMessage(error));
    if (refusal === "help") return "help";
    throw refusal;
  }
  const draft: Draft = { options: {}, durations: {}, faults: {}, tokens: [], wire: {} };
  for (const token of tokens) {
    // `--` alone ends the options without any argument after it; the CLI takes no arguments at all.
    if (token.kind !== "option") throw new UsageError("unknown option --");
    if (token.name === "help") return "help";
    if (isValueOption(token.name)) {
      // Every value option is declared `type: "string"` (OPTIONS), so under `strict` its token carries a value.
      if (token.value === undefined) throw new UsageError(`${token.rawName} needs a value`);
      VALUE_OPTIONS[token.name](draft, token.value, token.rawName);
    } else if (isFlagOption(token.name)) FLAG_OPTIONS[token.name](draft);
  }
  return optionsOf(draft);
}

/** What `main` talks to; the process by default, fakes in tests. */
export interface CliIo {
  stdout: (line: string) => void;
  stderr: (line: string) => void;
  onSignal: (signal: "SIGINT" | "SIGTERM", handler: () => void) => void;
  exit: (code: number) => void;
}

const processIo: CliIo = {
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
  onSignal: (signal, handler) => process.once(signal, handler),
  exit: (code) => process.exit(code),
};

/** Runs the CLI. Resolves with the running emulator, or undefined after `--help` or a usage error. */
export async function main(argv: string[], io: CliIo = processIo): Promise<RunningEmulator | undefined> {
  let options: StartEmulatorOptions | "help";
  try {
    options = parseArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`error: ${error.message}\n\n${USAGE}`);
    io.exit(2);
    return undefined;
  }
  if (options === "help") {
    io.stdout(USAGE.trimEnd());
    return undefined;
  }
  const running = await startEmulator(options);
  const stop = () => {
    running.close().then(
      () => io.exit(0),
      () => io.exit(1),
    );
  };
  io.onSignal("SIGINT", stop);
  io.onSignal("SIGTERM", stop);
  io.stdout(`Emulator listening on ${running.url}`);
  return running;
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`error: ${errorMessage(error)}\n`);
    process.exit(1);
  });
}
