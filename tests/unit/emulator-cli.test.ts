/**
 * The emulator's command line (`emulator/cli.ts`): strict parsing with `node:util`'s `parseArgs`, later
 * options overriding earlier ones, the exact wording of every refusal and of the usage.
 */
import { UsageError, main, parseArgs, type CliIo } from "../../emulator/cli";

/** What `--fast` sets: every duration 50 ms. */
const FAST = {
  kaasCreateMs: 50,
  kaasUpdateMs: 50,
  kaasDeleteMs: 50,
  registryCreateMs: 50,
  registryUpdateMs: 50,
  registryDeleteMs: 50,
  resetPasswordMs: 50,
  backupCreateMs: 50,
  backupUpdateMs: 50,
  backupDeleteMs: 50,
  attachMs: 50,
  detachMs: 50,
  tombstoneMs: 50,
};

/** What `--strict` sets: the strictest reading of each open point (the state names have no stricter one). */
const STRICT = {
  attachments: "hidden",
  nodeIds: "hidden",
  errors: "absent",
  dataCenter: "name",
  filters: "refused",
  registryVpc: "rejected",
  goneNode: "400",
  states: "service",
};

/** The usage text, with every default it states. */
const USAGE = `Usage: pulumi-vendor-container-emulator [options]

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
  --provisioning K=O     provisioning outcome of kind K (kaas, registry, backup): ok, stuck or fail
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

it.each([[["--help"]], [["-h"]], [["--help", "--colour"]], [["--port", "1", "--help"]]])(
  "%j asks for the usage",
  (argv) => {
    expect(parseArgs(argv)).toBe("help");
  },
);

it.each([
  [["--colour"], "unknown option --colour"],
  [["--colour", "--help"], "unknown option --colour"],
  [["-x"], "unknown option -x"],
  [["foo"], "unknown option foo"],
  [["--"], "unknown option --"],
  [["--fast=1"], "unknown option --fast=1"],
  [["--port"], "--port needs a value"],
  [["--wire"], "--wire needs a value"],
  // A value that starts with a dash is taken for a forgotten value (`--latency-ms=-1` passes one).
  [["--port", "--fast"], "--port needs a value"],
  [["--host", "--fast"], "--host needs a value"],
  [["--latency-ms", "-1"], "--latency-ms needs a value"],
  [["--port", "abc"], "--port needs a number"],
  [["--port", ""], "--port needs a number"],
  [["--port", "abc", "--help"], "--port needs a number"],
  [["--error-rate", "503"], "--error-rate needs a number"],
  [["--error-after-processing", "503"], "--error-after-processing needs a number"],
  [["--error-after-processing", "503=x"], "--error-after-processing needs a number"],
  [["--error-after-processing"], "--error-after-processing needs a value"],
  [["--rate-limit", "5/x"], "--rate-limit needs a number"],
  [["--provisioning", "kaas"], "--provisioning needs kind=outcome, e.g. kaas=fail"],
  [["--provisioning", "kaas=maybe"], "--provisioning needs kind=outcome, e.g. kaas=fail"],
  [["--provisioning", "nosuch=fail"], "--provisioning needs one of kaas, registry, backup"],
  [["--provisioning", "backups=fail"], "--provisioning needs one of kaas, registry, backup"],
  [["--provisioning", "=fail"], "--provisioning needs one of kaas, registry, backup"],
  [
    ["--wire", "nope=1"],
    "--wire needs one of attachments, nodeIds, errors, dataCenter, filters, registryVpc, goneNode, states",
  ],
  [
    ["--wire", "attachments=nope"],
    "--wire attachments needs one of attachedVolumes, linkedResources, hidden",
  ],
  [["--client-id", "x"], "--client-id and --client-secret go together"],
  [["--client-secret", "y"], "--client-id and --client-secret go together"],
])("%j is refused: %s", (argv, message) => {
  let error: unknown;
  try {
    parseArgs(argv);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(UsageError);
  expect((error as Error).message).toBe(message);
});

it.each([
  [["--port=80"], { port: 80 }],
  [["--latency-ms=-1"], { faults: { latencyMs: -1 } }],
  [["--versions", "1.30.1, 1.31.0,,"], { kubernetesVersions: ["1.30.1", "1.31.0"] }],
  [
    ["--error-rate", "503=0.1", "--error-rate", "500=0.2"],
    { faults: { errorRates: { 500: 0.2, 503: 0.1 } } },
  ],
  [
    ["--error-after-processing", "503=1", "--error-after-processing", "502=0.25"],
    { faults: { errorAfterProcessingRates: { 502: 0.25, 503: 1 } } },
  ],
  [
    ["--error-after-processing=504=0.5", "--drop-after-rate", "0.5"],
    { faults: { errorAfterProcessingRates: { 504: 0.5 }, dropAfterProcessingRate: 0.5 } },
  ],
  [["--rate-limit", "5"], { faults: { rateLimit: { ratePerSecond: 5, burst: 5 } } }],
  [
    ["--provisioning", "kaas=fail", "--provisioning", "backup=stuck"],
    { faults: { provisioning: { kaas: "fail", registry: "ok", backup: "stuck" } } },
  ],
  [
    ["--update-ms", "5", "--delete-ms", "7"],
    {
      durations: {
        kaasUpdateMs: 5,
        registryUpdateMs: 5,
        backupUpdateMs: 5,
        resetPasswordMs: 5,
        kaasDeleteMs: 7,
        registryDeleteMs: 7,
        backupDeleteMs: 7,
      },
    },
  ],
  [
    ["--drop-rate", "0.1", "--drop-after-rate", "0.2", "--token-ttl", "60", "--namespace", "NS"],
    { faults: { dropRate: 0.1, dropAfterProcessingRate: 0.2 }, tokenTtlSeconds: 60, namespace: "NS" },
  ],
])("%j parses", (argv, options) => {
  expect(parseArgs(argv)).toEqual(options);
});

it("a later option overrides an earlier one", () => {
  expect(parseArgs(["--fast", "--create-ms", "10"])).toEqual({
    durations: { ...FAST, kaasCreateMs: 10, registryCreateMs: 10, backupCreateMs: 10 },
  });
  expect(parseArgs(["--create-ms", "10", "--fast"])).toEqual({ durations: FAST });
  expect(parseArgs(["--wire", "attachments=linkedResources", "--strict"])).toEqual({ wire: STRICT });
  expect(parseArgs(["--strict", "--wire", "attachments=linkedResources"])).toEqual({
    wire: { ...STRICT, attachments: "linkedResources" },
  });
});

it("main refuses to start an emulator with a status that cannot be answered after processing", async () => {
  const io: CliIo = {
    stdout: () => undefined,
    stderr: () => undefined,
    onSignal: () => undefined,
    exit: () => undefined,
  };
  await expect(main(["--port", "0", "--error-after-processing", "500=1"], io)).rejects.toThrow(
    "invalid emulator options: errorAfterProcessingRates.500: is not injectable after processing (injectable: 502, 503, 504)",
  );
});

it("main prints the usage for --help and the error with the usage, exit 2, for a refusal", async () => {
  const out: string[] = [];
  const err: string[] = [];
  const exits: number[] = [];
  const io: CliIo = {
    stdout: (line) => out.push(line),
    stderr: (line) => err.push(line),
    onSignal: () => undefined,
    exit: (code) => exits.push(code),
  };
  expect(await main(["--help"], io)).toBeUndefined();
  expect(out).toEqual([USAGE.trimEnd()]);
  expect(await main(["--port"], io)).toBeUndefined();
  expect(err).toEqual([`error: --port needs a value\n\n${USAGE}`]);
  expect(exits).toEqual([2]);
});
