"""Every example in the OpenAPI document validates against its schema:
each operation's request and answer, each shared error response's envelope.

    python examples_valid.py openapi/riskintel.json
"""

import json
import sys

from jsonschema import Draft7Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT7

ROOT = "urn:riskintel"


def pointer(*parts):
    return "/" + "/".join(str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def as_json_schema(node):
    """OpenAPI 3.0's `nullable: true` as JSON Schema says it: null allowed too."""
    if isinstance(node, dict):
        node = {k: as_json_schema(v) for k, v in node.items()}
        if node.pop("nullable", False):
            if "type" in node:
                node["type"] = [node["type"], "null"]
            if "enum" in node:
                node["enum"] = node["enum"] + [None]
        return node
    if isinstance(node, list):
        return [as_json_schema(v) for v in node]
    return node


document = json.load(open(sys.argv[1]))
registry = Registry().with_resource(ROOT, Resource.from_contents(as_json_schema(document), default_specification=DRAFT7))


def check(where, location, example):
    validator = Draft7Validator({"$ref": f"{ROOT}#{location}"}, registry=registry)
    problems = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(example)]
    return [f"{where}: {p}" for p in problems[:5]]


found, problems = 0, []
for path, item in document["paths"].items():
    for method, operation in item.items():
        name = operation.get("operationId", f"{method} {path}")
        body = operation.get("requestBody", {}).get("content", {})
        for kind, content in body.items():
            if "example" in content:
                found += 1
                location = pointer("paths", path, method, "requestBody", "content", kind, "schema")
                problems += check(f"{name} request", location, content["example"])
        for status, response in operation.get("responses", {}).items():
            for kind, content in response.get("content", {}).items():
                if "example" in content:
                    found += 1
                    location = pointer("paths", path, method, "responses", status, "content", kind, "schema")
                    problems += check(f"{name} {status}", location, content["example"])
for name, response in document["components"]["responses"].items():
    for kind, content in response.get("content", {}).items():
        if "example" in content:
            found += 1
            location = pointer("components", "responses", name, "content", kind, "schema")
            problems += check(f"{name} response", location, content["example"])

if problems:
    print("\n".join(problems))
    sys.exit(1)
print(f"examples: {found} validate against their schemas")
