"""`fbec fingerprint SCHEMA`: each package's version and schema fingerprint (docs/kafka.md).

    fbec fingerprint [--json] [-I DIR] SCHEMA

One line per package of the schema (its imports first, the main package last):
``package version fingerprint``. The fingerprint is what the Kafka serdes put, as its 32 bytes,
in a record's ``fbe`` header (compiler/fbec/model/fingerprint.py says what it hashes).
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from ..model.fingerprint import fingerprint
from ..model.resolve import compile_reported
from . import add_imports


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="fbec fingerprint", description="Print each package's version and schema fingerprint (SHA-256 of "
        "its wire contract, docs/kafka.md). Exit status: 0 success, 1 a schema with errors, 2 bad usage.",
        epilog="Example: fbec fingerprint proto.fbe")
    p.add_argument("schema", metavar="SCHEMA", help="schema file")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    add_imports(p)
    return p


def run(args: argparse.Namespace) -> int:
    if not os.path.isfile(args.schema):
        print(f"fbec fingerprint: error: '{args.schema}' does not exist", file=sys.stderr)
        return 2
    schema = compile_reported(args.schema, args.imports)
    if schema is None:
        return 1
    rows = [{"package": p.name, "version": f"{p.version.major}.{p.version.minor}",
             "fingerprint": fingerprint(schema, p.name)} for p in schema.packages]
    if args.json:
        print(json.dumps({"main": schema.main, "packages": rows}, indent=1))
    else:
        for r in rows:
            print(f"{r['package']} {r['version']} {r['fingerprint']}")
    return 0
