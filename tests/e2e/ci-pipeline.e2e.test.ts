/**
 * `examples/ci-pipeline` as its sample workflow runs it: the main example deployed to a `dev` and a `prod`
 * stack, each with its own `Pulumi.<stack>.yaml` and its own credentials (`dev` a static token stored as an
 * encrypted stack secret, `prod` OAuth2 client credentials from the job's environment), preview then up per
 * stack; the two environments get their own clusters and outputs, and both are destroyed.
 */
import fs from "node:fs";
import path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { ROOT } from "./support/engine";
import { openSuite, values, type Suite } from "./support/suite";

let s: Suite;
let pipeline: string;
beforeAll(async () => {
  s = await openSuite("pipeline");
  // The pipeline project runs `../cluster/`: keep the two folders side by side.
  const parent = path.join(s.dir, "programs", "examples");
  for (const name of ["ci-pipeline", "cluster"]) {
    fs.cpSync(path.join(ROOT, "examples", name), path.join(parent, name), {
      recursive: true,
      filter: (src) => !src.includes("node_modules"),
    });
  }
  pipeline = path.join(parent, "ci-pipeline");
});
afterAll(async () => {
  await s?.close();
});

/** The committed stack config of `stack`, as the pipeline reads it. */
function committedConfig(stack: string): Record<string, string> {
  const text = fs.readFileSync(path.join(ROOT, "examples/ci-pipeline", `Pulumi.${stack}.yaml`), "utf8");
  return Object.fromEntries([...text.matchAll(/^ {2}([\w:-]+): (.+)$/gm)].map((m) => [m[1], m[2].trim()]));
}

it("deploys dev and prod from one program with their own config and credentials, then destroys both", async () => {
  const dev = committedConfig("dev");
  const prod = committedConfig("prod");
  // The committed files point at the real service; the test points the same stacks at the emulator.
  const stacks: Record<string, Stack> = {
    dev: await s.stack("dev", pipeline, { "vendor:projectId": { value: dev["vendor:projectId"] } }),
    prod: await s.stack(
      "prod",
      pipeline,
      { "vendor:projectId": { value: prod["vendor:projectId"] } },
      {
        VENDOR_CLIENT_ID: "emulator-client",
        VENDOR_CLIENT_SECRET: "emulator-secret",
        VENDOR_TOKEN_URL: `${s.emulator.url}/oauth2/token`,
      },
    ),
  };
  await stacks.prod.removeConfig("vendor:token");

  const outputs: Record<string, Record<string, unknown>> = {};
  for (const [name, stack] of Object.entries(stacks)) {
    const preview = await stack.preview();
    expect(preview.changeSummary).toEqual({ create: 4 });
    const result = await stack.up();
    expect(result.summary.resourceChanges).toEqual({ create: 4 });
    outputs[name] = values(result.outputs);
  }
  expect(outputs.dev.kubernetesVersion).toBe(dev["vendor-container-pipeline:kubernetesVersion"]);
  expect(outputs.prod.kubernetesVersion).toBe(prod["vendor-container-pipeline:kubernetesVersion"]);
  expect(outputs.dev.kaasId).not.toBe(outputs.prod.kaasId);
  const clusters = s.emulator.emulator.state().kaas.map((k) => [k.metadata.name, k.metadata.id]);
  expect(clusters.sort()).toEqual([
    ["dev-cluster", outputs.dev.kaasId],
    ["prod-cluster", outputs.prod.kaasId],
  ]);
  // Each project's resources live under its own project id.
  const paths = s.requests().map((r) => r.path);
  expect(paths.some((p) => p.startsWith(`/projects/${dev["vendor:projectId"]}/`))).toBe(true);
  expect(paths.some((p) => p.startsWith(`/projects/${prod["vendor:projectId"]}/`))).toBe(true);
  // prod authenticated with its client credentials, never with dev's token.
  expect(s.requests().some((r) => r.path === "/oauth2/token")).toBe(true);

  for (const stack of Object.values(stacks)) {
    await stack.preview({ expectNoChanges: true });
    await stack.destroy();
  }
  s.emulator.emulator.advanceClock(60_000);
  expect(s.emulator.emulator.state().kaas.filter((k) => k.status?.state !== "Deleted")).toEqual([]);
  // The committed stack files are untouched: the test worked on copies.
  expect(committedConfig("dev")["vendor:baseUrl"]).toBe("https://api.dev.example.com");
});

it("runs the README's config commands as written: the client secret encrypted, the token URL in plain text", async () => {
  const readme = fs.readFileSync(path.join(ROOT, "examples/ci-pipeline/README.md"), "utf8");
  const commands = /```sh\n([\s\S]*?)```/
    .exec(readme)![1]
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
  // The job's secrets, as the shell expands them.
  const secrets: Record<string, string> = {
    VENDOR_CLIENT_SECRET: "readme-client-secret-Zq8vK2pX",
    VENDOR_CLIENT_ID: "readme-client",
  };
  const argvOf = (command: string) =>
    command
      .replace(/"\$(\w+)"/g, (_, name: string) => secrets[name])
      .split(/\s+/)
      .slice(1);
  await s.stack("prod", pipeline);
  for (const command of commands) {
    expect(command).toMatch(/^pulumi config set /);
    const { code, output } = await s.cli(argvOf(command), pipeline).done;
    expect([command, code, output]).toEqual([command, 0, ""]);
  }
  // Without --plaintext, the CLI refuses the URL: a key named like a token with a value that looks random.
  const tokenUrl = commands.find((command) => command.includes("vendor:tokenUrl"))!;
  const refused = await s.cli(
    argvOf(tokenUrl).filter((arg) => arg !== "--plaintext"),
    pipeline,
  ).done;
  expect([refused.code, refused.output]).toEqual([
    1,
    "error: config value for 'vendor:tokenUrl' looks like a secret; rerun with --secret to encrypt it, or --plaintext if you meant to store in plaintext\n",
  ]);
  const stackFile = fs.readFileSync(path.join(pipeline, "Pulumi.prod.yaml"), "utf8");
  expect(stackFile).toContain("  vendor:clientId: readme-client\n");
  expect(stackFile).toContain("  vendor:tokenUrl: https://auth.example.com/oauth2/token\n");
  expect(stackFile).toMatch(/ {2}vendor:clientSecret:\n {4}secure: /);
  expect(stackFile).not.toContain(secrets.VENDOR_CLIENT_SECRET);
});
