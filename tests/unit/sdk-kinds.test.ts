import { KIND_NAMES, READ_ENDPOINTS } from "../../schemas/kinds";
import { ENDPOINTS } from "../../schemas/endpoints";
import { FUNCTIONS, RESOURCE_CLASSES } from "../../sdk/kinds";

describe("the per-kind tables", () => {
  it("list every kind, in the order of KIND_NAMES", () => {
    expect(Object.keys(RESOURCE_CLASSES)).toEqual([...KIND_NAMES]);
    expect(Object.keys(FUNCTIONS)).toEqual([...KIND_NAMES]);
    expect(Object.keys(READ_ENDPOINTS)).toEqual([...KIND_NAMES]);
  });

  it.each(KIND_NAMES)("names the class of %s after the kind", (kind) => {
    expect(RESOURCE_CLASSES[kind].name).toBe(kind);
  });

  it("reads each kind with a GET of the endpoint table, and VolumeAttachment with none", () => {
    expect(
      Object.fromEntries(
        Object.entries(READ_ENDPOINTS).map(([kind, name]) => [kind, name && ENDPOINTS[name].method]),
      ),
    ).toEqual({ Kaas: "GET", KaasBackup: "GET", Registry: "GET", VolumeAttachment: null });
  });
});
