/**
 * What a stack on a file backend (`PULUMI_BACKEND_URL=file://...`) holds, read from the backend's files.
 *
 * After every `up`, `refresh` and `destroy` the Automation API asks the CLI for the stack's outputs (two runs of
 * `pulumi stack output`) and for its last update (`pulumi stack history --show-secrets`): three CLI runs, two of
 * which, on a passphrase stack, derive its key (a deliberately slow PBKDF2). The file backend keeps both in plain files: the checkpoint
 * (`.pulumi/stacks/<project>/<stack>.json`, whose `latest` is what `pulumi stack export` prints) and one history
 * file per update (`.pulumi/history/<project>/<stack>/<stack>-<time>.history.json`, what `stack history`
 * prints). `fastReads` reads those; the secret outputs it decrypts itself when the stack's data key is wrapped
 * by the suite's key service (./vault.ts), and asks the CLI for them otherwise. Any other backend (PostgreSQL)
 * keeps the Automation API's own calls.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import type { OutputMap, Stack, UpdateSummary } from "@pulumi/pulumi/automation";
import { openSealed, seal, type KeyService } from "./vault";

const runFile = promisify(execFile);

/** The property Pulumi marks a secret value with in state, and its value. */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";
const SECRET_MARK = "1b47061264138c4ac30d75fd1eb44270";

/** A resource of a checkpoint, as far as the suite reads it. */
export interface CheckpointResource {
  urn: string;
  type: string;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

/**
 * Where the files of stack `stackName` of the program in `workDir` lie on the backend at `backendUrl` (whether
 * or not the stack exists yet), or undefined when that is not a file backend laid out by project.
 */
export function stackFiles(
  backendUrl: string,
  workDir: string,
  stackName: string,
): { checkpoint: string; history: string } | undefined {
  if (!backendUrl.startsWith("file://") || stackName.includes("/")) return undefined;
  const manifest = fs.readFileSync(path.join(workDir, "Pulumi.yaml"), "utf8");
  const project = /^name:\s*(\S+)\s*$/m.exec(manifest)?.[1];
  if (!project) return undefined;
  const root = path.join(backendUrl.slice("file://".length), ".pulumi");
  return {
    checkpoint: path.join(root, "stacks", project, `${stackName}.json`),
    history: path.join(root, "history", project, stackName),
  };
}

/** Where `stack`'s files lie, or undefined when it has none on a file backend laid out by project. */
function filesOf(stack: Stack): { checkpoint: string; history: string } | undefined {
  const { envVars, workDir } = stack.workspace;
  const files = stackFiles(envVars.PULUMI_BACKEND_URL ?? "", workDir, stack.name);
  return files && fs.existsSync(files.checkpoint) ? files : undefined;
}

/** The part of a checkpoint's deployment the suite reads. */
interface Deployment {
  resources?: CheckpointResource[];
  secrets_providers?: { type: string; state?: { url?: string; encryptedkey?: string } };
}

/** The latest deployment of `stack`'s checkpoint (secrets still encrypted), or undefined on another backend. */
function latestOf(stack: Stack): Deployment | undefined {
  const files = filesOf(stack);
  if (!files) return undefined;
  const { checkpoint } = JSON.parse(fs.readFileSync(files.checkpoint, "utf8")) as {
    checkpoint: { latest?: Deployment };
  };
  return checkpoint.latest ?? {};
}

/** The resources of `stack`'s checkpoint (secrets still encrypted), or undefined on another backend. */
export function checkpointResources(stack: Stack): CheckpointResource[] | undefined {
  const latest = latestOf(stack);
  return latest && (latest.resources ?? []);
}

const isSecret = (value: unknown): value is { ciphertext: string } =>
  typeof value === "object" &&
  value !== null &&
  (value as Record<string, unknown>)[SECRET_SIG] === SECRET_MARK;

/**
 * Pulumi's symmetric encryption of a secret value: `v1:<nonce>:<sealed>`, both base64, AES-256-GCM with the
 * 16-byte tag at the end of `sealed`; the plaintext is the value's JSON.
 */
function decryptValue(ciphertext: string, key: Buffer): unknown {
  const [version, nonce, sealed] = ciphertext.split(":");
  if (version !== "v1" || !nonce || !sealed)
    throw new Error(`not a v1 ciphertext: ${ciphertext.slice(0, 12)}...`);
  const plain = openSealed(key, Buffer.from(nonce, "base64"), Buffer.from(sealed, "base64"));
  return JSON.parse(plain.toString("utf8"));
}

/** `plaintext` encrypted as Pulumi encrypts a secret under a stack's data key (the form `decryptValue` opens). */
export function encryptValue(plaintext: string, key: Buffer): string {
  const { nonce, sealed } = seal(key, Buffer.from(plaintext, "utf8"));
  return `v1:${nonce.toString("base64")}:${sealed.toString("base64")}`;
}

/** A value of the checkpoint as `pulumi stack output --show-secrets` prints it: every secret decrypted. */
function plainOf(value: unknown, key: Buffer): unknown {
  if (isSecret(value)) return plainOf(decryptValue(value.ciphertext, key), key);
  if (Array.isArray(value)) return value.map((item) => plainOf(item, key));
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plainOf(v, key)]));
  return value;
}

/** The last update of `stack` as `stack.info()` returns it, from the newest history file. */
function lastUpdate(historyDir: string, stackName: string): UpdateSummary | undefined {
  const time = (file: string) => BigInt(file.slice(stackName.length + 1, -".history.json".length));
  const files = fs
    .readdirSync(historyDir)
    .filter((f) => f.startsWith(`${stackName}-`) && f.endsWith(".history.json"))
    .sort((a, b) => (time(a) < time(b) ? -1 : time(a) > time(b) ? 1 : 0));
  if (files.length === 0) return undefined;
  const update = JSON.parse(fs.readFileSync(path.join(historyDir, files[files.length - 1]), "utf8"));
  // The history file holds times in Unix seconds; `stack history --json` prints them as dates.
  return {
    ...update,
    startTime: new Date(update.startTime * 1000),
    endTime: new Date(update.endTime * 1000),
  };
}

/**
 * Makes `stack.info()` read the newest history file and `stack.outputs()` read the checkpoint, where the stack's
 * backend is a file backend (at the time of each call: a test may point a stack at another backend). The
 * secret outputs are decrypted here when `keys` wraps the stack's data key, else by one
 * `pulumi stack output --show-secrets`.
 */
export function fastReads(stack: Stack, keys?: KeyService): Stack {
  const info = stack.info.bind(stack);
  const outputs = stack.outputs.bind(stack);
  stack.info = async (showSecrets?: boolean) => {
    const files = filesOf(stack);
    return files ? lastUpdate(files.history, stack.name) : info(showSecrets);
  };
  stack.outputs = async (): Promise<OutputMap> => {
    const latest = latestOf(stack);
    if (!latest) return outputs();
    const root = latest.resources?.find((r) => r.type === "pulumi:pulumi:Stack");
    if (!root?.outputs) return {};
    const provider = latest.secrets_providers;
    if (keys && provider?.type === "cloud" && provider.state?.url === keys.secretsProvider) {
      const key = keys.dataKey(provider.state.encryptedkey ?? "");
      return Object.fromEntries(
        Object.entries(root.outputs).map(([name, value]) => [
          name,
          { value: plainOf(value, key), secret: isSecret(value) },
        ]),
      );
    }
    const { stdout } = await runFile(
      stack.workspace.pulumiCommand.command,
      ["stack", "output", "--json", "--show-secrets", "--stack", stack.name, "--non-interactive"],
      {
        cwd: stack.workspace.workDir,
        env: {
          ...(stack.workspace.pulumiHome ? { PULUMI_HOME: stack.workspace.pulumiHome } : {}),
          ...stack.workspace.envVars,
        },
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    const plain: Record<string, unknown> = JSON.parse(stdout);
    return Object.fromEntries(
      Object.entries(plain).map(([key, value]) => [key, { value, secret: isSecret(root.outputs?.[key]) }]),
    );
  };
  return stack;
}
