/**
 * Error bodies in every shape the published interface allows, end to end on loopback: the emulator renders
 * field errors as the reading `wire.errors` says (`array` of `{fieldName, errorMessage}`, ASP.NET `map`, or
 * `absent` with the messages in `detail`), read for each answer; the REST client and the providers bring the
 * service's message to the user after one request in every shape, and still retry a busy refusal.
 */
import { ApiProblem, SEE_ERRORS } from "../../emulator/base/problems";
import type { Emulator } from "../../emulator";
import type { KindProvider } from "../../provider";
import type { VendorContainerClient } from "../../rest/client";
import { isVendorApiError, type VendorApiError } from "../../rest/errors";
import {
  PROJECT,
  activeKaas,
  checked,
  kaasBody,
  makeClient,
  raw,
  startHarness,
  type Harness,
} from "./support/harness";
import { expectBusyUpdateRetriedUntilSettled } from "./support/busy-retry";

type Shape = "array" | "map" | "absent";
const SHAPES: Shape[] = ["array", "map", "absent"];

const CIDR_MESSAGE = "must lie within 10.0.0.0/8, 172.16.0.0/12 or 192.168.0.0/16";
const VALIDATION_TITLE = "One or more validation errors occurred.";
const PREFIX = `/projects/${PROJECT}/providers/Vendor.Container`;
const badCidr = () => kaasBody("x", { nodeCidr: { address: "11.0.0.0/16", name: "n" } });

/** The reason a client error gives for one field error, in each shape. */
const reasonIn = (shape: Shape, field: string, message: string) =>
  shape === "absent"
    ? `One or more validation errors occurred: ${field}: ${message}`
    : `${field}: ${message}`;

async function rejection(promise: Promise<unknown>): Promise<VendorApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isVendorApiError(error)) throw new Error(`expected a VendorApiError, got ${String(error)}`);
  return error;
}

describe("the emulator's problem bodies", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());
  beforeEach(() => h.emulator.reset());

  const common = {
    type: "https://tools.ietf.org/html/rfc9110#section-15.5.1",
    title: VALIDATION_TITLE,
    status: 400,
    instance: `${PREFIX}/kaas`,
    traceId: expect.stringMatching(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/),
  };

  it.each<[Shape, Record<string, unknown>]>([
    [
      "array",
      {
        ...common,
        detail: SEE_ERRORS,
        errors: [{ fieldName: "properties.nodeCidr.address", errorMessage: CIDR_MESSAGE }],
      },
    ],
    ["map", { ...common, detail: SEE_ERRORS, errors: { "properties.nodeCidr.address": [CIDR_MESSAGE] } }],
    ["absent", { ...common, detail: `properties.nodeCidr.address: ${CIDR_MESSAGE}` }],
  ])("renders a rule violation with errors=%s", async (shape, body) => {
    h.emulator.updateConfig({ wire: { errors: shape } });
    const answer = await raw(`${h.api}/kaas`, { method: "POST", body: badCidr() });
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual(body);
  });

  it("reads the reading for each answer: PUT /_emulator/config changes the next one", async () => {
    const shapes: unknown[] = [];
    for (const errors of ["map", "absent", "array"]) {
      const put = await raw(`${h.url}/_emulator/config`, { method: "PUT", body: { wire: { errors } } });
      expect(put.status).toBe(200);
      const answer = await raw(`${h.api}/kaas`, { method: "POST", body: badCidr() });
      shapes.push(answer.json.errors);
    }
    expect(shapes).toEqual([
      { "properties.nodeCidr.address": [CIDR_MESSAGE] },
      undefined,
      [{ fieldName: "properties.nodeCidr.address", errorMessage: CIDR_MESSAGE }],
    ]);
  });

  it("refuses an unknown reading through the control API, with its field errors always as an array", async () => {
    h.emulator.updateConfig({ wire: { errors: "absent" } });
    const put = await raw(`${h.url}/_emulator/config`, { method: "PUT", body: { wire: { errors: "list" } } });
    expect(put.status).toBe(400);
    expect(put.json.errors).toEqual([
      { fieldName: "wire.errors", errorMessage: "must be one of array, map, absent" },
    ]);
  });

  it("answers a busy refusal without errors member in every shape", async () => {
    const bodies: unknown[] = [];
    for (const errors of SHAPES) {
      h.emulator.reset();
      // InCreation for a minute: the delete must find it busy however long a loaded machine takes to send it.
      h.emulator.updateConfig({ wire: { errors }, durations: { kaasCreateMs: 60_000 } });
      await raw(`${h.api}/kaas`, { method: "POST", body: kaasBody() });
      const answer = await raw(`${h.api}/kaas/kaas-0001`, { method: "DELETE" });
      bodies.push([answer.status, answer.json.title, answer.json.detail, "errors" in answer.json]);
    }
    const busy = [
      400,
      "Resource is busy: InCreation",
      'KaaS "kaas-0001" is InCreation; retry once the operation in progress completes.',
      false,
    ];
    expect(bodies).toEqual([busy, busy, busy]);
  });

  it.each<[Shape, unknown, string]>([
    [
      "array",
      [
        { fieldName: "a", errorMessage: "x" },
        { fieldName: "a", errorMessage: "y" },
        { fieldName: "b", errorMessage: "z" },
      ],
      SEE_ERRORS,
    ],
    ["map", { a: ["x", "y"], b: ["z"] }, SEE_ERRORS],
    ["absent", undefined, "a: x; a: y; b: z"],
  ])("groups several messages of one field with errors=%s", (shape, errors, detail) => {
    const problem = new ApiProblem("validation", {
      errors: [
        { fieldName: "a", errorMessage: "x" },
        { fieldName: "a", errorMessage: "y" },
        { fieldName: "b", errorMessage: "z" },
      ],
    });
    const body = problem.toBody("/i", "t", shape);
    expect([body.errors, body.detail]).toEqual([errors, detail]);
  });

  it.each<[string | null, string]>([
    ["limit must be an integer", "limit must be an integer. limit: is out of range"],
    ["limit: is out of range", "limit: is out of range"],
    [null, "limit: is out of range"],
  ])(
    "with errors=absent, keeps a detail of its own (%s) before the field errors it does not list",
    (own, detail) => {
      const problem = new ApiProblem("invalidQuery", {
        errors: [{ fieldName: "limit", errorMessage: "is out of range" }],
        ...(own === null ? {} : { detail: own }),
      });
      expect(problem.toBody("/i", "t", "absent")).toEqual({
        type: "https://tools.ietf.org/html/rfc9110#section-15.5.1",
        title: "Invalid query parameter.",
        status: 400,
        detail,
        instance: "/i",
        traceId: "t",
      });
    },
  );
});

describe.each(SHAPES)("the REST client with errors=%s", (shape) => {
  let h: Harness;
  let emu: Emulator;
  let client: VendorContainerClient;
  beforeAll(async () => {
    h = await startHarness({ wire: { errors: shape } });
    emu = h.emulator;
    client = makeClient(h.url);
  });
  afterAll(() => h.close());
  beforeEach(() => {
    emu.reset();
    emu.updateConfig({ wire: { errors: shape } });
  });

  /** An active cluster, with the request log cleared after its creation. */
  async function activeCluster(body = kaasBody()): Promise<string> {
    const id = await activeKaas(h, body);
    emu.clearRequests();
    return id;
  }
  const requests = () => emu.requests().map((r) => `${r.method} ${r.path.replace(PREFIX, "")} ${r.status}`);

  it("reports a create with an invalid node CIDR with the field and the service's message after one request", async () => {
    const error = await rejection(client.call("createKaas", { projectId: PROJECT }, badCidr()));
    expect(error.message).toBe(
      `POST /kaas failed (400 Bad Request): ${reasonIn(shape, "properties.nodeCidr.address", CIDR_MESSAGE)}`,
    );
    expect(error.fieldErrors).toEqual(
      shape === "absent" ? [] : [{ field: "properties.nodeCidr.address", message: CIDR_MESSAGE }],
    );
    expect([error.kind, error.status, error.busy, error.ambiguous]).toEqual(["http", 400, false, false]);
    expect(requests()).toEqual(["POST /kaas 400"]);
    expect(emu.state().kaas).toEqual([]);
  });

  it("reports an update a rule refuses after one request, without probing the settled cluster", async () => {
    const id = await activeCluster(kaasBody("prod", { ha: true }));
    const error = await rejection(
      client.call(
        "updateKaas",
        { projectId: PROJECT, id },
        { metadata: { name: "prod" }, properties: { ha: false } },
      ),
    );
    expect(error.message).toBe(
      `PUT /kaas/${id} failed (400 Bad Request): ${reasonIn(
        shape,
        "properties.ha",
        "high availability cannot be disabled after creation",
      )}`,
    );
    expect(requests()).toEqual([`PUT /kaas/${id} 400`]);
  });

  it("still retries a mutation refused as busy until the cluster settles", async () => {
    await expectBusyUpdateRetriedUntilSettled(emu, client, await activeCluster());
  });
});

describe("the Kaas provider with errors=absent", () => {
  let h: Harness;
  let kaas: KindProvider;
  beforeAll(async () => {
    h = await startHarness({ wire: { errors: "absent" } });
    kaas = h.kind("Kaas");
  });
  afterAll(() => h.close());

  it("fails an update the service refuses after one PUT, with the service's message, instead of planning again", async () => {
    const args = {
      name: "prod",
      location: "ITBG-Bergamo",
      kubernetesVersion: "1.32.5",
      nodeCidr: { address: "10.10.0.0/16", name: "prod-nodes" },
      nodePools: [{ name: "system", nodes: 2, instance: "K4A8", dataCenter: "ITBG-1" }],
      creationScope: "proj/dev/prod",
    };
    const inputs = await checked(kaas, {}, args);
    const { id, outs } = await kaas.create(inputs);
    // The program releases the creation tag once the engine has recorded the id, before any update.
    await h.release("Kaas", id, outs);
    const news = await checked(kaas, outs, { ...args, kubernetesVersion: "1.35.0" });
    h.emulator.clearRequests();

    const error = (await kaas.update(id, outs, news).then(
      () => undefined,
      (e: unknown) => e,
    )) as Error;

    // One PUT: the refusal is final, not an "uncertain" outcome to settle, plan again and resend.
    expect(h.mutating()).toEqual([{ method: "PUT", path: `/kaas/${id}` }]);
    expect(error.message).toBe(
      `Kaas "prod" (${id}) update did not complete: PUT /kaas/${id} failed (400 Bad Request): ` +
        `One or more validation errors occurred: properties.kubernetesVersion.value: "1.35.0" is not an ` +
        `admissible Kubernetes version (admissible: 1.31.9, 1.32.5, 1.33.2, 1.34.1)`,
    );
  });
});
