// TypeDoc plugin: the input types of the kinds (`KaasInputs`, ...) are read from their argument schemas
// (`ArgumentsOf<typeof KAAS_ARGUMENTS>`, tagged `@interface`), so TypeDoc finds each property's declaration
// in the schema object, whose initializer it would show as a default value (`= ...`). An interface's
// property has no default value: the ones it shows are dropped.
import { Converter, ReflectionKind } from "typedoc";

/** @param {import("typedoc").Application} app */
export function load(app) {
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    for (const property of context.project.getReflectionsByKind(ReflectionKind.Property)) {
      if (property.parent?.kindOf(ReflectionKind.Interface)) delete property.defaultValue;
    }
  });
}
