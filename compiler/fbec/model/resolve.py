"""Resolution: parsed files -> the IR (`fbec.model.ir`).

Loads imports (the input's folder, then every `-I` folder), resolves names,
evaluates enum/flags values and defaults, assigns struct type numbers as the
original does (docs/format.md section 6), flattens inheritance and computes every
slot offset and size, so no target ever recomputes them.
"""

from __future__ import annotations

import difflib
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..syntax import ast
from ..syntax.diagnostics import CompileError, Diagnostics, Position
from ..syntax.parser import BASE_TYPES, parse
from . import facts, ir
from .values import (
    UUID_TEXT,
    LiteralError,
    char_value,
    decimal_literal_problem,
    int_value,
    is_hex,
    real_text,
    string_value,
)

ENUM_BASES = frozenset(ir.ENUM_WIRE)
FLAGS_BASES = ENUM_BASES - {"char", "wchar"}
INTEGER_TYPES = frozenset(("byte", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"))
REAL_TYPES = frozenset(("float", "double", "decimal"))

MAX_TYPE_DEPTH = 128
"""Struct types nest at most this many levels: a struct is one level, each struct its fields use
(by value, optional, in an array, a collection or a map) and its base one more. The readers refuse
data nested deeper than 128 structs (FBE::kMaxDepth, fbe.MAX_DEPTH), so a deeper type could only
hold values nobody reads; counting bases bounds inheritance chains by the same number and keeps
every stage of the compiler within a fixed recursion depth (docs/compiler.md, "Limits")."""

MAX_U32 = 0xFFFFFFFF
"""Sizes and counts in the format are 32-bit: a struct body or an array beyond it cannot be written."""

MAX_FRAME_SIZE = 64 << 20
"""The largest frame every Receiver takes by default (docs/limits.md, `max_frame_size`): a fixed array,
or a struct of fixed size, that takes more bytes in the final model (its smallest encoding) can never
be sent, and only costs memory: every value of its type holds it, read or not."""


# ------------------------------------------------------------------ loading

def load_files(path: str, import_dirs: Sequence[str], diag: Diagnostics) -> list[ast.SchemaFile]:
    """Parses `path` and, depth first, every file it imports.

    Returns the files in dependency order (imports first, `path` last).
    """
    order: list[ast.SchemaFile] = []
    done: dict[str, ast.SchemaFile] = {}
    stack: list[str] = []

    def read(file: str) -> ast.SchemaFile | None:
        try:
            with open(file, encoding="utf-8") as f:
                text = f.read()
        except UnicodeDecodeError as e:
            diag.error(f"cannot read '{file}': not UTF-8 text ({e.reason} at byte {e.start})")
            return None
        except OSError as e:
            diag.error(f"cannot read '{file}': {e.strerror}")
            return None
        return parse(file, text, diag)

    def visit(file: str, importer: ast.Name | None) -> None:
        key = os.path.realpath(file)
        if key in done:
            return
        if key in stack:
            cycle = [os.path.basename(p) for p in stack[stack.index(key):]] + [os.path.basename(file)]
            diag.error("circular import: " + " -> ".join(cycle), importer.position if importer else None)
            return
        schema = read(file)
        if schema is None:
            return
        stack.append(key)
        for name in schema.imports:
            found = find_import(name.text, os.path.dirname(file), import_dirs)
            if found is None:
                looked = [os.path.dirname(file) or "."] + list(import_dirs)
                diag.error(f"cannot find imported package '{name.text}': no {name.text}.fbe in "
                           + ", ".join(looked), name.position)
                continue
            visit(found, name)
        stack.pop()
        done[key] = schema
        order.append(schema)

    visit(path, None)
    return order


def find_import(name: str, folder: str, import_dirs: Sequence[str]) -> str | None:
    for d in [folder] + list(import_dirs):
        candidate = os.path.normpath(os.path.join(d, name + ".fbe"))
        if os.path.isfile(candidate):
            return candidate
    return None


# ------------------------------------------------------------------ resolution

Decl = ast.EnumDecl | ast.StructDecl


@dataclass
class _Scope:
    file: ast.SchemaFile
    name: str
    imports: set[str]
    decls: dict[str, Decl] = field(default_factory=dict)


class Resolver:
    def __init__(self, files: list[ast.SchemaFile], diag: Diagnostics) -> None:
        self.diag = diag
        self.files = files
        self.scopes: dict[str, _Scope] = {}
        self.enums: dict[str, ir.Enum] = {}
        self.type_ids: dict[str, int] = {}
        self.structs: dict[str, ir.Struct] = {}
        self._in_progress: list[str] = []
        self._failed: set[str] = set()
        self._final_sizes: dict[str, int | None] = {}
        self._final_stack: list[str] = []
        self._responses: list[tuple[str, ast.Name, str]] = []   # (response, where it is named, its request)

    # -------------------------------------------------------------- entry

    def resolve(self) -> ir.Schema:
        packages = []
        scopes = [(f, self._scope(f)) for f in self.files]
        if not self._check_type_depth():
            raise CompileError("types nested too deep")     # nothing below may recurse that deep
        for f, scope in scopes:
            if scope is None:
                continue
            for d in f.enums:
                self._enum(scope, d)
            self._type_numbers(scope)
            for s in f.structs:
                self._struct(scope, s)
            packages.append(self._package(scope))
        self._warn_unmatched_responses()
        self.diag.check()
        return facts.complete(ir.Schema(main=packages[-1].name, packages=tuple(packages)))

    def _warn_unmatched_responses(self) -> None:
        """A response without a uuid field `id` never answers its request (docs/format.md 7.6): it goes to
        the notify handler, and the request ends by its timeout or reset(). Legal, but worth a warning."""
        for response, name, request in self._responses:
            s = self.structs.get(response)
            if s is not None and s.id_field is None:
                self.diag.warning(f"response '{name.text}' of request '{request}' has no uuid field 'id': it never "
                                  "answers the request, which ends by its timeout or reset()", name.position)

    def _check_type_depth(self) -> bool:
        """Reports every struct whose types nest exactly one level deeper than MAX_TYPE_DEPTH (the
        structs above it are deeper only through it); False when there is one. Iterative, so any
        schema is measured before a recursive stage sees it."""
        edges: dict[str, list[tuple[str, str, Position]]] = {}     # struct -> (kind, struct used, where)
        for scope in self.scopes.values():
            for local, decl in scope.decls.items():
                if not isinstance(decl, ast.StructDecl):
                    continue
                out: list[tuple[str, str, Position]] = []
                if decl.base is not None:
                    bq, bdecl = self._lookup_quiet(scope, decl.base)
                    if bq is not None and isinstance(bdecl, ast.StructDecl):
                        out.append(("base", bq, decl.base.position))
                for fd in decl.fields:
                    for used in (fd.type.element, fd.type.key):
                        if used is None or used.text in BASE_TYPES:
                            continue
                        uq, udecl = self._lookup_quiet(scope, used)
                        if uq is not None and isinstance(udecl, ast.StructDecl):
                            out.append((fd.name.text, uq, fd.name.position))
                edges[f"{scope.name}.{local}"] = out
        depth: dict[str, int] = {}
        deepest: dict[str, tuple[str, str, Position]] = {}
        for root in edges:
            if root in depth:
                continue
            on_path = {root}
            stack: list[tuple[str, int]] = [(root, 0)]
            while stack:
                node, i = stack[-1]
                if i < len(edges[node]):
                    stack[-1] = (node, i + 1)
                    child = edges[node][i][1]
                    if child not in depth and child not in on_path:   # a cycle (recursive data) adds nothing
                        on_path.add(child)
                        stack.append((child, 0))
                    continue
                stack.pop()
                on_path.discard(node)
                depth[node] = 1
                for edge in edges[node]:
                    if 1 + depth.get(edge[1], 0) > depth[node]:
                        depth[node], deepest[node] = 1 + depth[edge[1]], edge
        ok = True
        for node, d in depth.items():
            if d != MAX_TYPE_DEPTH + 1:
                continue
            ok = False
            path, step = [], node
            while step in deepest:
                kind, nxt, _ = deepest[step]
                path.append((kind, step, nxt))
                step = nxt
            package, _, name = node.rpartition(".")
            where = deepest[node][2]
            if all(kind == "base" for kind, _, _ in path):
                chain = " : ".join(self._short(n, package) for n in [node] + [nxt for _, _, nxt in path[:2]])
                self.diag.error(f"struct '{name}' and its bases form a chain of {d} structs ({chain} : ...); "
                                f"inheritance is limited to {MAX_TYPE_DEPTH} levels", where)
            else:
                steps = [f"{self._short(owner, package)}.{kind}" if kind != "base"
                         else f"{self._short(owner, package)} : {self._short(used, package)}"
                         for kind, owner, used in path]
                shown = ", ".join(steps[:3]) + (", ..." if len(steps) > 3 else "")
                self.diag.error(f"struct '{name}' nests struct types {d} levels deep ({shown}); readers refuse "
                                f"data nested deeper than {MAX_TYPE_DEPTH} levels (a base counts as a level)", where)
        return ok

    @staticmethod
    def _short(qualified: str, package: str) -> str:
        """`Name` for a struct of `package`, `pkg.Name` for another package's."""
        return qualified.rpartition(".")[2] if qualified.startswith(package + ".") else qualified

    def _scope(self, f: ast.SchemaFile) -> _Scope | None:
        if f.package is None:
            return None
        name = f.package.text
        if name in self.scopes:
            self.diag.error(f"package '{name}' is declared twice (also in {self.scopes[name].file.path})",
                            f.package.position)
            return None
        imports: set[str] = set()
        for imp in f.imports:
            if imp.text in imports:
                self.diag.error(f"duplicate import of package '{imp.text}'", imp.position)
            elif imp.text == name:
                self.diag.error(f"package '{name}' cannot import itself", imp.position)
            imports.add(imp.text)
        scope = _Scope(f, name, imports)
        seen: dict[str, Position] = {}
        declarations: list[Decl] = [*f.enums, *f.structs]
        declarations.sort(key=lambda d: (d.name.position.line, d.name.position.column))
        for d in declarations:
            prev = seen.get(d.name.text)
            if prev is not None:
                self.diag.error(f"duplicate type name '{d.name.text}' (first declared at line {prev.line})",
                                d.name.position)
                continue
            seen[d.name.text] = d.name.position
            scope.decls[d.name.text] = d
        self.scopes[name] = scope
        return scope

    def _package(self, scope: _Scope) -> ir.Package:
        f = scope.file
        offset = 0
        if f.offset is not None:
            offset = self._non_negative(f.offset, "package offset")
        version = ir.Version()
        if f.version is not None:
            major, _, minor = f.version.text.partition(".")
            if not major.isdigit() or not minor.isdigit():
                self.diag.error(f"version must be 'major.minor' with two integers, found '{f.version.text}'",
                                f.version.position)
            else:
                version = ir.Version(int(major), int(minor))
        name = scope.name
        declared = [self.structs[q] for q in (f"{name}.{s.name.text}" for s in f.structs) if q in self.structs]
        protocol = tuple(s.qualified for s in declared if s.message) or tuple(s.qualified for s in declared)
        self._distinct_message_numbers(scope, declared)
        return ir.Package(
            name=name, file=f.path, domain=f.domain.text if f.domain else None, offset=offset,
            version=version, imports=tuple(i.text for i in f.imports),
            enums=tuple(self.enums[f"{name}.{d.name.text}"] for d in f.enums
                        if d.kind == "enum" and f"{name}.{d.name.text}" in self.enums),
            flags=tuple(self.enums[f"{name}.{d.name.text}"] for d in f.enums
                        if d.kind == "flags" and f"{name}.{d.name.text}" in self.enums),
            structs=tuple(self._ordered_structs(scope)),
            protocol=protocol,
        )

    def _distinct_message_numbers(self, scope: _Scope, declared: list[ir.Struct]) -> None:
        """Two messages of a package with one type number: its Receiver dispatches by type number
        and could not tell them apart."""
        first: dict[int, ir.Struct] = {}
        for s in declared:
            if not s.message:
                continue
            other = first.setdefault(s.type_id, s)
            if other is s:
                continue
            decl = scope.decls[s.name]
            assert isinstance(decl, ast.StructDecl)
            number = decl.numbering[1] if decl.numbering else None
            self.diag.error(f"message '{s.name}' has type number {s.type_id}, as message '{other.name}' has: "
                            f"the Receiver of package '{scope.name}' could not tell them apart",
                            number.position if number is not None else decl.name.position)

    def _ordered_structs(self, scope: _Scope) -> list[ir.Struct]:
        """Declaration order, moved where needed so a struct follows its base and the
        structs it holds by value (what a C++-like target needs); cycles keep declaration order."""
        declared = [self.structs[q] for q in (f"{scope.name}.{s.name.text}" for s in scope.file.structs)
                    if q in self.structs]
        by_name = {s.qualified: s for s in declared}
        placed: list[ir.Struct] = []
        state: dict[str, int] = {}

        def deps(s: ir.Struct) -> list[str]:
            out = [s.base] if s.base else []
            for fld in s.fields:
                out.extend(_struct_names(fld.type))
            return [d for d in out if d in by_name and d != s.qualified]

        def place(s: ir.Struct) -> None:
            if state.get(s.qualified):
                return
            state[s.qualified] = 1
            for d in deps(s):
                if not state.get(d):
                    place(by_name[d])
            state[s.qualified] = 2
            placed.append(s)

        for s in declared:
            place(s)
        return placed

    # -------------------------------------------------------------- helpers

    def _non_negative(self, lit: ast.Literal, what: str) -> int:
        if is_hex(lit.text):
            self.diag.error(f"{what} must be a decimal integer (the original compiler reads '{lit.text}' as 0)",
                            lit.position)
            return 0
        value = int_value(lit.text)
        if value < 0:
            self.diag.error(f"{what} must not be negative, found {value}", lit.position)
            return 0
        if value > 0xFFFFFFFF:
            self.diag.error(f"{what} {value} does not fit in 32 bits", lit.position)
            return 0
        return value

    def _lookup(self, scope: _Scope, name: ast.Name) -> tuple[str | None, Decl | None]:
        """Finds a declared type; returns (qualified, decl) or reports and returns (None, None)."""
        pkg, _, local = name.text.rpartition(".")
        if not pkg or pkg == scope.name:
            target = scope
        elif pkg not in scope.imports:
            self.diag.error(f"unknown type '{name.text}': package '{pkg}' is not imported (add 'import {pkg}')",
                            name.position)
            return None, None
        else:
            found = self.scopes.get(pkg)
            if found is None:
                return None, None          # the import itself failed and was reported
            target = found
        decl = target.decls.get(local)
        if decl is None:
            where = f" in package '{target.name}'" if pkg else ""
            known = list(target.decls) if pkg else [*BASE_TYPES, *target.decls]
            close = difflib.get_close_matches(local, known, n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            self.diag.error(f"unknown type '{name.text}'{where}{hint}", name.position)
            return None, None
        return f"{target.name}.{local}", decl

    # -------------------------------------------------------------- enums and flags

    def _enum(self, scope: _Scope, d: ast.EnumDecl) -> None:
        kind = d.kind
        qualified = f"{scope.name}.{d.name.text}"
        if scope.decls.get(d.name.text) is not d:
            return
        underlying = "int32"
        if d.base is not None:
            allowed = ENUM_BASES if kind == "enum" else FLAGS_BASES
            if d.base.text not in allowed:
                self.diag.error(f"{kind} '{d.name.text}' cannot be based on '{d.base.text}'; use one of "
                                + ", ".join(sorted(allowed)), d.base.position)
            else:
                underlying = d.base.text
        lo, hi = ir.INTEGER_RANGES[underlying]
        values: list[ir.EnumValue] = []
        known: dict[str, int] = {}
        previous: int | None = None
        for v in d.values:
            name = v.name.text
            value: int | None
            if v.value is None:
                if kind == "flags":
                    self.diag.error(f"flags value '{name}' needs '= value'", v.name.position)
                    value = None
                else:
                    value = 0 if previous is None else previous + 1
            else:
                value = self._enum_value(kind, d.name.text, v.value, known)
            if value is not None and not lo <= value <= hi:
                self.diag.error(f"value {value} of {kind} '{d.name.text}.{name}' is out of range for "
                                f"{underlying} ({lo}..{hi})", v.value.position
                                if v.value else v.name.position)
                value = None
            if name in known or any(x.name == name for x in values):
                self.diag.error(f"duplicate value name '{name}' in {kind} '{d.name.text}'", v.name.position)
                continue
            previous = value if value is not None else previous
            if value is None:
                value = 0
            known[name] = value
            values.append(ir.EnumValue(name, value, v.attributes.hidden, v.attributes.deprecated))
        self.enums[qualified] = ir.Enum(
            kind=kind, name=d.name.text, qualified=qualified, underlying=underlying,
            wire=ir.ENUM_WIRE[underlying], size=ir.PRIMITIVE_SIZES[ir.ENUM_WIRE[underlying]],
            values=tuple(values), hidden=d.attributes.hidden, deprecated=d.attributes.deprecated)

    def _enum_value(self, kind: str, owner: str, expr: ast.ValueExpr, known: dict[str, int]) -> int | None:
        atoms = expr.atoms
        if len(atoms) == 1 and atoms[0].kind == "int":
            return int_value(atoms[0].text)
        if len(atoms) == 1 and atoms[0].kind == "char":
            if kind == "flags":
                self.diag.error("flags values must be integers or '|' combinations of flags names",
                                atoms[0].position)
                return None
            return self._char(atoms[0])
        result = 0
        for atom in atoms:
            if atom.kind != "name":
                self.diag.error(f"expected the name of an earlier value of {kind} '{owner}', found {atom.text}",
                                atom.position)
                return None
            local = atom.text.rpartition(".")[2] if atom.text.startswith(owner + ".") else atom.text
            if local not in known:
                self.diag.error(f"'{atom.text}' is not a value declared earlier in {kind} '{owner}'",
                                atom.position)
                return None
            if kind == "enum" and len(atoms) > 1:
                self.diag.error(f"enum values cannot be combined with '|' (enum '{owner}'); use flags",
                                atom.position)
                return None
            result |= known[local]
        return result

    def _char(self, lit: ast.Literal) -> int | None:
        try:
            return char_value(lit.text)
        except LiteralError as e:
            self.diag.error(str(e), lit.position)
            return None

    # -------------------------------------------------------------- type numbers

    def _type_numbers(self, scope: _Scope) -> None:
        offset = 0
        f = scope.file
        if f.offset is not None and not is_hex(f.offset.text) and int_value(f.offset.text) >= 0:
            offset = int_value(f.offset.text)
        counter = 0
        fixed: dict[int, ast.StructDecl] = {}
        pending: list[ast.StructDecl] = []
        for s in f.structs:
            if scope.decls.get(s.name.text) is not s:
                continue
            q = f"{scope.name}.{s.name.text}"
            how = s.numbering[0] if s.numbering else None
            if how is None:
                counter += 1
                self.type_ids[q] = self._offset_type_id(s, counter, offset)
            elif how == "shift":
                assert s.numbering is not None and s.numbering[1] is not None
                counter = self._non_negative(s.numbering[1], "struct type number")
                self.type_ids[q] = self._offset_type_id(s, counter, offset)
            elif how == "fixed":
                assert s.numbering is not None and s.numbering[1] is not None
                n = self._non_negative(s.numbering[1], "struct type number")
                if n == 0 and s.base is not None:
                    pending.append(s)           # the original treats (0) : Base like (base)
                    continue
                other = fixed.get(n)
                if other is not None and not (s.message and other.message):   # two messages: an error later
                    self.diag.warning(f"type number {n} of '{s.name.text}' is also used by '{other.name.text}'",
                                      s.numbering[1].position)
                fixed[n] = s
                self.type_ids[q] = n
            else:
                pending.append(s)
        for s in pending:
            self._base_type_id(scope, s, [])

    def _offset_type_id(self, s: ast.StructDecl, number: int, offset: int) -> int:
        """The package offset plus the counted number; type ids are 32-bit in the format."""
        if number + offset > MAX_U32:
            where = s.numbering[1].position if s.numbering and s.numbering[1] else s.name.position
            self.diag.error(f"type number of '{s.name.text}' is {number + offset} (package offset {offset} + "
                            f"{number}), beyond the format's 32-bit type ids (at most {MAX_U32})", where)
            return 0
        return number + offset

    def _base_type_id(self, scope: _Scope, s: ast.StructDecl, chain: list[str]) -> int | None:
        q = f"{scope.name}.{s.name.text}"
        if q in self.type_ids:
            return self.type_ids[q]
        if s.base is None or q in chain:
            return None                         # reported elsewhere
        base_q, base = self._lookup_quiet(scope, s.base)
        if base_q is None:
            return None
        if base_q not in self.type_ids and isinstance(base, ast.StructDecl):
            self._base_type_id(self.scopes[base_q.rpartition(".")[0]], base, chain + [q])
        if base_q in self.type_ids:
            self.type_ids[q] = self.type_ids[base_q]
        return self.type_ids.get(q)

    def _lookup_quiet(self, scope: _Scope, name: ast.Name) -> tuple[str | None, Decl | None]:
        pkg, _, local = name.text.rpartition(".")
        target = scope if not pkg or pkg == scope.name else self.scopes.get(pkg)
        if target is None or (pkg and pkg != scope.name and pkg not in scope.imports):
            return None, None
        decl = target.decls.get(local)
        return (f"{target.name}.{local}", decl) if decl is not None else (None, None)

    # -------------------------------------------------------------- structs

    def _struct(self, scope: _Scope, d: ast.StructDecl) -> ir.Struct | None:
        q = f"{scope.name}.{d.name.text}"
        if q in self.structs:
            return self.structs[q]
        if q in self._failed or scope.decls.get(d.name.text) is not d:
            return None
        if q in self._in_progress:
            cycle = self._in_progress[self._in_progress.index(q):] + [q]
            self.diag.error("circular inheritance: " + " -> ".join(c.rpartition(".")[2] if c.startswith(
                scope.name + ".") else c for c in cycle), d.name.position)
            return None
        self._in_progress.append(q)
        try:
            built = self._build_struct(scope, d, q)
        finally:
            self._in_progress.pop()
        if built is None:
            self._failed.add(q)
        return built

    def _build_struct(self, scope: _Scope, d: ast.StructDecl, q: str) -> ir.Struct | None:
        base: ir.Struct | None = None
        if d.base is not None:
            base_q, base_decl = self._lookup(scope, d.base)
            if base_decl is not None and not isinstance(base_decl, ast.StructDecl):
                what = "an enum" if base_decl.kind == "enum" else "a flags type"
                self.diag.error(f"'{d.base.text}' is {what} and cannot be a base of '{d.name.text}'", d.base.position)
            elif base_q is not None and isinstance(base_decl, ast.StructDecl):
                base = self.structs.get(base_q) or self._struct(self.scopes[base_q.rpartition(".")[0]], base_decl)
                if base is None:
                    return None
        inherited = base.all_fields if base else ()
        position = base.body_size if base else 8
        base_size = position
        own: list[ir.Field] = []
        names: dict[str, Position] = {}
        refused_array = False
        inherited_names = {f.name for f in inherited}
        ids = 0
        for fd in d.fields:
            if fd.id:
                ids += 1
                if ids > 1:
                    self.diag.error(f"{self._kw(d)} '{d.name.text}' can have only one [id] field",
                                    fd.name.position)
                    continue
            if fd.name.text in names:
                self.diag.error(f"duplicate field name '{fd.name.text}' in {self._kw(d)} '{d.name.text}'",
                                fd.name.position)
                continue
            if fd.name.text in inherited_names:
                self.diag.error(f"field '{fd.name.text}' of '{d.name.text}' hides the inherited field of "
                                f"'{base.name if base else ''}'", fd.name.position)
                continue
            names[fd.name.text] = fd.name.position
            ftype = self._type(scope, fd.type)
            if ftype is None:
                continue
            if isinstance(ftype, ir.Array) and fd.type.array_size is not None:
                refused_array = self._check_array_bytes(d, fd, ftype) or refused_array
            if (fd.key or fd.id) and ftype.kind in ("vector", "list", "set", "map", "hash", "array"):
                self.diag.error(f"[key] is not allowed on collection field '{fd.name.text}'", fd.position)
            default = self._default(scope, ftype, fd)
            own.append(ir.Field(
                name=fd.name.text, owner=q, type=ftype, offset=position, key=fd.key or fd.id, id=fd.id,
                hidden=fd.attributes.hidden, deprecated=fd.attributes.deprecated, default=default))
            position += ftype.size
            if fd.type.container == "reset":
                reset_name = fd.name.text + "Reset"
                if reset_name in names:
                    self.diag.error(f"field '{reset_name}' clashes with the flag that '{fd.name.text}~' adds",
                                    fd.name.position)
                names[reset_name] = fd.name.position
                own.append(ir.Field(name=reset_name, owner=q, type=ir.Primitive("bool"), offset=position,
                                    reset_of=fd.name.text))
                position += 1
        all_fields = tuple(inherited) + tuple(own)
        request = self._request(scope, d)
        if q not in self.type_ids:
            self.type_ids[q] = self._base_type_id(scope, d, []) or 0
        final_size = self._final_size(q)
        if position > MAX_U32 and base_size <= MAX_U32:
            self.diag.error(f"{self._kw(d)} '{d.name.text}' has a body of {position} bytes, beyond the format's "
                            f"32-bit sizes (at most {MAX_U32})", d.name.position)
        elif final_size is not None and final_size > MAX_U32 and (base is None or (base.final_size or 0) <= MAX_U32):
            self.diag.error(f"{self._kw(d)} '{d.name.text}' takes {final_size} bytes in the final model, beyond the "
                            f"format's 32-bit sizes (at most {MAX_U32})", d.name.position)
        elif (final_size is not None and final_size > MAX_FRAME_SIZE and not refused_array
              and (base is None or (base.final_size or 0) <= MAX_FRAME_SIZE)):
            self.diag.error(f"{self._kw(d)} '{d.name.text}' takes {final_size} bytes in the final model, more than "
                            f"the largest frame ({MAX_FRAME_SIZE} bytes, 64 MiB): no value of it can ever be sent",
                            d.name.position)
        struct = ir.Struct(
            name=d.name.text, qualified=q, message=d.message, type_id=self.type_ids[q],
            base=base.qualified if base else None, body_size=position, base_size=base_size,
            final_size=final_size, fields=tuple(own), all_fields=all_fields,
            keys=tuple(f.name for f in all_fields if f.key),
            hidden=d.attributes.hidden, deprecated=d.attributes.deprecated, **request)
        self.structs[q] = struct
        return struct

    @staticmethod
    def _kw(d: ast.StructDecl) -> str:
        return "message" if d.message else "struct"

    def _request(self, scope: _Scope, d: ast.StructDecl) -> dict[str, Any]:
        if not d.request:
            return {}
        response = None
        if d.response is not None:
            rq, rdecl = self._lookup(scope, d.response)
            if rdecl is not None and not isinstance(rdecl, ast.StructDecl):
                self.diag.error(f"response '{d.response.text}' must be a message, not {rdecl.kind}",
                                d.response.position)
            elif rq is not None:
                self._responses.append((rq, d.response, d.name.text))
            response = rq
        rejects: list[ir.Reject] = []
        seen: set[str] = set()
        for r in d.rejects:
            rq, rdecl = self._lookup(scope, r.name)
            if rq is None:
                continue
            if rq in seen:
                self.diag.error(f"duplicate reject '{r.name.text}'", r.name.position)
                continue
            if not isinstance(rdecl, ast.StructDecl):
                self.diag.error(f"reject '{r.name.text}' must be a message, not {rdecl.kind if rdecl else '?'}",
                                r.name.position)
                continue
            seen.add(rq)
            rejects.append(ir.Reject(rq, r.global_))
        if (response or rejects) and not any(f.id or f.name.text == "id" for f in d.fields):
            self.diag.error(f"request '{d.name.text}' with a response or rejects needs a uuid field 'id' "
                            "(write: uuid [id] = uuid1;)", d.name.position)
        return {"request": True, "response": response, "rejects": tuple(rejects)}

    # -------------------------------------------------------------- field types

    def _element(self, scope: _Scope, name: ast.Name, optional: bool) -> ir.Type | None:
        t: ir.Type
        if name.text in BASE_TYPES:
            t = ir.Primitive(name.text)
        else:
            q, decl = self._lookup(scope, name)
            if q is None or decl is None:
                return None
            if isinstance(decl, ast.EnumDecl):
                e = self.enums.get(q)
                if e is None:
                    return None
                t = e.ref()
            else:
                t = ir.StructRef(q, self._final_size(q))
        return ir.Optional_(t) if optional else t

    def _type(self, scope: _Scope, te: ast.TypeExpr) -> ir.Type | None:
        element = self._element(scope, te.element, te.element_optional)
        if element is None:
            return None
        c = te.container
        if c is None or c == "reset":
            return element
        if c == "array":
            assert te.array_size is not None
            size = 0 if is_hex(te.array_size.text) else int_value(te.array_size.text)
            if is_hex(te.array_size.text):
                self.diag.error(f"array size must be a decimal integer (the original reads '{te.array_size.text}' "
                                "as 0)", te.array_size.position)
                return None
            if size <= 0:
                self.diag.error(f"array size must be greater than zero, found {size}", te.array_size.position)
                return None
            if size > MAX_U32:
                self.diag.error(f"array size {size} is beyond the format's 32-bit sizes (at most {MAX_U32})",
                                te.array_size.position)
                return None
            return ir.Array(element, size)
        if c in ("vector", "list", "set"):
            return ir.Sequence(c, element)
        assert te.key is not None
        key = self._element(scope, te.key, False)
        if key is None:
            return None
        return ir.Mapping(c, key, element)

    def _check_array_bytes(self, d: ast.StructDecl, fd: ast.FieldDecl, t: ir.Array) -> bool:
        """Refuses (True) a fixed array whose bytes exceed the largest frame, which can never be sent
        (MAX_FRAME_SIZE); each element counts its final size when fixed, else at least one byte."""
        element = t.element
        if isinstance(element, ir.StructRef):
            each = element.final_size or 1
        else:
            each = max(1, element.final_min_size)
        least = t.length * each
        if least > MAX_FRAME_SIZE and t.length <= MAX_U32:
            assert fd.type.array_size is not None
            self.diag.error(f"array field '{fd.name.text}' of {self._kw(d)} '{d.name.text}' takes at least {least} "
                            f"bytes, more than the largest frame ({MAX_FRAME_SIZE} bytes, 64 MiB): no value of it "
                            "can ever be sent", fd.type.array_size.position)
            return True
        return False

    def _final_size(self, qualified: str) -> int | None:
        """Fixed final-model size of a struct, or None when it depends on the value."""
        if qualified in self._final_sizes:
            return self._final_sizes[qualified]
        if qualified in self._final_stack:
            return None                          # recursion through a value field, reported below
        pkg, _, name = qualified.rpartition(".")
        scope = self.scopes.get(pkg)
        decl = scope.decls.get(name) if scope else None
        if scope is None or not isinstance(decl, ast.StructDecl):
            return None
        self._final_stack.append(qualified)
        try:
            total: int | None = 0
            if decl.base is not None:
                bq, bdecl = self._lookup_quiet(scope, decl.base)
                if bq is not None and isinstance(bdecl, ast.StructDecl):
                    b = self._final_size(bq)
                    total = None if b is None else total + b   # type: ignore[operator]
            for fd in decl.fields:
                size = self._final_field_size(scope, fd, qualified)
                if fd.type.container == "reset":
                    size = None
                if size is None or total is None:
                    total = None
                else:
                    total += size
            self._final_sizes[qualified] = total
            return total
        finally:
            self._final_stack.pop()

    def _final_field_size(self, scope: _Scope, fd: ast.FieldDecl, owner: str) -> int | None:
        te = fd.type
        if te.container not in (None, "array") or te.element_optional:
            return None
        name = te.element
        if name.text in BASE_TYPES:
            size = None if name.text in ir.VARIABLE_PRIMITIVES else ir.PRIMITIVE_SIZES[name.text]
        else:
            q, decl = self._lookup_quiet(scope, name)
            if q is None or decl is None:
                return None
            if isinstance(decl, ast.EnumDecl):
                base = decl.base.text if decl.base and decl.base.text in ir.ENUM_WIRE else "int32"
                size = ir.PRIMITIVE_SIZES[ir.ENUM_WIRE[base]]
            else:
                if q in self._final_stack:
                    self.diag.error(f"'{owner.rpartition('.')[2]}' contains itself through field '{fd.name.text}'; "
                                    "use a collection (T[]) for recursive data", fd.name.position)
                    return None
                size = self._final_size(q)
        if size is None:
            return None
        if te.container == "array" and te.array_size is not None and not is_hex(te.array_size.text):
            length = int_value(te.array_size.text)
            return size * length if 0 < length <= MAX_U32 else None    # a bad length is reported with the field
        return size

    # -------------------------------------------------------------- defaults

    def _default(self, scope: _Scope, t: ir.Type, fd: ast.FieldDecl) -> ir.Default:
        expr = fd.default
        if expr is None:
            return ir.NO_DEFAULT
        optional = isinstance(t, ir.Optional_)
        target = t.element if isinstance(t, ir.Optional_) else t
        first = expr.atoms[0]
        what = f"field '{fd.name.text}'"
        tname = self._type_text(t)

        def bad(found: str) -> ir.Default:
            self.diag.error(f"cannot use {found} as the default of {what} of type {tname}", first.position)
            return ir.NO_DEFAULT

        if len(expr.atoms) > 1:
            if isinstance(target, ir.EnumRef) and target.kind == "flags":
                return self._flags_default(scope, target, expr, what)
            return bad("a '|' combination")
        kind, text = first.kind, first.text
        if kind == "name" and text == "null":
            if optional:
                return ir.Default("null")
            self.diag.error(f"{what} of type {tname} cannot be null (only optional fields can)", first.position)
            return ir.NO_DEFAULT
        if not isinstance(target, (ir.Primitive, ir.EnumRef)):
            return bad(self._describe_atom(first))
        if isinstance(target, ir.EnumRef):
            if kind == "name" and text not in ("true", "false", "epoch", "utc", "uuid0", "uuid1", "uuid4"):
                if target.kind == "flags":
                    return self._flags_default(scope, target, expr, what)
                return self._enum_default(scope, target, first, what)
            return bad(self._describe_atom(first))
        p = target.name
        if kind == "name":
            if text in ("true", "false"):
                return ir.Default("bool", text == "true") if p == "bool" else bad(f"'{text}'")
            if text in ("min", "max"):
                if p not in INTEGER_TYPES:
                    self.diag.error(f"'{text}' is only defined for integer types, not {p} ({what})", first.position)
                    return ir.NO_DEFAULT
                lo, hi = ir.INTEGER_RANGES[p]
                return ir.Default("int", lo if text == "min" else hi)
            if text in ("epoch", "utc"):
                if p != "timestamp":
                    return bad(f"'{text}'")
                return ir.Default("timestamp", 0) if text == "epoch" else ir.Default("utc")
            if text in ("uuid0", "uuid1", "uuid4"):
                if p != "uuid":
                    return bad(f"'{text}'")
                return ir.Default("uuid", ir.NIL_UUID) if text == "uuid0" \
                    else ir.Default(text)
            return bad(f"'{text}'")
        if kind in ("int", "float") and p == "decimal":
            literal = real_text(kind, text)
            assert literal is not None
            problem = decimal_literal_problem(literal)
            if problem is not None:
                return bad(f"the number {text} ({problem}: no decimal holds it, docs/format.md 2.4)")
        if kind == "int":
            value = int_value(text)
            if p in REAL_TYPES:
                return ir.Default("real", text=real_text(kind, text))
            if p in ir.INTEGER_RANGES and p != "bool":
                return self._ranged(value, p, first, what)
            if p == "timestamp":
                return self._ranged(value, "uint64", first, what, "timestamp")
            return bad(f"the integer {text}")
        if kind == "float":
            return ir.Default("real", text=text) if p in REAL_TYPES else bad(f"the number {text}")
        if kind == "char":
            if p not in ir.INTEGER_RANGES or p == "bool":
                return bad(f"the char {text}")
            code = self._char(first)
            return ir.NO_DEFAULT if code is None else self._ranged(code, p, first, what)
        if kind == "string":
            try:
                value_s = string_value(text)
            except LiteralError as e:
                self.diag.error(str(e), first.position)
                return ir.NO_DEFAULT
            if p == "string":
                return ir.Default("string", value_s)
            if p == "uuid":
                if not UUID_TEXT.match(value_s):
                    self.diag.error(f"'{value_s}' is not a uuid (expected xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)",
                                    first.position)
                    return ir.NO_DEFAULT
                return ir.Default("uuid", value_s.lower())
            return bad("a string")
        return bad(text)

    @staticmethod
    def _describe_atom(atom: ast.Literal) -> str:
        return {"int": "the integer ", "float": "the number ", "char": "the char ",
                "string": "a string"}.get(atom.kind, "'") + ("" if atom.kind == "string" else atom.text) + \
            ("'" if atom.kind == "name" else "")

    def _ranged(self, value: int, p: str, atom: ast.Literal, what: str, shown: str | None = None) -> ir.Default:
        lo, hi = ir.INTEGER_RANGES[p]
        if not lo <= value <= hi:
            self.diag.error(f"default {value} of {what} is out of range for {shown or p} ({lo}..{hi})",
                            atom.position)
            return ir.NO_DEFAULT
        return ir.Default("timestamp" if shown == "timestamp" else "int", value)

    def _constant(self, scope: _Scope, target: ir.EnumRef, atom: ast.Literal, what: str) -> str | None:
        """Resolves `Type.value`, `pkg.Type.value` or a bare `value` of the field's enum/flags type."""
        text = atom.text
        type_part, _, value_name = text.rpartition(".")
        enum = self.enums.get(target.name)
        if enum is None:
            return None
        if type_part:
            q, _decl = self._lookup(scope, ast.Name(type_part, atom.position))
            if q is None:
                return None
            if q != target.name:
                self.diag.error(f"'{text}' is a value of {q}, but {what} has type {target.name}", atom.position)
                return None
        if not any(v.name == value_name for v in enum.values):
            self.diag.error(f"{enum.kind} '{enum.qualified}' has no value '{value_name}'", atom.position)
            return None
        return value_name

    def _enum_default(self, scope: _Scope, target: ir.EnumRef, atom: ast.Literal, what: str) -> ir.Default:
        name = self._constant(scope, target, atom, what)
        if name is None:
            return ir.NO_DEFAULT
        value = next(v.value for v in self.enums[target.name].values if v.name == name)
        return ir.Default("enum", value, type=target.name, names=(name,))

    def _flags_default(self, scope: _Scope, target: ir.EnumRef, expr: ast.ValueExpr, what: str) -> ir.Default:
        names: list[str] = []
        value = 0
        values = {v.name: v.value for v in self.enums[target.name].values} if target.name in self.enums else {}
        for atom in expr.atoms:
            if atom.kind != "name":
                self.diag.error(f"expected a value of flags '{target.name}', found {atom.text}", atom.position)
                return ir.NO_DEFAULT
            name = self._constant(scope, target, atom, what)
            if name is None:
                return ir.NO_DEFAULT
            names.append(name)
            value |= values[name]
        return ir.Default("flags", value, type=target.name, names=tuple(names))

    def _type_text(self, t: ir.Type) -> str:
        if isinstance(t, ir.Primitive):
            return t.name
        if isinstance(t, (ir.EnumRef, ir.StructRef)):
            return t.name
        if isinstance(t, ir.Optional_):
            return self._type_text(t.element) + "?"
        if isinstance(t, ir.Array):
            return f"{self._type_text(t.element)}[{t.length}]"
        if isinstance(t, ir.Sequence):
            return self._type_text(t.element) + {"vector": "[]", "list": "()", "set": "!"}[t.kind]
        assert isinstance(t, ir.Mapping)
        o, c = ("<", ">") if t.kind == "map" else ("{", "}")
        return f"{self._type_text(t.value)}{o}{self._type_text(t.key)}{c}"


def _struct_names(t: ir.Type) -> list[str]:
    if isinstance(t, ir.StructRef):
        return [t.name]
    if isinstance(t, (ir.Optional_, ir.Array, ir.Sequence)):
        return _struct_names(t.element)
    if isinstance(t, ir.Mapping):
        return _struct_names(t.key) + _struct_names(t.value)
    return []


def compile_schema(path: str, import_dirs: Sequence[str], diag: Diagnostics) -> ir.Schema:
    """Parses and resolves `path` and its imports; raises CompileError after reporting."""
    files = load_files(path, import_dirs, diag)
    diag.check()
    if not files:
        raise CompileError("nothing to compile")
    return Resolver(files, diag).resolve()


def compile_reported(path: str, import_dirs: Sequence[str]) -> ir.Schema | None:
    """compile_schema for a tool: None after printing the diagnostics to stderr when the schema has errors."""
    diag = Diagnostics()
    try:
        return compile_schema(path, import_dirs, diag)
    except CompileError:
        diag.print(sys.stderr)
        return None
