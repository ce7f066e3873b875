#!/usr/bin/env python3
"""Validates Den ABI documents against the JSON Schemas in docs/schema/v1.

    python3 Scripts/validate-json.py <schema-name> <file.json>...
    python3 Scripts/validate-json.py --corpus Tests/SchemaCorpus
    python3 Scripts/validate-json.py --stdin < lines.jsonl
    python3 Scripts/validate-json.py --list

A schema name is the schema file's path under docs/schema/v1 without `.json`: `event`, `reply`,
`screen`, `element`, `element/heading`, `effect`, `effect/open_url`, `build-params`,
`service/storage.set.request`, `service/storage.set.response`, ... (`--list` prints them all).

--corpus DIR   every DIR/valid/<schema-name>/*.json must validate and every
               DIR/invalid/<schema-name>/*.json must be rejected. Prints one line per file and
               a last line `N passed, M failed`; exits 1 if any failed.
--stdin        reads JSON lines {"schema": name, "document": {...}} (optional "label": text, and
               "expect": "valid" | "invalid", default "valid") and prints one line per document
               and a last line `N passed, M failed`; exits 1 if any document did not do what it
               was expected to.

Needs the PyPI packages `jsonschema` (4.18 or later) and `referencing` (a dependency of it); every
$ref is resolved from the local files, never from the network. Exit status 2 means the
validator itself could not run (missing package, unknown schema name, unreadable schema).
"""

import json
import os
import sys

SCHEMA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "docs", "schema", "v1")
BASE_URI = "https://den.dev/schema/v1/"

try:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import best_match
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012
except ImportError as error:  # pragma: no cover - depends on the machine
    sys.stderr.write(
        "validate-json: the Python package 'jsonschema' (4.18 or later) is not installed "
        f"({error}); run Scripts/setup.sh, or `python3 -m pip install jsonschema`\n")
    sys.exit(2)


class SetupError(Exception):
    """The validator cannot run (bad schema name, unreadable schema file)."""


def _reject_constant(name):
    raise ValueError(f"{name} is not valid JSON")


def load_json_bytes(data):
    """Parses UTF-8 JSON strictly: no BOM-less other encodings, no NaN/Infinity."""
    text = data.decode("utf-8")  # raises UnicodeDecodeError: the ABI says UTF-8
    return json.loads(text, parse_constant=_reject_constant)


class Schemas:
    def __init__(self, directory=SCHEMA_DIR):
        self.directory = os.path.normpath(directory)
        self.names = {}
        resources = []
        for folder, _, files in os.walk(self.directory):
            for file in sorted(files):
                if not file.endswith(".json"):
                    continue
                path = os.path.join(folder, file)
                name = os.path.relpath(path, self.directory)[: -len(".json")].replace(os.sep, "/")
                try:
                    with open(path, "rb") as handle:
                        contents = load_json_bytes(handle.read())
                except (OSError, ValueError) as error:
                    raise SetupError(f"cannot read schema {path}: {error}")
                expected_id = BASE_URI + name + ".json"
                if contents.get("$id") != expected_id:
                    raise SetupError(f"schema {path} has $id {contents.get('$id')!r}; expected {expected_id!r}")
                Draft202012Validator.check_schema(contents)
                self.names[name] = contents
                resources.append((expected_id, Resource.from_contents(contents, default_specification=DRAFT202012)))
        if not self.names:
            raise SetupError(f"no schemas found in {self.directory}")
        # Only these resources: an unknown $ref fails instead of reaching for the network.
        self.registry = Registry().with_resources(resources).crawl()
        self.validators = {}

    def validator(self, name):
        if name not in self.names:
            raise SetupError(f"unknown schema name '{name}'; known: {', '.join(sorted(self.names))}")
        if name not in self.validators:
            self.validators[name] = Draft202012Validator(self.names[name], registry=self.registry)
        return self.validators[name]

    def problems(self, name, document):
        """Readable reasons `document` is not a valid `name` (in document order), or []."""
        errors = sorted(self.validator(name).iter_errors(document), key=lambda e: [str(p) for p in e.absolute_path])
        return list(dict.fromkeys(describe(error) for error in errors))  # in order, once each


DISCRIMINATORS = ("type", "op")


def _is_discriminator_mismatch(error):
    """True for a union branch refused only because its `type` (or `op`) is another one's."""
    path = list(error.absolute_path)
    return bool(path) and path[-1] in DISCRIMINATORS and error.validator in ("const", "not", "enum")


def _branches(error):
    branches = {}
    for sub in error.context:
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    return branches


def _branch_errors(error):
    """For a oneOf/anyOf error: the errors of the branch whose `type`/`op` matches the document."""
    branches = _branches(error)
    candidates = [errs for errs in branches.values() if not any(map(_is_discriminator_mismatch, errs))]
    if len(candidates) == 1:
        return candidates[0]
    return None


def _path(error):
    text = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path).lstrip(".")
    return text or "document"


def describe(error):
    while error.context:
        errors = _branch_errors(error)
        if errors is None and error.context and all(
                any(map(_is_discriminator_mismatch, errs)) for errs in _branches(error).values()):
            # Every alternative wants another `type`/`op`: that value is what is wrong.
            key = next(list(sub.absolute_path)[-1] for sub in error.context if _is_discriminator_mismatch(sub))
            known = [sub.validator_value for sub in error.context
                     if _is_discriminator_mismatch(sub) and sub.validator == "const"]
            value = error.instance.get(key) if isinstance(error.instance, dict) else None
            where = _path(error)
            where = f"{key}" if where == "document" else f"{where}.{key}"
            return f"{where}: {value!r} is not one of {known}"
        if errors is None:
            if error.validator == "oneOf" and not any(
                    _is_discriminator_mismatch(sub) for sub in error.context):
                break  # every branch matched or none is singled out: report the union itself
            error = best_match(error.context)
            continue
        error = sorted(errors, key=lambda e: [str(p) for p in e.absolute_path])[0]
    message = error.message
    if error.validator == "oneOf":
        message = f"matches none (or more than one) of the alternatives of {error.schema.get('title', 'the union')}"
    if len(message) > 300:
        message = message[:300] + "…"
    return f"{_path(error)}: {message}"


def validate_files(schemas, name, paths):
    failed = 0
    for path in paths:
        try:
            with open(path, "rb") as handle:
                document = load_json_bytes(handle.read())
        except (OSError, ValueError) as error:
            print(f"INVALID {path}: not readable UTF-8 JSON: {error}")
            failed += 1
            continue
        problems = schemas.problems(name, document)
        if problems:
            failed += 1
            print(f"INVALID {path} ({name}): {problems[0]}")
            for problem in problems[1:5]:
                print(f"        {problem}")
        else:
            print(f"valid   {path} ({name})")
    return 1 if failed else 0


def run_corpus(schemas, root):
    passed = failed = 0
    found = False
    for expectation in ("valid", "invalid"):
        base = os.path.join(root, expectation)
        if not os.path.isdir(base):
            print(f"FAIL    {base}: missing folder")
            failed += 1
            continue
        for folder, dirs, files in os.walk(base):
            dirs.sort()
            for file in sorted(files):
                if not file.endswith(".json"):
                    continue
                found = True
                path = os.path.join(folder, file)
                shown = os.path.relpath(path, root)
                name = os.path.relpath(folder, base).replace(os.sep, "/")
                if name not in schemas.names:
                    print(f"FAIL    {shown}: folder names no schema ('{name}')")
                    failed += 1
                    continue
                try:
                    with open(path, "rb") as handle:
                        document = load_json_bytes(handle.read())
                    problems = schemas.problems(name, document)
                except (OSError, ValueError) as error:
                    if expectation == "invalid":
                        print(f"FAIL    {shown}: not readable JSON ({error}); an invalid example must be JSON the schema refuses")
                    else:
                        print(f"FAIL    {shown}: not readable JSON ({error})")
                    failed += 1
                    continue
                if judge(shown, name, expectation, problems):
                    passed += 1
                else:
                    failed += 1
    if not found:
        print(f"FAIL    {root}: no .json files under valid/ or invalid/")
        failed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def judge(label, name, expect, problems):
    """Prints one result line; True when the document did what `expect` ("valid"/"invalid") says."""
    if expect == "valid" and problems:
        print(f"FAIL    {label}: expected valid {name}, got {problems[0]}")
        return False
    if expect == "invalid" and not problems:
        print(f"FAIL    {label}: expected the {name} schema to refuse it, but it validates")
        return False
    detail = f"valid {name}" if expect == "valid" else f"refused as expected: {problems[0]}"
    print(f"pass    {label}: {detail}")
    return True


def run_stdin(schemas, stream):
    passed = failed = 0
    for number, line in enumerate(stream, start=1):
        if not line.strip():
            continue
        try:
            entry = load_json_bytes(line.encode("utf-8") if isinstance(line, str) else line)
            name = entry["schema"]
            document = entry["document"]
            label = entry.get("label", f"line {number}")
            expect = entry.get("expect", "valid")
            if expect not in ("valid", "invalid"):
                raise ValueError(f"expect must be \"valid\" or \"invalid\", not {expect!r}")
            problems = schemas.problems(name, document)
        except SetupError as error:
            print(f"FAIL    line {number}: {error}")
            failed += 1
            continue
        except (ValueError, KeyError, TypeError, AttributeError) as error:
            print(f"FAIL    line {number}: not a {{\"schema\", \"document\"}} line: {error!r}")
            failed += 1
            continue
        if judge(label, name, expect, problems):
            passed += 1
        else:
            failed += 1
    if passed + failed == 0:
        print("FAIL    stdin: no lines to validate")
        failed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


USAGE = """usage: validate-json.py <schema-name> <file.json>...
       validate-json.py --corpus <dir>     (e.g. Tests/SchemaCorpus)
       validate-json.py --stdin            (JSON lines {"schema": name, "document": {...}})
       validate-json.py --list             (the schema names)"""


def main(argv):
    if not argv:
        sys.stderr.write(USAGE + "\n")
        return 2
    if argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    try:
        schemas = Schemas()
        if argv[0] == "--list":
            print("\n".join(sorted(schemas.names)))
            return 0
        if argv[0] == "--corpus":
            if len(argv) != 2:
                raise SetupError("--corpus takes one folder, e.g. --corpus Tests/SchemaCorpus")
            return run_corpus(schemas, argv[1])
        if argv[0] == "--stdin":
            if len(argv) != 1:
                raise SetupError("--stdin takes no other argument")
            return run_stdin(schemas, sys.stdin.buffer)
        if argv[0].startswith("-"):
            raise SetupError(f"unknown option {argv[0]}\n{USAGE}")
        if len(argv) < 2:
            raise SetupError(f"name at least one file to validate as '{argv[0]}'\n{USAGE}")
        schemas.validator(argv[0])  # an unknown name is a usage error, not an invalid file
        return validate_files(schemas, argv[0], argv[1:])
    except SetupError as error:
        sys.stderr.write(f"validate-json: {error}\n")
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
