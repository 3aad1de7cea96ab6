"""A Pulumi program in Python on the provider plugin's generated SDK, declared from stack config.

`e2e:resources` is a list of {kind, name, args, protect?, provider?}, as for ../resources/index.js, with the
package schema's names (camelCase): each becomes the SDK's class of that kind (`pulumi_vendor_container.Kaas`, ...)
built with its typed arguments (`KaasArgs`, nested `NodeCidrArgs`, `NodePoolArgs`, ...), whose Python names the
program derives from the schema (`e2e:schema`, the path of the installed package's dist/plugin/schema.json). Any
value of `args` may be {"$ref": "<resource>.<output>"} (an output of a resource declared before, `id` included) or
{"$secret": value}; `provider` names a resource of kind `Provider` declared before (the SDK's `Provider`,
configured by its args). Every output is a stack output named `<resource>.<output>`, with the schema's name.
"""
import json
import re

import pulumi
import pulumi_vendor_container as vendor_container

config = pulumi.Config("e2e")
schema = json.load(open(config.require("schema"), encoding="utf-8"))
made = {}


def python_name(name):
    """The SDK's name of a schema property: `kaasId` is `kaas_id` (the schema has no acronyms)."""
    return re.sub(r"([A-Z])", r"_\1", name).lower()


def referred_type(spec):
    """The object type a property of the schema refers to (`#/types/<token>`), or None."""
    ref = spec.get("$ref", "")
    return schema["types"][ref[len("#/types/") :]] if ref.startswith("#/types/") else None


def resolve(value):
    """A value of `args` with its references and secrets made outputs."""
    if isinstance(value, list):
        return [resolve(item) for item in value]
    if not isinstance(value, dict):
        return value
    if isinstance(value.get("$ref"), str):
        resource, *path = value["$ref"].split(".")
        output = made[resource]
        for key in path:
            output = getattr(output, python_name(key))
        return output
    if "$secret" in value:
        return pulumi.Output.secret(resolve(value["$secret"]))
    return {key: resolve(item) for key, item in value.items()}


def typed(spec, value):
    """`value` as the SDK takes a property of schema `spec`: an object type as its `<Type>Args` class."""
    if value is None or isinstance(value, pulumi.Output):
        return value
    if spec.get("type") == "array" and isinstance(value, list):
        return [typed(spec["items"], item) for item in value]
    object_type = referred_type(spec)
    if object_type is None or not isinstance(value, dict):
        return value
    args_class = getattr(vendor_container, spec["$ref"].rsplit(":", 1)[1] + "Args")
    return args_class(**keywords(object_type["properties"], value))


def keywords(properties, args):
    """The keyword arguments of `args` (schema names) for properties `properties`."""
    return {python_name(key): typed(properties[key], resolve(value)) for key, value in args.items()}


for declared in config.require_object("resources"):
    kind, name, args = declared["kind"], declared["name"], declared["args"]
    if kind == "Provider":
        made[name] = vendor_container.Provider(name, **keywords(schema["provider"]["inputProperties"], args))
        continue
    spec = schema["resources"][f"vendor-container:index:{kind}"]
    provider = declared.get("provider")
    resource = getattr(vendor_container, kind)(
        name,
        getattr(vendor_container, f"{kind}Args")(**keywords(spec["inputProperties"], args)),
        pulumi.ResourceOptions(
            protect=declared.get("protect", False),
            provider=made[provider] if provider else None,
        ),
    )
    made[name] = resource
    for key in spec["properties"]:
        pulumi.export(f"{name}.{key}", getattr(resource, python_name(key)))
    pulumi.export(f"{name}.id", resource.id)
