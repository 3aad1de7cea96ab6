#!/usr/bin/env node
/**
 * `pulumi-vendor-container-emulator`: runs the emulator as a process. Prints exactly one line,
 * `Emulator listening on http://HOST:PORT`, to stdout once it accepts connections; on SIGINT or SIGTERM it
 * persists the state file (if any), closes and exits 0.
 */
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
  --create-ms N          duration of cluster, registry and backup creation
  --update-ms N          duration of updates
  --delete-ms N          duration of deletions
  --versions A,B,...     admissible Kubernetes versions
  --error-rate S=R       inject status S (429, 500, 502, 503, 504) with probability R (repeatable)
  --drop-rate R          probability of dropping a connection before processing
  --drop-after-rate R    probability of dropping a connection after processing
  --latency-ms N         latency added to every API request
  --rate-limit R/B       token bucket: R requests per second, burst B
  --provisioning K=O     provisioning outcome of kind K (kaas, registry, backup): ok, stuck or fail
  --wire K=V             reading of what the published interface leaves open (repeatable):
                           attachments=attachedVolumes|linkedResources|hidden, nodeIds=shown|hidden,
                           errors=array|map|absent, dataCenter=code|name,
                           filters=membership|whole|ignored|refused
  --strict               the published interface only (every --wire at its strictest); later --wire
                         options still apply
  --help                 print this text
`;

/** Thrown for a command line that cannot work; the message is shown with the usage. */
export class UsageError extends Error {}

function numberArg(flag: string, text: string | undefined): number {
  const value = Number(text);
  if (text === undefined || text === "" || !Number.isFinite(value))
    throw new UsageError(`${flag} needs a number`);
  return value;
}

/** Parses the command line into start options. Returns "help" for `--help`. */
export function parseArgs(argv: string[]): StartEmulatorOptions | "help" {
  const options: StartEmulatorOptions = {};
  const durations: Partial<Durations> = {};
  const faults: Partial<FaultConfig> = {};
  const tokens: string[] = [];
  const wire: Partial<WireReadings> = {};
  let clientId: string | undefined;
  let clientSecret: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new UsageError(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case "--help":
      case "-h":
        return "help";
      case "--port":
        options.port = numberArg(flag, value());
        break;
      case "--host":
        options.host = value();
        break;
      case "--state":
        options.stateFile = value();
        break;
      case "--token":
        tokens.push(value());
        break;
      case "--client-id":
        clientId = value();
        break;
      case "--client-secret":
        clientSecret = value();
        break;
      case "--token-ttl":
        options.tokenTtlSeconds = numberArg(flag, value());
        break;
      case "--namespace":
        options.namespace = value();
        break;
      case "--seed":
        options.seed = numberArg(flag, value());
        break;
      case "--fast":
        Object.assign(durations, FAST_DURATIONS);
        break;
      case "--create-ms": {
        const ms = numberArg(flag, value());
        Object.assign(durations, { kaasCreateMs: ms, registryCreateMs: ms, backupCreateMs: ms });
        break;
      }
      case "--update-ms": {
        const ms = numberArg(flag, value());
        Object.assign(durations, {
          kaasUpdateMs: ms,
          registryUpdateMs: ms,
          backupUpdateMs: ms,
          resetPasswordMs: ms,
        });
        break;
      }
      case "--delete-ms": {
        const ms = numberArg(flag, value());
        Object.assign(durations, { kaasDeleteMs: ms, registryDeleteMs: ms, backupDeleteMs: ms });
        break;
      }
      case "--versions":
        options.kubernetesVersions = value()
          .split(",")
          .map((v) => v.trim())
          .filter(Boolean);
        break;
      case "--error-rate": {
        const [status, rate] = value().split("=");
        faults.errorRates = { ...faults.errorRates, [Number(status)]: numberArg(flag, rate) };
        break;
      }
      case "--drop-rate":
        faults.dropRate = numberArg(flag, value());
        break;
      case "--drop-after-rate":
        faults.dropAfterProcessingRate = numberArg(flag, value());
        break;
      case "--latency-ms":
        faults.latencyMs = numberArg(flag, value());
        break;
      case "--rate-limit": {
        const [rate, burst] = value().split("/");
        faults.rateLimit = { ratePerSecond: numberArg(flag, rate), burst: numberArg(flag, burst ?? rate) };
        break;
      }
      case "--provisioning": {
        const [kind, outcome] = value().split("=");
        if (!["kaas", "registry", "backup"].includes(kind) || !["ok", "stuck", "fail"].includes(outcome)) {
          throw new UsageError(`${flag} needs kind=outcome, e.g. kaas=fail`);
        }
        faults.provisioning = {
          ...(faults.provisioning ?? { kaas: "ok", registry: "ok", backup: "ok" }),
          [kind]: outcome,
        } as FaultConfig["provisioning"];
        break;
      }
      case "--strict":
        Object.assign(wire, STRICT_WIRE);
        break;
      case "--wire": {
        const [key, reading] = value().split("=");
        const choices = (WIRE_CHOICES as Record<string, readonly string[]>)[key];
        if (!choices) throw new UsageError(`${flag} needs one of ${Object.keys(WIRE_CHOICES).join(", ")}`);
        if (!choices.includes(reading))
          throw new UsageError(`${flag} ${key} needs one of ${choices.join(", ")}`);
        Object.assign(wire, { [key]: reading });
        break;
      }
      default:
        throw new UsageError(`unknown option ${flag}`);
    }
  }
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
    process.stderr.write(`error: ${(error as Error)?.message ?? String(error)}\n`);
    process.exit(1);
  });
}
