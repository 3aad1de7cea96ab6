/**
 * What the provider plugin knows of the run it serves beyond each call's URN: the stack the run is for, and
 * what that stack's state tracks.
 *
 * What the engine tells a plugin (pulumi/pulumi `proto/pulumi/provider.proto`, `engine.proto` and
 * `sdk/go/common/resource/plugin/provider_plugin.go`, v3.274): every call's URN; in the handshake, the engine's
 * address and that `Configure` carries the provider resource's own URN; in the environment, `PULUMI_PROJECT`
 * and the provider's configuration (`PULUMI_CONFIG`), but not the stack; and the engine's own service,
 * whose `GetRootResource` answers the URN of the stack resource the program registered. No call carries the
 * state: a targeted replacement (`pulumi up --replace`, `pulumi state taint`) or one `replaceOnChanges`
 * decides reaches `create` exactly as a new resource does. So:
 *
 * - **The stack of the run** is the root resource's, when a program runs (`up`, `preview`, `destroy
 *   --run-program`): the program registers it under the stack the CLI runs, whatever the state's URNs say. A
 *   state copied with `pulumi stack import --force` keeps the URNs of the stack it came from, so the URN of a
 *   delete or a read names that stack, and a provider resource read from such a state too. Without a program
 *   (`pulumi destroy`) the root is unset, and the stack is read as the dynamic path reads it
 *   (provider/common/stack.ts: the CLI's `--stack`, `PULUMI_STACK`, the selected stack).
 * - **The state** is read with the CLI that started the plugin (`pulumi stack export` of that stack), only when
 *   a create's lookup found an object of its resource or an import needs to know who tracks an object: what the
 *   state held when the run started tells a replacement from a create whose state lost its object.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { Tracked } from "../provider/common/lifecycle";
import { isPlainObject } from "../provider/common/typed";
import { parseUrn } from "./urn";

/** One resource of a stack's state, as far as the plugin reads it. */
export interface StateResource {
  urn: string;
  id: string;
  /** The engine keeps a replaced object marked for deletion until it is gone. */
  delete: boolean;
}

/** The resources of a `pulumi stack export` document (none in a stack never updated), or undefined. */
export function stateResources(exported: unknown): StateResource[] | undefined {
  if (!isPlainObject(exported) || !isPlainObject(exported.deployment)) return undefined;
  const resources = exported.deployment.resources ?? [];
  if (!Array.isArray(resources)) return undefined;
  return resources
    .filter(isPlainObject)
    .flatMap((r) =>
      typeof r.urn === "string" && typeof r.id === "string" && r.id !== ""
        ? [{ urn: r.urn, id: r.id, delete: r.delete === true }]
        : [],
    );
}

/**
 * The object the state tracks for `urn`: the live one; else the newest one marked for deletion (a replacement
 * that did not finish); `null` when it tracks none.
 */
export function trackedIn(resources: readonly StateResource[], urn: string): Exclude<Tracked, undefined> {
  const own = resources.filter((r) => r.urn === urn);
  return (own.find((r) => !r.delete) ?? own.at(-1))?.id ?? null;
}

/**
 * What a create of the resource `urn` (`what`, of stack `stack`) whose lookup found objects of its resource is
 * told the state tracks: `trackedIn` of the state's `resources`. Throws when the state could not be read
 * (`resources` undefined): on the plugin path an object keeps its creation tag until its next update, so the
 * object a replacement replaces carries the tag an interrupted create carries, and only the state tells them
 * apart. Resumed on a guess, the replaced object would become the new one, and the engine would then delete it.
 */
export function trackedForCreate(
  resources: readonly StateResource[] | undefined,
  urn: string,
  what: string,
  stack: string | undefined,
): string | null {
  if (resources !== undefined) return trackedIn(resources, urn);
  throw new Error(
    `${what}: its lookup found objects of this resource, but the state of stack ${stack ?? "(unknown)"} ` +
      "could not be read (pulumi stack export; the line before says why) to tell the object a replacement " +
      "replaces from an interrupted create to resume. Nothing was created; run the command again.",
  );
}

/** The URN of the resource of `resources` of the type `type` that tracks the object `id`, or null. */
export function holderIn(resources: readonly StateResource[], type: string, id: string): string | null {
  return resources.find((r) => r.id === id && parseUrn(r.urn)?.type === type && !r.delete)?.urn ?? null;
}

/** `<project>/<stack>` of a stack resource's URN, or undefined. */
export function stackOfRootUrn(urn: string): string | undefined {
  const parts = parseUrn(urn);
  return parts && `${parts.project}/${parts.stack}`;
}

/**
 * The `pulumi` CLI that started this process (its parent, on Linux), so the state is read by the engine's own
 * release with its own backend settings; else the one on `PATH`.
 */
function cliPath(): string {
  try {
    const exe = fs.readlinkSync(`/proc/${process.ppid}/exe`);
    if (path.basename(exe) === "pulumi") return exe;
  } catch {
    // No /proc: the one on PATH.
  }
  return "pulumi";
}

/** How long one read of the state may take: a CLI start and one read of the backend. */
const STATE_READ_MS = 60_000;

/**
 * The resources of the state of `stack` (`<project>/<stack>`), read with `pulumi stack export` in the
 * program's folder and the environment the engine gave this process (its backend and `PULUMI_HOME`), or
 * undefined when it cannot be read (the reason goes to `onFailure`). Secrets stay encrypted: nothing is
 * decrypted.
 */
export function readState(
  stack: string,
  onFailure: (reason: string) => void,
): Promise<StateResource[] | undefined> {
  const name = stack.split("/")[1];
  return new Promise((resolve) => {
    execFile(
      cliPath(),
      ["stack", "export", "--stack", name, "--non-interactive"],
      { timeout: STATE_READ_MS, maxBuffer: 512 * 1024 * 1024, env: process.env },
      (error, stdout, stderr) => {
        if (error) {
          onFailure(String(stderr).trim().split("\n").pop() || error.message);
          return resolve(undefined);
        }
        try {
          const resources = stateResources(JSON.parse(stdout));
          if (resources === undefined) onFailure("pulumi stack export answered no deployment");
          resolve(resources);
        } catch (parse) {
          onFailure(`pulumi stack export answered no JSON (${String(parse)})`);
          resolve(undefined);
        }
      },
    );
  });
}
