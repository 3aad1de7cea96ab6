/** Import ids (`importTarget`): the object's id, its project (named or the default) and its parents. */
import { configure } from "../../provider/common/context";
import { importTarget } from "../../provider/common/frame";

afterEach(() => configure(undefined));

const withDefaultProject = (projectId: string | undefined) =>
  configure({ get: (key) => (key === "vendor:projectId" ? projectId : undefined) });

it.each([
  ["kaas-0001", [], { id: "kaas-0001", lookup: { projectId: "default-project" } }],
  ["p-1/kaas-0001", [], { id: "kaas-0001", lookup: { projectId: "p-1" } }],
  [
    "kaas-0001/backup-0002",
    ["kaasId"],
    { id: "backup-0002", lookup: { projectId: "default-project", kaasId: "kaas-0001" } },
  ],
  [
    "p-1/kaas-0001/backup-0002",
    ["kaasId"],
    { id: "backup-0002", lookup: { projectId: "p-1", kaasId: "kaas-0001" } },
  ],
])("reads %s (parents %j)", (id, parents, expected) => {
  withDefaultProject("default-project");
  expect(importTarget('Kaas "x"', id, parents)).toEqual(expected);
});

it.each([
  ["p-1/kaas-0001/extra", [], '"p-1/kaas-0001/extra" does not name an object; give "<projectId>/<id>"'],
  ["backup-0002", ["kaasId"], '"backup-0002" does not name an object; give "<projectId>/<kaasId>/<id>"'],
  [
    "p-1//backup-0002",
    ["kaasId"],
    '"p-1//backup-0002" does not name an object; give "<projectId>/<kaasId>/<id>"',
  ],
  ["", [], '"" does not name an object; give "<projectId>/<id>"'],
])("refuses %j (parents %j), saying how to write it", (id, parents, message) => {
  withDefaultProject("default-project");
  expect(() => importTarget('Kaas "x"', id, parents)).toThrow(`Kaas "x": import: ${message}`);
});

it("needs a project in the id when no default project is configured", () => {
  withDefaultProject(undefined);
  expect(() => importTarget('Kaas "x"', "kaas-0001", [])).toThrow(
    'Kaas "x": import: "kaas-0001" does not name an object; give "<projectId>/<id>" ' +
      "(no project in the id, and no default project is configured: vendor:projectId)",
  );
  expect(importTarget('Kaas "x"', "p-1/kaas-0001", [])).toEqual({
    id: "kaas-0001",
    lookup: { projectId: "p-1" },
  });
});
