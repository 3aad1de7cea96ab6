/**
 * The provider side of the resource options against the emulator: a delete refuses an object whose
 * owner tag names another stack (a copied stack), unless `vendor:allowForeignDelete` says otherwise; the read
 * of a class's `get` reports the live object, and fails for a missing one.
 */
import type { KindProvider } from "../../provider";
import { resetCurrentStack } from "../../provider/common/context";
import { checked, startHarness, type Harness } from "./support/harness";

let h: Harness;
let registries: KindProvider;
const saved = { project: process.env.PULUMI_PROJECT, stack: process.env.PULUMI_STACK };

const restore = (name: "PULUMI_PROJECT" | "PULUMI_STACK", value: string | undefined) => {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
};

beforeEach(async () => {
  h = await startHarness();
  registries = h.kind("Registry");
});
afterEach(async () => {
  restore("PULUMI_PROJECT", saved.project);
  restore("PULUMI_STACK", saved.stack);
  resetCurrentStack();
  await h.close();
});

/** Runs the provider as the stack `<project>/<stack>` would (the engine sets PULUMI_PROJECT). */
function runAs(project: string, stack: string): void {
  process.env.PULUMI_PROJECT = project;
  process.env.PULUMI_STACK = stack;
  resetCurrentStack();
}

const args = (scope: string) => ({
  name: "images",
  location: "ITBG-Bergamo",
  adminUsername: "ops",
  size: "Small",
  creationScope: scope,
});

async function createAs(scope: string) {
  const inputs = await checked(registries, {}, args(scope));
  return registries.create(inputs);
}

describe("a delete of an object another stack owns", () => {
  it("is refused before any request that changes anything, naming both scopes and the ways out", async () => {
    runAs("proj", "a");
    const { id, outs } = await createAs("proj/a/images");
    runAs("proj", "b");
    h.emulator.clearRequests();

    await expect(registries.delete(id, outs)).rejects.toThrow(
      new Error(
        `Registry "images": refusing to delete registry ${id}: its owner tag names "proj/a/images", a ` +
          `resource of stack "proj/a", and this run is for stack "proj/b". Nothing was deleted. If this stack ` +
          `was renamed from "proj/a" (pulumi stack rename, or a project rename), run pulumi destroy ` +
          "--run-program instead: with the program, the provider reads this stack's state from the engine, " +
          "which proves the rename, and records the new name on the object; a copy's state proves nothing, so " +
          `a copy's objects stay refused. If this stack is a copy of "proj/a" (pulumi stack export and ` +
          `import), the object is that stack's: pulumi state delete with its URN stops tracking it here and ` +
          `leaves it to "proj/a" (only if that stack still tracks it, or no stack would). To delete it from ` +
          "this stack anyway, run the delete again with VENDOR_ALLOW_FOREIGN_DELETE=true in its environment.",
      ),
    );
    expect(h.mutating()).toEqual([]);
    expect((await h.client.find("getRegistry", { projectId: "p-test", id }))?.status?.state).toBe("Active");
  });

  it("acts for the program's stack, whatever the process reads, once a resource of the program was checked", async () => {
    runAs("proj", "a");
    const { id, outs } = await createAs("proj/a/images");
    // The program of stack b checks its resources; the process would read stack a (PULUMI_STACK).
    runAs("proj", "a");
    await checked(registries, {}, args("proj/b/images"));
    h.emulator.clearRequests();

    await expect(registries.delete(id, outs)).rejects.toThrow(
      `refusing to delete registry ${id}: its owner tag names "proj/a/images", a resource of stack "proj/a", ` +
        'and this run is for stack "proj/b".',
    );
    expect(h.mutating()).toEqual([]);

    // And the program of stack a deletes its own object while the process would read stack b.
    runAs("proj", "b");
    await checked(registries, {}, args("proj/a/images"));
    await registries.delete(id, outs);
    expect(h.mutating()).toEqual([{ method: "DELETE", path: `/registries/${id}` }]);
  });

  it("goes ahead with vendor:allowForeignDelete true", async () => {
    runAs("proj", "a");
    const { id, outs } = await createAs("proj/a/images");
    runAs("proj", "b");
    h.config["vendor:allowForeignDelete"] = "true";
    h.emulator.clearRequests();

    await registries.delete(id, outs);

    expect(h.mutating()).toEqual([{ method: "DELETE", path: `/registries/${id}` }]);
    expect(await h.client.find("getRegistry", { projectId: "p-test", id })).toBeUndefined();
  });

  it("goes ahead with VENDOR_ALLOW_FOREIGN_DELETE=true", async () => {
    runAs("proj", "a");
    const { id, outs } = await createAs("proj/a/images");
    runAs("proj", "b");
    process.env.VENDOR_ALLOW_FOREIGN_DELETE = "true";
    try {
      await registries.delete(id, outs);
    } finally {
      delete process.env.VENDOR_ALLOW_FOREIGN_DELETE;
    }
    expect(await h.client.find("getRegistry", { projectId: "p-test", id })).toBeUndefined();
  });

  it("keeps the refusal for any other value of the setting", async () => {
    runAs("proj", "a");
    const { id, outs } = await createAs("proj/a/images");
    runAs("proj", "b");
    h.config["vendor:allowForeignDelete"] = "yes";

    await expect(registries.delete(id, outs)).rejects.toThrow("refusing to delete registry");
  });

  it("deletes as ever the stack's own object, and one whose stack cannot be told", async () => {
    runAs("proj", "a");
    const own = await createAs("proj/a/images");
    await registries.delete(own.id, own.outs);
    expect(await h.client.find("getRegistry", { projectId: "p-test", id: own.id })).toBeUndefined();

    const other = await createAs("proj/a/images");
    delete process.env.PULUMI_PROJECT;
    delete process.env.PULUMI_STACK;
    resetCurrentStack();
    await registries.delete(other.id, other.outs);
    expect(await h.client.find("getRegistry", { projectId: "p-test", id: other.id })).toBeUndefined();
  });

  it("deletes as ever an object without an owner tag", async () => {
    const { id, outs } = await createAs("");
    runAs("proj", "b");
    await registries.delete(id, outs);
    expect(await h.client.find("getRegistry", { projectId: "p-test", id })).toBeUndefined();
  });
});

describe("the read of get", () => {
  it("reports the live registry: its metadata, the lookup and the computed outputs", async () => {
    const { id } = await createAs("proj/a/images");
    const { id: readId, props } = await registries.read(id, { creationScope: "proj/c/seen", readOnly: true });

    expect(readId).toBe(id);
    expect(props).toMatchObject({
      projectId: "p-test",
      name: "images",
      location: "ITBG-Bergamo",
      tags: [],
      registryId: id,
      state: "Active",
      currentSize: "Small",
      currentAdminUsername: "ops",
    });
    expect("readOnly" in props).toBe(false);
  });

  it("fails for an id the service does not have", async () => {
    await expect(
      registries.read("registry-9999", { creationScope: "proj/c/seen", readOnly: true }),
    ).rejects.toThrow(
      'Registry "seen": get: no registry registry-9999 in project p-test (GET /registries/registry-9999 found ' +
        "nothing)",
    );
  });

  it("still drops a deleted object on refresh", async () => {
    expect(await registries.read("registry-9999", { ...args("proj/a/images"), projectId: "p-test" })).toEqual(
      {
        id: "",
        props: {},
        inputs: {},
      },
    );
  });
});

describe("the read of get, other kinds", () => {
  const lookup = (name: string) => ({ creationScope: `proj/c/${name}`, readOnly: true });

  it("fails a Kaas and a KaasBackup get of ids the service does not have, naming them", async () => {
    await expect(h.kind("Kaas").read("kaas-9999", lookup("platform"))).rejects.toThrow(
      'Kaas "platform": get: no cluster kaas-9999 in project p-test (GET /kaas/kaas-9999 found nothing)',
    );
    await expect(
      h.kind("KaasBackup").read("backup-9999", { ...lookup("nightly"), kaasId: "kaas-9999" }),
    ).rejects.toThrow(
      'KaasBackup "nightly": get: no backup backup-9999 in project p-test (GET /kaas/kaas-9999/backups/backup-9999 ' +
        "found nothing)",
    );
  });

  it("refuses a VolumeAttachment get of an id that is not <kaasId>:<volumeUri>, or of a missing cluster", async () => {
    const attachments = h.kind("VolumeAttachment");
    await expect(attachments.read("data-1", lookup("data"))).rejects.toThrow(
      'VolumeAttachment "data": get: "data-1" is not an attachment id; give "<kaasId>:<volumeUri>"',
    );
    await expect(attachments.read("kaas-9999:/v-1", lookup("data"))).rejects.toThrow(
      'VolumeAttachment "data": get: no cluster kaas-9999 in project p-test',
    );
  });
});
