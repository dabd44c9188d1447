"""`fbec topic`: a Kafka topic's schema record, the file a registry subject would hold (docs/kafka.md).

    fbec topic add    [--model=versioned|final] [--compatibility=LEVEL] [--strict] [-I DIR] TOPIC.json SCHEMA
    fbec topic check  [--strict] [-I DIR] TOPIC.json SCHEMA
    fbec topic accept [--json] [-I DIR] TOPIC.json SCHEMA

TOPIC.json lists, oldest first, every schema whose producers may write the topic: package,
version, fingerprint and the schema's source files (the schema and its imports, so that a later
schema can be compared with it by `fbec compat`'s rules). All schemas of a topic have one package
and one model. `add` records SCHEMA when it is compatible with the schemas already recorded (the
first `add` creates the file), `check` says whether `add` would (the gate before a producer is
deployed), `accept` prints the fingerprints a consumer built from SCHEMA reads: its own, then each
recorded schema it can read (the set its Kafka serde accepts).

Compatibility (Confluent's level names): in the versioned model a change that `fbec compat` calls
breaking misreads data in both directions, so BACKWARD, FORWARD and FULL check against the latest
schema, their _TRANSITIVE forms (FULL_TRANSITIVE the default) against every recorded schema, NONE
checks nothing. The final model has no evolution: only the recorded fingerprint is compatible.
Exit status: 0 compatible (recorded), 1 incompatible or a schema with errors, 2 bad usage.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections.abc import Sequence
from typing import Any

from ..model import ir
from ..model.fingerprint import fingerprint
from ..model.resolve import compile_reported
from . import add_imports
from .compat import BREAKING, WARNING, Change, compare

RECORD_FORMAT = 1
LEVELS = ("BACKWARD", "BACKWARD_TRANSITIVE", "FORWARD", "FORWARD_TRANSITIVE", "FULL", "FULL_TRANSITIVE", "NONE")
DEFAULT_LEVEL = "FULL_TRANSITIVE"


class TopicError(Exception):
    """A record or schema that cannot be used (exit status 1; 2 for usage)."""

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.status = status


def _version(p: ir.Package) -> str:
    return f"{p.version.major}.{p.version.minor}"


def _compile(path: str, import_dirs: Sequence[str]) -> ir.Schema:
    if not os.path.isfile(path):
        raise TopicError(f"'{path}' does not exist", 2)
    schema = compile_reported(path, import_dirs)
    if schema is None:
        raise TopicError(f"'{path}' does not compile")
    return schema


def _entry(schema: ir.Schema) -> dict[str, Any]:
    """What the record keeps of a schema: its identity and the files to compile it again."""
    main = schema.main_package
    files = []
    for p in schema.packages:   # imports first, the main package last
        with open(p.file, encoding="utf-8") as f:
            files.append({"name": os.path.basename(p.file), "text": f.read()})
    return {"package": main.name, "version": _version(main), "fingerprint": fingerprint(schema), "files": files}


def _recompile(entry: dict[str, Any]) -> ir.Schema:
    """A recorded schema compiled from its files, checked against its recorded fingerprint."""
    with tempfile.TemporaryDirectory(prefix="fbec-topic-") as folder:
        for f in entry["files"]:
            with open(os.path.join(folder, os.path.basename(f["name"])), "w", encoding="utf-8") as out:
                out.write(f["text"])
        schema = compile_reported(os.path.join(folder, os.path.basename(entry["files"][-1]["name"])), [folder])
    if schema is None:
        raise TopicError(f"the recorded schema {entry['package']} {entry['version']} does not compile")
    if fingerprint(schema) != entry["fingerprint"]:
        raise TopicError(f"the recorded schema {entry['package']} {entry['version']} has fingerprint "
                         f"{fingerprint(schema)}, the record says {entry['fingerprint']} (edited by hand, or "
                         "recorded by an fbec with another fingerprint format)")
    return schema


def _load(path: str) -> dict[str, Any] | None:
    if not os.path.exists(path):
        return None
    try:
        with open(path, encoding="utf-8") as f:
            record = json.load(f)
    except (OSError, ValueError) as e:
        raise TopicError(f"cannot read the topic record '{path}': {e}") from e
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT or not record.get("schemas"):
        raise TopicError(f"'{path}' is not a topic record of format {RECORD_FORMAT} written by fbec topic add")
    return record


def _packages(schema: ir.Schema) -> dict[str, ir.Package]:
    return {p.name: p for p in schema.packages}


def _changes(old: ir.Schema, new: ir.Schema) -> list[Change]:
    return compare(_packages(old), _packages(new))


def _failing(changes: list[Change], model: str, strict: bool) -> list[Change]:
    return [c for c in changes if c.verdict([model]) == BREAKING or (strict and c.verdict([model]) == WARNING)]


def against(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The recorded schemas a new one is checked against, by the record's compatibility level."""
    level = record["compatibility"]
    if level == "NONE":
        return []
    schemas: list[dict[str, Any]] = record["schemas"]
    return schemas if level.endswith("_TRANSITIVE") else schemas[-1:]


def verdict(record: dict[str, Any], schema: ir.Schema, strict: bool) -> list[str]:
    """Why SCHEMA may not be added to the topic (empty: it may); one line per reason."""
    main = schema.main_package
    model = record["model"]
    if main.name != record["package"]:
        return [f"the schema's package is {main.name}, the topic's is {record['package']}"]
    own = fingerprint(schema)
    if any(e["fingerprint"] == own for e in record["schemas"]):
        return []
    if model == "final":
        latest = record["schemas"][-1]
        return [(f"a final topic keeps one schema: {latest['package']} {latest['version']} (fingerprint "
                 f"{latest['fingerprint']}); this one has fingerprint {own}")]
    reasons = []
    for entry in against(record):
        failing = _failing(_changes(_recompile(entry), schema), model, strict)
        reasons += [f"against {entry['package']} {entry['version']} ({entry['fingerprint'][:12]}): {c.where}: "
                    f"{c.message}" for c in failing]
    return reasons


def accepted(record: dict[str, Any], schema: ir.Schema) -> list[str]:
    """The fingerprints a consumer of SCHEMA reads: its own and each recorded writer it can read."""
    own = fingerprint(schema)
    if schema.main != record["package"]:
        return [own]
    recorded = [e["fingerprint"] for e in record["schemas"]]
    mine = recorded.index(own) if own in recorded else len(recorded)   # not recorded: the newest
    readable = [own]
    if record["model"] == "versioned":
        for i, entry in enumerate(record["schemas"]):
            if i == mine:
                continue
            writer = _recompile(entry)
            # compat's rules compare a schema with a later one: an appended field is safe both ways
            older, newer = (writer, schema) if i < mine else (schema, writer)
            if not _failing(_changes(older, newer), "versioned", False):
                readable.append(entry["fingerprint"])
    return readable


# ---------------------------------------------------------------- command line

def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="fbec topic", description="Keep a Kafka topic's schema record (a file in your repository, "
        "what a registry subject holds): add a schema when it is compatible with the recorded ones, check "
        "whether it is (the gate before deploying a producer), print the fingerprints a consumer accepts. "
        "Exit status: 0 compatible, 1 incompatible or a schema with errors, 2 bad usage.",
        epilog="Example: fbec topic add accounts.json proto.fbe; fbec topic check accounts.json new/proto.fbe")
    p.add_argument("action", choices=("add", "check", "accept"),
                   help="add SCHEMA to the record, check it against the record, or print what it accepts")
    p.add_argument("topic", metavar="TOPIC.json", help="the topic's record (add creates it)")
    p.add_argument("schema", metavar="SCHEMA", help="schema file")
    p.add_argument("-m", "--model", choices=("versioned", "final"),
                   help="the topic's binary model, when add creates the record (default: versioned)")
    p.add_argument("-c", "--compatibility", choices=LEVELS,
                   help=f"the topic's compatibility level, when add creates the record (default: {DEFAULT_LEVEL})")
    p.add_argument("--strict", action="store_true", help="count warnings (renames, defaults) as breaking")
    p.add_argument("--json", action="store_true", help="accept: the fingerprints as a JSON list")
    add_imports(p)
    return p


def run(args: argparse.Namespace) -> int:
    try:
        return _run(args)
    except TopicError as e:
        print(f"fbec topic: error: {e}", file=sys.stderr)
        return e.status


def _run(args: argparse.Namespace) -> int:
    schema = _compile(args.schema, args.imports)
    record = _load(args.topic)
    main = schema.main_package
    if record is None:
        if args.action != "add":
            raise TopicError(f"'{args.topic}' does not exist (fbec topic add creates it)", 2)
        record = {"format": RECORD_FORMAT, "package": main.name, "model": args.model or "versioned",
                  "compatibility": args.compatibility or DEFAULT_LEVEL, "schemas": [_entry(schema)]}
        _save(args.topic, record)
        print(f"fbec topic: {args.topic}: created ({record['model']}, {record['compatibility']}), schema 1: "
              f"{main.name} {_version(main)} {fingerprint(schema)}")
        return 0
    for option, key in (("model", "model"), ("compatibility", "compatibility")):
        given = getattr(args, option)
        if given is not None and given != record[key]:
            raise TopicError(f"the topic's {key} is {record[key]}, not {given} (the record keeps the one it was "
                             "created with)", 2)
    if args.action == "accept":
        fingerprints = accepted(record, schema)
        print(json.dumps(fingerprints) if args.json else "\n".join(fingerprints))
        return 0
    reasons = verdict(record, schema, args.strict)
    what = f"{main.name} {_version(main)} ({fingerprint(schema)})"
    if reasons:
        print(f"fbec topic: {what} is INCOMPATIBLE with {args.topic} ({record['model']}, "
              f"{record['compatibility']}):")
        for r in reasons:
            print(f"  {r}")
        return 1
    known = next((i for i, e in enumerate(record["schemas"], 1) if e["fingerprint"] == fingerprint(schema)), None)
    if known is not None:
        print(f"fbec topic: {what} is schema {known} of {args.topic}")
        return 0
    if args.action == "check":
        print(f"fbec topic: {what} is compatible with {args.topic} ({record['model']}, {record['compatibility']})")
        return 0
    record["schemas"].append(_entry(schema))
    _save(args.topic, record)
    print(f"fbec topic: {args.topic}: schema {len(record['schemas'])}: {what}")
    return 0


def _save(path: str, record: dict[str, Any]) -> None:
    folder = os.path.dirname(os.path.abspath(path))
    with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=folder, delete=False, suffix=".tmp") as f:
        json.dump(record, f, indent=1, ensure_ascii=False)
        f.write("\n")
    os.replace(f.name, path)
