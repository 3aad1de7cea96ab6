"""A Pulumi program in Python on the provider plugin, declared from stack config as ../resources/index.js is.

`e2e:resources` is a list of {kind, name, args, protect?, provider?}: any value of `args` may be
{"$ref": "<resource>.<output>"} (an output of a resource declared before, `id` included) or {"$secret": value};
`provider` names a resource of kind `Provider` declared before (an explicit provider configured by its args).
The resources are plain `pulumi.CustomResource`s whose outputs are the package schema's (`e2e:schema`, the path
of the installed package's dist/plugin/schema.json), as a generated SDK's classes are. Every output is a stack
output named `<resource>.<output>`. `e2e:functions` (optional) is a list of {output, call, args}: the stack output
`output` is the result of the invoke `vendor-container:index:<call>`.
"""
import json

import pulumi

config = pulumi.Config("e2e")
schema = json.load(open(config.require("schema"), encoding="utf-8"))
made = {}


def resolve(value):
    if isinstance(value, list):
        return [resolve(item) for item in value]
    if not isinstance(value, dict):
        return value
    if isinstance(value.get("$ref"), str):
        resource, *path = value["$ref"].split(".")
        output = made[resource]
        for key in path:
            output = getattr(output, key) if key == "id" else output.get(key)
        return output
    if "$secret" in value:
        return pulumi.Output.secret(resolve(value["$secret"]))
    return {key: resolve(item) for key, item in value.items()}


class Resource(pulumi.CustomResource):
    """A resource of the plugin: every output of its schema, as a generated class declares them."""

    def __init__(self, token, name, props, opts):
        super().__init__(token, name, props, opts)

    def get(self, key):
        return getattr(self, key)


for declared in config.require_object("resources"):
    kind, name, args = declared["kind"], declared["name"], declared["args"]
    if kind == "Provider":
        made[name] = pulumi.ProviderResource("vendor-container", name, resolve(args))
        continue
    token = f"vendor-container:index:{kind}"
    spec = schema["resources"][token]
    props = {key: None for key in spec["properties"]}
    props.update(resolve(args))
    secrets = [key for key, prop in spec["properties"].items() if prop.get("secret")]
    provider = declared.get("provider")
    resource = Resource(
        token,
        name,
        props,
        pulumi.ResourceOptions(
            protect=declared.get("protect", False),
            additional_secret_outputs=secrets,
            provider=made[provider] if provider else None,
        ),
    )
    made[name] = resource
    for key in spec["properties"]:
        pulumi.export(f"{name}.{key}", getattr(resource, key))
    pulumi.export(f"{name}.id", resource.id)

for function in config.get_object("functions") or []:
    pulumi.export(
        function["output"],
        pulumi.Output.from_input(resolve(function.get("args", {}))).apply(
            lambda args, call=function["call"]: pulumi.runtime.invoke(f"vendor-container:index:{call}", args).value
        ),
    )
