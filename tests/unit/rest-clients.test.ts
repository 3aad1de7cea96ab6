/** The process's one client cache: equal settings share a client, any other setting gets its own. */
import { VendorContainerClient } from "../../rest/client";
import { resetSharedClients, sharedClient } from "../../rest/clientCache";
import { resolveSettings, type VendorSettings } from "../../rest/settings";

const env = { VENDOR_BASE_URL: "http://127.0.0.1:1", VENDOR_TOKEN: "clients-test-token" };
const settings = (): VendorSettings => resolveSettings(() => undefined, env);

afterEach(() => {
  resetSharedClients();
});

it("gives the very same client for equal settings, whatever the order of their fields", () => {
  const first = sharedClient(settings());
  const reordered = Object.fromEntries(Object.entries(settings()).reverse()) as unknown as VendorSettings;
  expect(first).toBeInstanceOf(VendorContainerClient);
  expect(sharedClient(reordered)).toBe(first);
});

it("treats an absent field and an undefined one alike", () => {
  const { projectId: _absent, ...rest } = settings();
  expect(sharedClient({ ...rest, projectId: undefined })).toBe(sharedClient(rest as VendorSettings));
});

it("gives another client when any setting differs", () => {
  const first = sharedClient(settings());
  expect(sharedClient({ ...settings(), requestTimeoutMs: 1_000 })).not.toBe(first);
  expect(sharedClient({ ...settings(), projectId: "p-2" })).not.toBe(first);
});

it("makes a new client after a reset", () => {
  const first = sharedClient(settings());
  resetSharedClients();
  expect(sharedClient(settings())).not.toBe(first);
});
