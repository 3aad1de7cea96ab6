/**
 * The stack configuration `examples/ci-pipeline/README.md` shows, run as written through the CLI: the client
 * secret stored encrypted, the token URL in plain text (the CLI refuses it without `--plaintext`). The sample
 * pipelines themselves run job by job in `ci-samples.e2e.test.ts`.
 */
import fs from "node:fs";
import path from "node:path";
import { ROOT } from "./support/engine";
import { openSuite, type Suite } from "./support/suite";

let s: Suite;
let pipeline: string;
beforeAll(async () => {
  s = await openSuite("pipeline");
  const source = path.join(ROOT, "examples/ci-pipeline");
  pipeline = path.join(s.dir, "programs", "ci-pipeline");
  fs.cpSync(source, pipeline, {
    recursive: true,
    filter: (src) => !src.includes("node_modules"),
  });
});
afterAll(async () => {
  await s?.close();
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
