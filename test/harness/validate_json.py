#!/usr/bin/env python3
"""Validates JSON documents against one of kfuse's schemas.

    validate_json.py SCHEMA FILE...      (FILE may be - for stdin)

Prints "valid: FILE" for each valid document. For an invalid one it prints
each violation with its path and exits 1. Strict JSON: NaN and Infinity,
which Python's json module accepts by default, are refused, since JSON has
no such tokens (kfuse writes null for a non-finite number). The schema
itself is checked against its metaschema first.
"""
import json
import sys

import jsonschema


def refuse_constant(name):
    raise ValueError(f"{name} is not JSON (a non-finite number must be null)")


def load(path):
    text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
    return json.loads(text, parse_constant=refuse_constant)


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    schema = load(argv[1])
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    validator = validator_class(schema, format_checker=validator_class.FORMAT_CHECKER)
    ok = True
    for path in argv[2:]:
        try:
            doc = load(path)
        except ValueError as e:
            print(f"invalid: {path}: {e}")
            ok = False
            continue
        errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
        if errors:
            ok = False
            for e in errors:
                where = "/".join(str(p) for p in e.absolute_path) or "(top)"
                print(f"invalid: {path}: at {where}: {e.message}")
        else:
            print(f"valid: {path}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
