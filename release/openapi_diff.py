"""The OpenAPI document against the previous release's: no breaking change in a minor version.

``buf breaking`` guards the proto; this guards what the REST door promises beyond it
(``docs/VERSIONING.md``). From the repository root (``make lint`` runs it)::

    python release/openapi_diff.py --against tests/upgrade/0.1.0/domino_rules-0.1.0-py3-none-any.whl

``--against`` is the previous release's wheel (its document is read from inside it) or
an OpenAPI document. When this version's major version is not the previous release's,
nothing is checked (a major version may break, with a line in ``CHANGELOG.md``).

A change is breaking when something a client relies on goes away or narrows:

* an operation (path and method), its ``operationId``, or the schema of its request
  body or its answer;
* a named schema; a property of a schema; a type, format or ``$ref``; a value of an
  ``enum`` (answers may gain values: clients must take unknown ones, see the policy);
* a property that becomes ``required`` (a new property that answers always print is
  ``required`` in a schema no request holds: it is an addition), or a range that narrows
  (``minimum`` up,
  ``maximum`` down, ``minLength`` up, ``maxLength`` down, a ``pattern`` changed).

Anything added (operations, schemas, properties, enum values, wider ranges) passes.
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
import zipfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CURRENT = ROOT / "service" / "domino_rules" / "web" / "openapi" / "openapi.json"
_IN_WHEEL = "domino_rules/web/openapi/openapi.json"
_METHODS = ("get", "put", "post", "delete", "patch")
#: Bounds, and whether raising one narrows what it allows.
_NARROWER = {
    "minimum": True,
    "maximum": False,
    "minLength": True,
    "maxLength": False,
    "minItems": True,
    "maxItems": False,
}


def load(path: Path) -> tuple[dict[str, Any], str | None]:
    """The document at ``path`` (a wheel or a JSON file) and, for a wheel, its version."""
    if path.suffix == ".whl":
        with zipfile.ZipFile(path) as wheel:
            document: dict[str, Any] = json.loads(wheel.read(_IN_WHEEL))
        return document, path.name.split("-")[1]
    return json.loads(path.read_text()), None


def _types(schema: dict[str, Any]) -> set[str]:
    kind = schema.get("type")
    return set(kind) if isinstance(kind, list) else {kind} if kind else set()


def _alternatives(schema: dict[str, Any]) -> list[dict[str, Any]]:
    return list(schema.get("anyOf", schema.get("oneOf", [])))


def _key(schema: dict[str, Any]) -> str:
    """What an alternative of ``anyOf`` is matched by: its ``$ref``, else its types."""
    return str(schema.get("$ref") or sorted(_types(schema)))


def compare(
    old: Any, new: Any, where: str, problems: list[str], *, answers_only: bool = False
) -> None:
    """Append to ``problems`` each way ``new`` narrows or drops what ``old`` gave
    (``answers_only``: a schema no request holds, where a new property may be required)."""
    if not isinstance(old, dict):
        return
    if not isinstance(new, dict):
        problems.append(f"{where}: no longer a schema")
        return
    if old.get("$ref") != new.get("$ref"):
        problems.append(f"{where}: $ref {old.get('$ref')} is now {new.get('$ref')}")
    if _types(old) != _types(new) and _types(old):
        problems.append(f"{where}: type {sorted(_types(old))} is now {sorted(_types(new))}")
    if "format" in old and old.get("format") != new.get("format"):
        problems.append(f"{where}: format {old['format']} is now {new.get('format')}")
    if "enum" in old:
        kept: list[Any] = new["enum"] if "enum" in new else old["enum"]
        gone = [v for v in old["enum"] if v not in kept]
        if gone:
            problems.append(f"{where}: enum values removed: {gone}")
    for bound, up in _NARROWER.items():
        if bound in new and (
            bound not in old or (new[bound] > old[bound] if up else new[bound] < old[bound])
        ):
            problems.append(f"{where}: {bound} {old.get(bound)} is now {new[bound]}")
    if "pattern" in new and old.get("pattern") != new["pattern"]:
        problems.append(f"{where}: pattern {old.get('pattern')!r} is now {new['pattern']!r}")
    required = set(new.get("required", [])) - set(old.get("required", []))
    if answers_only:
        required &= set(old.get("properties", {}))
    if required:
        problems.append(f"{where}: newly required: {sorted(required)}")
    old_properties, new_properties = old.get("properties", {}), new.get("properties", {})
    for name, schema in old_properties.items():
        if name not in new_properties:
            problems.append(f"{where}.{name}: removed")
        else:
            compare(schema, new_properties[name], f"{where}.{name}", problems)
    for part in ("items", "additionalProperties"):
        compare(old.get(part), new.get(part), f"{where}[{part}]", problems)
    new_alternatives = {_key(s): s for s in _alternatives(new)}
    for schema in _alternatives(old):
        if _key(schema) not in new_alternatives:
            problems.append(f"{where}: alternative {_key(schema)} removed")
        else:
            compare(schema, new_alternatives[_key(schema)], f"{where}|{_key(schema)}", problems)


def _body_schema(part: dict[str, Any]) -> Any:
    return part.get("content", {}).get("application/json", {}).get("schema")


def breaking(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """Every breaking change from ``old`` to ``new``, one line each."""
    problems: list[str] = []
    for path, operations in old.get("paths", {}).items():
        for method in _METHODS:
            if method not in operations:
                continue
            where = f"{method.upper()} {path}"
            operation = new.get("paths", {}).get(path, {}).get(method)
            if operation is None:
                problems.append(f"{where}: removed")
                continue
            was = operations[method]
            if was.get("operationId") != operation.get("operationId"):
                problems.append(
                    f"{where}: operationId {was.get('operationId')} is now "
                    f"{operation.get('operationId')}"
                )
            if "requestBody" in was:
                compare(
                    _body_schema(was["requestBody"]),
                    _body_schema(operation.get("requestBody", {})),
                    f"{where} request",
                    problems,
                )
            for status, answer in was.get("responses", {}).items():
                if "$ref" in answer:
                    continue
                new_answer = operation.get("responses", {}).get(status)
                if new_answer is None:
                    problems.append(f"{where}: answer {status} removed")
                    continue
                compare(
                    _body_schema(answer),
                    _body_schema(new_answer),
                    f"{where} {status}",
                    problems,
                )
    schemas = new.get("components", {}).get("schemas", {})
    in_requests = _in_requests(new)
    for name, schema in old.get("components", {}).get("schemas", {}).items():
        if name not in schemas:
            problems.append(f"schema {name}: removed")
        else:
            answers_only = name not in in_requests
            compare(schema, schemas[name], f"schema {name}", problems, answers_only=answers_only)
    return problems


def _in_requests(document: dict[str, Any]) -> set[str]:
    """The names of the component schemas a request body holds, directly or not."""
    schemas = document.get("components", {}).get("schemas", {})
    prefix = "#/components/schemas/"
    todo: list[Any] = [
        _body_schema(operation["requestBody"])
        for operations in document.get("paths", {}).values()
        for method, operation in operations.items()
        if method in _METHODS and "requestBody" in operation
    ]
    found: set[str] = set()
    while todo:
        node = todo.pop()
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith(prefix) and ref[len(prefix) :] not in found:
                found.add(ref[len(prefix) :])
                todo.append(schemas.get(ref[len(prefix) :]))
            todo.extend(node.values())
        elif isinstance(node, list):
            todo.extend(node)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", type=Path, required=True)
    parser.add_argument("--document", type=Path, default=CURRENT)
    args = parser.parse_args(argv)
    old, old_version = load(args.against)
    new, _ = load(args.document)
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    if old_version is not None and old_version.split(".")[0] != version.split(".")[0]:
        print(f"openapi: {old_version} -> {version} is a major version: not checked")
        return 0
    problems = breaking(old, new)
    against = old_version or str(args.against)
    if problems:
        print(f"openapi: breaking changes against {against}:", file=sys.stderr)
        for line in problems:
            print(f"  {line}", file=sys.stderr)
        return 1
    print(f"openapi: no breaking change against {against}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
