"""`fbec compat OLD NEW`: which changes between two schema versions break FBE compatibility.

    fbec compat [--model=versioned|final|both] [--strict] [--json] [-I DIR] OLD NEW

OLD and NEW are schema files or folders of schemas. Both are compiled to the
IR and compared package by package, type by type. Every change gets a
verdict for each binary model (docs/format.md 3.6 and 4, docs/schema.md 4.5):

* ``breaking`` — data written with one version is misread by the other
  (field removed, inserted before the end, reordered or retyped, type number
  changed, enum/flags value renumbered or removed or its underlying type
  changed, base changed, message or type removed; in the final model any
  layout change);
* ``warning`` — the bytes still read the same, but something else changes
  (a renamed field or enum value changes JSON or text and generated code, a
  changed default changes what old data reads as, key fields change the
  order of sets and maps...);
* ``safe`` — fields appended at the end, new enum values, new types...

Exit status: 0 no breaking change (for the models chosen by ``--model``,
default ``versioned``), 1 some change breaks or a schema does not compile,
2 bad usage (a missing path). ``--strict`` counts warnings as breaking.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any, TypeVar

from ..model import ir
from ..model.resolve import compile_reported
from . import add_imports

BREAKING, WARNING, SAFE = "breaking", "warning", "safe"
T = TypeVar("T", ir.Enum, ir.Struct)

_RANK = {SAFE: 0, WARNING: 1, BREAKING: 2}


@dataclass(frozen=True)
class Change:
    kind: str            # field-removed, field-appended, type-id-changed, ...
    where: str           # qualified: proto.Account, proto.Account.orders, proto.State.good
    message: str
    versioned: str       # breaking | warning | safe
    final: str

    def verdict(self, models: Sequence[str]) -> str:
        return max((str(getattr(self, m)) for m in models), key=_RANK.__getitem__)


class InputError(Exception):
    """A path that does not exist or holds no schema (usage, exit status 2)."""
    status = 2


class SchemaErrors(InputError):
    """A schema that does not compile; its diagnostics were printed (exit status 1)."""
    status = 1


# ---------------------------------------------------------------- loading

def load(path: str, import_dirs: Sequence[str] = (), mains: list[str] | None = None) -> dict[str, ir.Package]:
    """Every package of a schema file (with its imports) or of a folder of schemas, by name."""
    if os.path.isdir(path):
        files = sorted(os.path.join(d, f) for d, _, names in os.walk(path) for f in names if f.endswith(".fbe"))
        if not files:
            raise InputError(f"no .fbe files in folder '{path}'")
        dirs = [path] + list(import_dirs)
    elif os.path.isfile(path):
        files, dirs = [path], list(import_dirs)
    else:
        raise InputError(f"'{path}' does not exist")
    packages: dict[str, ir.Package] = {}
    for f in files:
        schema = compile_reported(f, dirs)
        if schema is None:
            raise SchemaErrors(f"'{f}' does not compile")
        if mains is not None:
            mains.append(schema.main)
        for p in schema.packages:
            packages.setdefault(p.name, p)
    return packages


# ---------------------------------------------------------------- comparison

def type_text(t: ir.Type) -> str:
    """A type as written in a schema: `int32`, `proto.Order?`, `double<string>`."""
    if isinstance(t, (ir.Primitive, ir.EnumRef, ir.StructRef)):
        return t.name
    if isinstance(t, ir.Optional_):
        return type_text(t.element) + "?"
    if isinstance(t, ir.Array):
        return f"{type_text(t.element)}[{t.length}]"
    if isinstance(t, ir.Sequence):
        return type_text(t.element) + {"vector": "[]", "list": "()", "set": "!"}[t.kind]
    opening, closing = ("<", ">") if t.kind == "map" else ("{", "}")
    return f"{type_text(t.value)}{opening}{type_text(t.key)}{closing}"


def _or_none(x: object) -> str:
    return "(none)" if x is None else str(x)


def _default_text(d: ir.Default) -> str:
    k = d.kind
    if k == "none":
        return "(none)"
    if k in ("null", "utc", "uuid1", "uuid4"):
        return k
    if k == "real":
        return str(d.text)
    if k in ("enum", "flags"):
        return " | ".join(f"{(d.type or '').rpartition('.')[2]}.{n}" for n in d.names)
    return json.dumps(d.value)


class Comparer:
    def __init__(self, old: dict[str, ir.Package], new: dict[str, ir.Package]) -> None:
        self.old, self.new = old, new
        self.changes: list[Change] = []
        self.old_structs = self._structs(old)
        self.new_structs = self._structs(new)

    @staticmethod
    def _structs(packages: dict[str, ir.Package]) -> dict[str, ir.Struct]:
        return {s.qualified: s for p in packages.values() for s in p.structs}

    def add(self, kind: str, where: str, message: str, versioned: str, final: str | None = None) -> None:
        self.changes.append(Change(kind, where, message, versioned, versioned if final is None else final))

    def run(self) -> list[Change]:
        for name, p in self.old.items():
            if name not in self.new:
                self.add("package-removed", name, f"package {name} removed", BREAKING)
            else:
                self._package(p, self.new[name])
        for name in self.new:
            if name not in self.old:
                self.add("package-added", name, f"package {name} added", SAFE)
        return self.changes

    def _package(self, old: ir.Package, new: ir.Package) -> None:
        name = old.name
        self._changed("domain-changed", name, "domain", old.domain, new.domain,
                      "namespaces of generated code change; no wire effect", WARNING)
        if old.version != new.version:
            ov, nv = old.version, new.version
            self.add("version-changed", name, f"version {ov.major}.{ov.minor} -> {nv.major}.{nv.minor} "
                     "(never on the wire)", SAFE)
        self._types(old.enums + old.flags, new.enums + new.flags, lambda e: e.kind, self._enum, lambda e: "")
        self._types(old.structs, new.structs, lambda s: "message" if s.message else "struct", self._struct,
                    lambda s: f" (type {s.type_id})")

    def _types(self, old: Sequence[T], new: Sequence[T], what: Callable[[T], str], compare: Callable[[T, T], None],
               note: Callable[[T], str]) -> None:
        """The types of a package, old and new: each removed, compared with its new self, or added."""
        old_types = {x.qualified: x for x in old}
        new_types = {x.qualified: x for x in new}
        for q, x in old_types.items():
            if q not in new_types:
                self.add(f"{what(x)}-removed", q, f"{what(x)} {q} removed", BREAKING)
            else:
                compare(x, new_types[q])
        for q, x in new_types.items():
            if q not in old_types:
                self.add(f"{what(x)}-added", q, f"{what(x)} {q} added{note(x)}", SAFE)

    # ------------------------------------------------------------ enums and flags

    def _enum(self, old: ir.Enum, new: ir.Enum) -> None:
        q = old.qualified
        kind = old.kind
        self._changed("kind-changed", q, q, old.kind, new.kind, "same numbers; printed text changes", WARNING)
        if old.wire != new.wire:
            self.add("underlying-type-changed", q, f"underlying type of {kind} {q} changed from {old.underlying} "
                     f"to {new.underlying} (stored as {old.wire}, now {new.wire})", BREAKING)
        elif old.underlying != new.underlying:
            self.add("underlying-type-renamed", q, f"underlying type of {q} written {old.underlying} -> "
                     f"{new.underlying} (same {old.wire} on the wire)", SAFE)
        old_values = {v.name: v.value for v in old.values}
        new_values = {v.name: v.value for v in new.values}
        old_numbers = set(old_values.values())
        for n, v in old_values.items():
            if n in new_values:
                if new_values[n] != v:
                    self.add("value-renumbered", f"{q}.{n}", f"{kind} value {q}.{n} renumbered from {v} to "
                             f"{new_values[n]} (old data with {v} reads as another value)", BREAKING)
                continue
            renamed = [m for m, w in new_values.items() if w == v and m not in old_values]
            if renamed:
                self.add("value-renamed", f"{q}.{n}", f"{kind} value {q}.{n} renamed to {renamed[0]} "
                         "(same number; printed text and generated code change)", WARNING)
            else:
                self.add("value-removed", f"{q}.{n}", f"{kind} value {q}.{n} (= {v}) removed "
                         "(old data holding it reads as an unnamed number)", BREAKING)
        for n, v in new_values.items():
            if n not in old_values and (v not in old_numbers or not any(
                    old_values.get(m) == v for m in old_values if m not in new_values)):
                self.add("value-added", f"{q}.{n}", f"{kind} value {q}.{n} = {v} added", SAFE)

    # ------------------------------------------------------------ structs

    def _struct(self, old: ir.Struct, new: ir.Struct) -> None:
        q = old.qualified
        what = "message" if old.message else "struct"
        if old.message and not new.message:
            self.add("message-to-struct", q, f"{q} is no longer a message (senders and receivers drop it)", BREAKING)
        elif new.message and not old.message:
            self.add("struct-to-message", q, f"{q} becomes a message (type {new.type_id})", SAFE)
        self._changed("type-id-changed", q, f"type number of {what} {q}", old.type_id, new.type_id,
                      "verify() and protocol dispatch see a different type", BREAKING)
        self._changed("base-changed", q, f"base of {q}", old.base, new.base, "inherited fields are laid out first",
                      BREAKING)
        client = " (Client behaviour; no wire effect)"
        self._attribute(q, "request", old.request, new.request, client, WARNING)
        self._attribute(q, "response", old.response, new.response, client, WARNING)
        if old.rejects != new.rejects:
            self.add("reject-changed", q, f"[reject] of {q} changed (Client behaviour; no wire effect)", WARNING)
        if old.keys != new.keys:
            self.add("keys-changed", q, f"key fields of {q}: {list(old.keys)} -> {list(new.keys)} (equality, "
                     "hashing and the order of sets and maps of it change)", WARNING)
        before = len(self.changes)
        self._fields(q, old, new)
        layout_reported = any(c.final == BREAKING for c in self.changes[before:])
        if not layout_reported and self._final_sig(self.old_structs, q) != self._final_sig(self.new_structs, q):
            self.add("final-layout-changed", q, f"final-model layout of {q} changed (a type it contains "
                     "changed its layout; any layout change breaks the final model)", SAFE, BREAKING)

    def _changed(self, kind: str, where: str, what: str, old: object, new: object, note: str, versioned: str,
                 final: str | None = None) -> None:
        """The change `kind` when `what` went from old to new (None: "(none)"): "<what> changed from <old> to <new>
        (<note>)"."""
        if old != new:
            self.add(kind, where, f"{what} changed from {_or_none(old)} to {_or_none(new)} ({note})", versioned, final)

    def _attribute(self, where: str, attr: str, old: object, new: object, note: str, level: str) -> None:
        """The change `<attr>-changed` when the [attr] of `where` went from old to new."""
        if old != new:
            self.add(f"{attr}-changed", where, f"[{attr}] of {where}: {old} -> {new}{note}", level)

    def _fields(self, q: str, old: ir.Struct, new: ir.Struct) -> None:
        of, nf = old.all_fields, new.all_fields
        old_pos = {f.name: i for i, f in enumerate(of)}
        new_pos = {f.name: i for i, f in enumerate(nf)}
        renamed: dict[str, str] = {}
        for i, f in enumerate(of):
            if f.name not in new_pos and i < len(nf) and nf[i].name not in old_pos \
                    and type_text(nf[i].type) == type_text(f.type):
                renamed[f.name] = nf[i].name
        for old_name, new_name in renamed.items():
            self.add("field-renamed", f"{q}.{old_name}", f"field {q}.{old_name} renamed to {new_name} "
                     "(same slot; JSON member names and generated code change)", WARNING)
        for i, f in enumerate(of):
            if f.name not in renamed and f.name not in new_pos:
                self.add("field-removed", f"{q}.{f.name}", f"field {q}.{f.name} ({type_text(f.type)}, position "
                         f"{i + 1}) removed", BREAKING)
        for i, f in enumerate(nf):
            name = f.name
            if name in old_pos or name in renamed.values():
                continue
            if i >= len(of):
                self.add("field-appended", f"{q}.{name}", f"field {q}.{name} ({type_text(f.type)}) appended at "
                         "the end (older readers skip it, newer readers of old data use its default)",
                         SAFE, BREAKING)
            else:
                why = (f" (appended to its base {f.owner}: a base's new field shifts every derived struct)"
                       if f.owner != q else " (only appending at the end is safe)")
                self.add("field-inserted", f"{q}.{name}", f"field {q}.{name} ({type_text(f.type)}) inserted at "
                         f"position {i + 1} of {len(nf)}{why}", BREAKING)
        common_old = [f.name for f in of if f.name in new_pos]
        common_new = sorted(common_old, key=new_pos.__getitem__)
        if common_old != common_new:
            moved = _out_of_order(common_old, common_new)
            self.add("fields-reordered", q, f"fields of {q} reordered: {', '.join(moved)} moved", BREAKING)
        for f in of:
            if f.name not in new_pos:
                continue
            g = nf[new_pos[f.name]]
            where = f"{q}.{f.name}"
            ot, nt = type_text(f.type), type_text(g.type)
            if ot != nt:
                self.add("field-retyped", where, f"field {where} retyped from {ot} to {nt}", BREAKING)
            # a field that moves between the struct and its base is reported as base-changed;
            # a changed [key] once as keys-changed
            self._changed("default-changed", where, f"default of {where}", _default_text(f.default),
                          _default_text(g.default), "data of writers without the field reads differently", WARNING,
                          SAFE)
            self._attribute(where, "hidden", f.hidden, g.hidden, " (printed text only)", SAFE)
            self._attribute(where, "deprecated", f.deprecated, g.deprecated, "", SAFE)
        if not any(c.versioned == BREAKING and (c.where == q or c.where.startswith(q + "."))
                   for c in self.changes):
            for f in of:
                moved_to = nf[new_pos[f.name]] if f.name in new_pos else None
                if moved_to is not None and moved_to.offset != f.offset:
                    self.add("field-moved", f"{q}.{f.name}", f"slot of {q}.{f.name} moved from body offset "
                             f"{f.offset} to {moved_to.offset} (a field before it changed size)", BREAKING)
                    break

    def _final_sig(self, structs: dict[str, ir.Struct], q: str, stack: tuple[str, ...] = ()) -> Any:
        """The final-model layout of a struct: field types with nested structs expanded."""
        if q in stack:
            return ("recursive", q)
        return tuple(self._type_sig(structs, f.type, stack + (q,)) for f in structs[q].all_fields)

    def _type_sig(self, structs: dict[str, ir.Struct], t: ir.Type, stack: tuple[str, ...]) -> Any:
        if isinstance(t, ir.Primitive):
            return t.name
        if isinstance(t, ir.EnumRef):
            return t.wire
        if isinstance(t, ir.StructRef):
            return ("struct", self._final_sig(structs, t.name, stack)) if t.name in structs else t.name
        if isinstance(t, ir.Mapping):
            return (t.kind, self._type_sig(structs, t.key, stack), self._type_sig(structs, t.value, stack))
        return (t.kind, t.length if isinstance(t, ir.Array) else None, self._type_sig(structs, t.element, stack))


def _out_of_order(old: list[str], new: list[str]) -> list[str]:
    """The names not in the longest common subsequence (the fields that moved)."""
    n, m = len(old), len(new)
    dp = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            dp[i][j] = dp[i + 1][j + 1] + 1 if old[i] == new[j] else max(dp[i + 1][j], dp[i][j + 1])
    keep = set()
    i = j = 0
    while i < n and j < m:
        if old[i] == new[j]:
            keep.add(old[i])
            i += 1
            j += 1
        elif dp[i + 1][j] >= dp[i][j + 1]:
            i += 1
        else:
            j += 1
    return [x for x in new if x not in keep]


def compare(old: dict[str, ir.Package], new: dict[str, ir.Package]) -> list[Change]:
    """Every change from OLD to NEW packages (by package name)."""
    return Comparer(old, new).run()


def compare_paths(old: str, new: str, import_dirs: Sequence[str] = ()) -> list[Change]:
    old_mains: list[str] = []
    new_mains: list[str] = []
    changes = compare(load(old, import_dirs, old_mains), load(new, import_dirs, new_mains))
    if os.path.isfile(old) and os.path.isfile(new) and old_mains != new_mains:
        changes.insert(0, Change("package-renamed", old_mains[0], f"the schema's package is {new_mains[0]}, was "
                                 f"{old_mains[0]} (every qualified type name changes)", BREAKING, BREAKING))
    return changes


# ---------------------------------------------------------------- command line

def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="fbec compat", description="List the changes between two schema versions and whether they break "
        "FBE compatibility. Exit status: 0 compatible, 1 breaking or a schema with errors, 2 bad usage "
        "(a path that does not exist).",
        epilog="Example: fbec compat old/proto.fbe new/proto.fbe")
    p.add_argument("old", metavar="OLD", help="old schema file or folder")
    p.add_argument("new", metavar="NEW", help="new schema file or folder")
    p.add_argument("-m", "--model", choices=("versioned", "final", "both"), default="versioned",
                   help="binary model(s) the data uses (default: versioned; in the final model any layout change "
                        "breaks)")
    p.add_argument("--strict", action="store_true", help="count warnings as breaking")
    p.add_argument("--json", action="store_true", help="machine-readable output for CI")
    add_imports(p)
    return p


def run(args: argparse.Namespace) -> int:
    models = ["versioned", "final"] if args.model == "both" else [args.model]
    try:
        changes = compare_paths(args.old, args.new, args.imports)
    except InputError as e:
        if args.json:
            print(json.dumps({"error": str(e)}))
        print(f"fbec compat: error: {e}", file=sys.stderr)
        return e.status
    verdicts = [c.verdict(models) for c in changes]
    failing = [c for c, v in zip(changes, verdicts) if v == BREAKING or (args.strict and v == WARNING)]
    status = 1 if failing else 0
    if args.json:
        out = {
            "old": args.old, "new": args.new, "models": models, "compatible": not failing,
            "breaking": sum(v == BREAKING for v in verdicts), "warnings": sum(v == WARNING for v in verdicts),
            "changes": [dict(asdict(c), verdict=v) for c, v in zip(changes, verdicts)],
        }
        print(json.dumps(out, indent=1))
        return status
    print(f"fbec compat: {args.old} -> {args.new} (model: {' + '.join(models)})")
    if not changes:
        print("no changes")
    for title, level in (("breaking", BREAKING), ("warnings", WARNING), ("safe", SAFE)):
        group = [c for c, v in zip(changes, verdicts) if v == level]
        if group:
            print(f"{title}:")
            for c in group:
                extra = ""
                if level != BREAKING and c.final == BREAKING and "final" not in models:
                    extra = "  [breaks the final model]"
                print(f"  {c.where}: {c.message}{extra}")
    nb = sum(v == BREAKING for v in verdicts)
    nw = sum(v == WARNING for v in verdicts)
    print(f"result: {'INCOMPATIBLE' if failing else 'compatible'} ({nb} breaking, {nw} warnings, "
          f"{len(changes) - nb - nw} safe)")
    return status
