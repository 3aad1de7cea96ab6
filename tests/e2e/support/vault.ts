/**
 * The key service behind the suite's stacks: the two calls of HashiCorp Vault's transit engine that Pulumi's
 * `hashivault://` secrets provider makes (encrypt and decrypt a stack's data key), on loopback.
 *
 * Why not the passphrase: with `PULUMI_CONFIG_PASSPHRASE` every CLI run that reads or writes a stack derives
 * its key with 1,000,000 rounds of PBKDF2, about 0.2 CPU-s, and the suite makes about fifteen hundred such runs.
 * With a key service the CLI asks for its data key over loopback instead. The secrets in state and in
 * `Pulumi.<stack>.yaml` are encrypted exactly as before (AES-256-GCM under the stack's data key, which only
 * this service can unwrap), so the suite's searches for secrets in plain text prove as much. The passphrase
 * stays what the documents, the demo, the CI samples and the template use, and those suites run with it.
 */
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/** A running key service and what the CLI needs to use it. */
export interface KeyService {
  /** `--secrets-provider` of the suite's stacks. */
  secretsProvider: string;
  /** `VAULT_SERVER_URL` and `VAULT_SERVER_TOKEN` for the CLI. */
  env: Record<string, string>;
  /** The data key of a stack, from the `encryptedkey` its state and `Pulumi.<stack>.yaml` hold (base64). */
  dataKey(encryptedKey: string): Buffer;
  /** A new data key for a stack about to be created, and its `encryptedkey` as the CLI would write it. */
  newDataKey(): { key: Buffer; encryptedKey: string };
  close(): Promise<void>;
}

const KEY_NAME = "e2e";
/** Vault's ciphertext prefix: key version 1. */
const PREFIX = "vault:v1:";

/**
 * Opens AES-256-GCM `sealed` (the ciphertext followed by its 16-byte tag) under `key` and `nonce`: the form of
 * this service's wrapped keys and of Pulumi's encrypted values (`v1:<nonce>:<sealed>`) alike.
 */
export function openSealed(key: Buffer, nonce: Buffer, sealed: Buffer): Buffer {
  const decipher = crypto.createDecipheriv("aes-256-gcm", key, nonce);
  decipher.setAuthTag(sealed.subarray(sealed.length - 16));
  return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - 16)), decipher.final()]);
}

/** Seals `plaintext` under `key` with a random nonce: AES-256-GCM, the tag at the end of `sealed`. */
export function seal(key: Buffer, plaintext: Buffer): { nonce: Buffer; sealed: Buffer } {
  const nonce = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", key, nonce);
  return { nonce, sealed: Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]) };
}

/** Starts a key service whose one key is random and lives only in this process. */
export async function startKeyService(): Promise<KeyService> {
  const key = crypto.randomBytes(32);
  const token = crypto.randomBytes(16).toString("hex");
  const wrap = (plaintext: Buffer): string => {
    const { nonce, sealed } = seal(key, plaintext);
    return PREFIX + Buffer.concat([nonce, sealed]).toString("base64");
  };
  const unwrap = (ciphertext: string): Buffer => {
    if (!ciphertext.startsWith(PREFIX)) throw new Error("not a ciphertext of this key");
    const bytes = Buffer.from(ciphertext.slice(PREFIX.length), "base64");
    return openSealed(key, bytes.subarray(0, 12), bytes.subarray(12));
  };

  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const answer = (status: number, payload: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(payload));
      };
      try {
        if (req.headers["x-vault-token"] !== token) return answer(403, { errors: ["permission denied"] });
        const request = JSON.parse(body || "{}");
        // The Go client sends `plaintext` as base64 (a []byte) and answers decryptions in base64 too.
        if (req.url === `/v1/transit/encrypt/${KEY_NAME}`)
          return answer(200, { data: { ciphertext: wrap(Buffer.from(request.plaintext, "base64")) } });
        if (req.url === `/v1/transit/decrypt/${KEY_NAME}`)
          return answer(200, { data: { plaintext: unwrap(request.ciphertext).toString("base64") } });
        return answer(404, { errors: [`no route ${req.method} ${req.url}`] });
      } catch (error) {
        return answer(400, { errors: [String(error)] });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    secretsProvider: `hashivault://${KEY_NAME}`,
    env: { VAULT_SERVER_URL: `http://127.0.0.1:${port}`, VAULT_SERVER_TOKEN: token },
    dataKey: (encryptedKey) => unwrap(Buffer.from(encryptedKey, "base64").toString("utf8")),
    newDataKey: () => {
      const dataKey = crypto.randomBytes(32);
      return { key: dataKey, encryptedKey: Buffer.from(wrap(dataKey), "utf8").toString("base64") };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
