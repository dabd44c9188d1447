"""The facts every target needs that follow from the resolved types (docs/ir.md).

`complete(schema)` runs once, after resolution, and returns the schema with
them filled in: the final minimum size of every struct (and of every struct
reference), nesting heights, recursion, final-model offsets of fields, runs
of fixed fields, decode costs and each package's dispatch table. Targets
read these and never compute them again.
"""

from __future__ import annotations

from dataclasses import replace

from . import ir


class _Facts:
    def __init__(self, schema: ir.Schema) -> None:
        self.structs = {s.qualified: s for p in schema.packages for s in p.structs}
        self._min: dict[str, int] = {}
        self._default_cost: dict[str, int] = {}
        self._height: dict[str, int | None] = {}
        self._in_height: set[str] = set()
        self.recursive = self._recursive()

    # ------------------------------------------------------------ final minimum size

    def type_min(self, t: ir.Type) -> int:
        if isinstance(t, ir.StructRef):
            return self.struct_min(t.name)
        if isinstance(t, ir.Array):
            return t.length * self.type_min(t.element)
        return t.final_min_size      # primitives, enums, optionals (the flag), collections (the count)

    def struct_min(self, name: str) -> int:
        if name not in self._min:
            # A struct cannot hold itself by value or in an array (resolve.py rejects it): a cycle
            # goes through an optional or a collection, whose minimum does not look inside.
            self._min[name] = 0
            self._min[name] = sum(self.type_min(f.type) for f in self.structs[name].all_fields)
        return self._min[name]

    # ------------------------------------------------------------ decode costs (docs/limits.md 3)

    def decode_cost(self, name: str) -> int:
        if self.struct_min(name) == 0:
            return ir.ZERO_SIZE_COST         # no byte of the input pays for it (ir.ZERO_SIZE_COST)
        return max(1, sum(ir.decode_share(f.type) for f in self.structs[name].all_fields))

    def struct_default_cost(self, name: str) -> int:
        # finite: a struct cannot hold itself by value or in an array (resolve.py rejects it)
        if name not in self._default_cost:
            self._default_cost[name] = self.decode_cost(name) + sum(
                ir.default_cost(f.type, self.struct_default_cost) for f in self.structs[name].all_fields)
        return self._default_cost[name]

    # ------------------------------------------------------------ recursion and nesting

    def _recursive(self) -> set[str]:
        edges = {q: ([s.base] if s.base else []) + [r for f in s.fields for r in ir.struct_refs(f.type)]
                 for q, s in self.structs.items()}
        out: set[str] = set()
        for start, refs in edges.items():
            seen: set[str] = set()
            stack = list(refs)
            while stack:
                name = stack.pop()
                if name == start:
                    out.add(start)
                    break
                if name not in seen and name in edges:
                    seen.add(name)
                    stack.extend(edges[name])
        return out

    def struct_height(self, name: str) -> int | None:
        if name in self._in_height:
            return None                      # a cycle: as deep as the data goes
        if name not in self._height:
            self._in_height.add(name)
            heights = [ir.type_height(f.type, self.struct_height) for f in self.structs[name].all_fields]
            self._in_height.discard(name)
            self._height[name] = None if None in heights else max([h for h in heights if h is not None],
                                                                  default=0)
        return self._height[name]

    # ------------------------------------------------------------ the completed IR

    def with_min(self, t: ir.Type) -> ir.Type:
        """`t` with the final minimum size of every struct reference filled in."""
        if isinstance(t, ir.StructRef):
            return ir.StructRef(t.name, t.final_size, self.struct_min(t.name), self.struct_default_cost(t.name))
        if isinstance(t, ir.Optional_):
            return ir.Optional_(self.with_min(t.element))
        if isinstance(t, ir.Array):
            return ir.Array(self.with_min(t.element), t.length)
        if isinstance(t, ir.Sequence):
            return ir.Sequence(t.kind, self.with_min(t.element))
        if isinstance(t, ir.Mapping):
            return ir.Mapping(t.kind, self.with_min(t.key), self.with_min(t.value))
        return t

    def struct(self, s: ir.Struct, done: dict[str, ir.Struct]) -> ir.Struct:
        if s.qualified in done:
            return done[s.qualified]
        inherited = self.struct(self.structs[s.base], done).all_fields if s.base else ()
        at: int | None = 0                   # final offset of the next field, while known
        if inherited:
            last = inherited[-1]
            at = None if last.final_offset is None or last.type.final_size is None \
                else last.final_offset + last.type.final_size
        own: list[ir.Field] = []
        for f in s.fields:
            own.append(replace(f, type=self.with_min(f.type), final_offset=at))
            size = f.type.final_size
            at = None if at is None or size is None else at + size
        all_fields = tuple(inherited) + tuple(own)
        done[s.qualified] = replace(
            s, fields=tuple(own), all_fields=all_fields, final_min_size=self.struct_min(s.qualified),
            height=self.struct_height(s.qualified), recursive=s.qualified in self.recursive,
            runs=_runs(all_fields), decode_cost=self.decode_cost(s.qualified),
            default_cost=self.struct_default_cost(s.qualified))
        return done[s.qualified]


def _runs(fields: tuple[ir.Field, ...]) -> tuple[ir.FixedRun, ...]:
    runs: list[ir.FixedRun] = []
    members: list[ir.Field] = []
    for f in (*fields, None):
        if f is not None and ir.is_fixed(f.type):
            members.append(f)
            continue
        if members:
            size = sum(m.type.size for m in members)
            runs.append(ir.FixedRun(tuple(m.name for m in members), members[0].offset,
                                    members[0].final_offset, size))
            members = []
    return tuple(runs)


def _dispatch(schema: ir.Schema, package: ir.Package) -> tuple[ir.Dispatch, ...]:
    out: list[ir.Dispatch] = []
    taken: set[int] = set()
    visited: set[str] = set()

    def visit(p: ir.Package) -> None:
        if p.name in visited:
            return
        visited.add(p.name)
        by_name = {s.qualified: s for s in p.structs}
        for q in p.protocol:
            s = by_name[q]
            if s.type_id not in taken:
                taken.add(s.type_id)
                out.append(ir.Dispatch(s.type_id, q))
        for name in p.imports:
            visit(schema.package(name))

    visit(package)
    return tuple(out)


def complete(schema: ir.Schema) -> ir.Schema:
    """The schema with every derived fact filled in (see the module docstring)."""
    facts = _Facts(schema)
    done: dict[str, ir.Struct] = {}
    packages = tuple(
        replace(p, structs=tuple(facts.struct(s, done) for s in p.structs), dispatch=_dispatch(schema, p))
        for p in schema.packages)
    return replace(schema, packages=packages)
