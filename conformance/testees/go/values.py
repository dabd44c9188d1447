"""values.go of the Go conformance testee: per struct of the conformance schemas, reading it from a
value description (vectors/README.md, "Value descriptions") and writing it as one, driven by the
IR. Scalars go through the helpers of describe.go; only the field code is generated here, as the
C++ testee's gen_values.py does."""

from __future__ import annotations

from fbec.model import ir
from fbec.targets.base import CodeWriter, Locals, Options
from fbec.targets.go.context import Context, compare, write_imports
from fbec.targets.go.names import package_name

SIGNED = frozenset({"int8", "int16", "int32", "int64"})


class TesteeContext(Context):
    """Go names of IR types as the testee (package main) spells them: every schema type qualified."""

    def qualify(self, qualified: str, ident: str) -> str:
        pkg = qualified.rpartition(".")[0]
        return self.file.qualified(f"fbegen/{pkg}", ident, package_name(pkg))


def function(prefix: str, qualified: str) -> str:
    return prefix + qualified.replace(".", "_")


def read(w: CodeWriter, c: Context, t: ir.Type, src: str, dst: str, names: Locals) -> None:
    """dst = the value of type t described by src (an any from encoding/json with UseNumber)."""
    if isinstance(t, ir.Primitive):
        n = t.name
        simple = {"bool": "vBool", "float": "vFloat32", "double": "vFloat64", "decimal": "vDecimal",
                  "string": "vString", "bytes": "vBytes", "uuid": "vUUID"}
        if n in simple:
            w.line(f"{dst} = {simple[n]}({src})")
            return
        lo, hi = ir.PRIMITIVES[n].range or (0, 0)
        go = c.type(t)
        call = f"vInt({src}, {lo}, {hi})" if n in SIGNED else f"vUint({src}, {hi})"
        w.line(f"{dst} = {call}" if go in ("int64", "uint64") else f"{dst} = {go}({call})")
    elif isinstance(t, ir.EnumRef):
        lo, hi = ir.PRIMITIVES[t.wire].range or (0, 0)
        call = f"vInt({src}, {lo}, {hi})" if t.wire in SIGNED else f"vUint({src}, {hi})"
        w.line(f"{dst} = {c.type(t)}({call})")
    elif isinstance(t, ir.StructRef):
        w.line(f"{function('fromValue_', t.name)}({src}, &{dst})")
    elif isinstance(t, ir.Optional_):
        with w.block(f"if {src} == nil {{", "} else {"):
            w.line(f"{dst} = nil")
        with w.block("", "}"):
            w.line(f"{dst} = new({c.type(t.element)})")
            if isinstance(t.element, ir.StructRef):
                w.line(f"{function('fromValue_', t.element.name)}({src}, {dst})")
            else:
                read(w, c, t.element, src, f"*{dst}", names)
    elif isinstance(t, ir.Array):
        items, i = names("l"), names("i")
        w.line(f"{items} := vList({src}, {t.length})")
        with w.block(f"for {i} := range {dst} {{", "}"):
            w.line(f"vIndex({i})")
            read(w, c, t.element, f"{items}[{i}]", f"{dst}[{i}]", names)
            w.line("vLeave()")
    elif isinstance(t, ir.Sequence):
        items, i = names("l"), names("i")
        w.line(f"{items} := vList({src}, -1)")
        w.line(f"{dst} = make({c.type(t)}, len({items}))")
        with w.block(f"for {i} := range {items} {{", "}"):
            w.line(f"vIndex({i})")
            read(w, c, t.element, f"{items}[{i}]", f"{dst}[{i}]", names)
            w.line("vLeave()")
    else:
        pairs, i = names("p"), names("i")
        w.line(f"{pairs} := vList({src}, -1)")
        if c.comparable(t.key):
            w.line(f"{dst} = make({c.type(t)}, len({pairs}))")
            with w.block(f"for {i} := range {pairs} {{", "}"):
                kv, k, x = names("kv"), names("k"), names("x")
                w.line(f"{kv} := vList({pairs}[{i}], 2)")
                w.line(f"var {k} {c.type(t.key)}")
                w.line(f"var {x} {c.type(t.value)}")
                w.line(f"vIndex({i})")
                entry(w, c, t, f"{kv}[0]", k, f"{kv}[1]", x, names)
                w.line("vLeave()")
                w.line(f"{dst}[{k}] = {x}")
        else:
            w.line(f"{dst} = make({c.type(t)}, len({pairs}))")
            with w.block(f"for {i} := range {pairs} {{", "}"):
                kv = names("kv")
                w.line(f"{kv} := vList({pairs}[{i}], 2)")
                w.line(f"vIndex({i})")
                entry(w, c, t, f"{kv}[0]", f"{dst}[{i}].Key", f"{kv}[1]", f"{dst}[{i}].Value", names)
                w.line("vLeave()")


def entry(w: CodeWriter, c: Context, t: ir.Mapping, key_src: str, key: str, value_src: str, value: str,
          names: Locals) -> None:
    """A map entry's key and value read, each named in the path (".key", ".value") while it is."""
    for step, part, src, dst in ((".key", t.key, key_src, key), (".value", t.value, value_src, value)):
        w.line(f'vEnter("{step}")')
        read(w, c, part, src, dst, names)
        w.line("vLeave()")


def write(w: CodeWriter, c: Context, t: ir.Type, x: str, names: Locals) -> None:
    """Describe x (type t) into the describer d."""
    if isinstance(t, ir.Primitive):
        n = t.name
        simple = {"bool": "Bool", "float": "Float32", "double": "Float64", "decimal": "Decimal",
                  "string": "String", "bytes": "Bytes", "uuid": "UUID"}
        if n in simple:
            w.line(f"d.{simple[n]}({x})")
        elif n in ("int64", "uint64", "timestamp"):
            # 64-bit integers are strings (vectors/README.md)
            w.line(f"d.Int64({x})" if n == "int64" else f"d.Uint64(uint64({x}))")
        elif n in SIGNED:
            w.line(f"d.Int(int64({x}))")
        else:
            w.line(f"d.Uint(uint64({x}))")
    elif isinstance(t, ir.EnumRef):
        if t.wire in ("int64", "uint64"):
            w.line(f"d.Int64(int64({x}))" if t.wire == "int64" else f"d.Uint64(uint64({x}))")
        else:
            w.line(f"d.Int(int64({x}))" if t.wire in SIGNED else f"d.Uint(uint64({x}))")
    elif isinstance(t, ir.StructRef):
        w.line(f"{function('toValue_', t.name)}(d, &{x})")
    elif isinstance(t, ir.Optional_):
        with w.block(f"if {x} == nil {{", "} else {"):
            w.line("d.Null()")
        with w.block("", "}"):
            if isinstance(t.element, ir.StructRef):
                w.line(f"{function('toValue_', t.element.name)}(d, {x})")
            else:
                write(w, c, t.element, f"*{x}", names)
    elif isinstance(t, (ir.Array, ir.Sequence)):
        i = names("i")
        w.line("d.Open('[')")
        with w.block(f"for {i} := range {x} {{", "}"):
            w.line(f"d.Comma({i})")
            write(w, c, t.element, f"{x}[{i}]", names)
        w.line("d.Close(']')")
    else:
        i = names("i")
        w.line("d.Open('[')")
        if c.comparable(t.key):
            k, v = names("k"), names("x")
            loop = f"for {i}, {k} := range fbe.SortedKeys({x}, {compare(c, t.key)}) {{"
            with w.block(loop, "}"):
                w.line(f"d.Comma({i})")
                w.line(f"{v} := {x}[{k}]")
                w.line("d.Open('[')")
                write(w, c, t.key, k, names)
                w.line("d.Comma(1)")
                write(w, c, t.value, v, names)
                w.line("d.Close(']')")
        else:
            with w.block(f"for {i} := range {x} {{", "}"):
                w.line(f"d.Comma({i})")
                w.line("d.Open('[')")
                write(w, c, t.key, f"{x}[{i}].Key", names)
                w.line("d.Comma(1)")
                write(w, c, t.value, f"{x}[{i}].Value", names)
                w.line("d.Close(']')")
        w.line("d.Close(']')")


def struct_functions(w: CodeWriter, c: Context, s: ir.Struct) -> None:
    go = c.named(s.qualified)
    names = Locals()
    with w.block(f"func {function('fromValue_', s.qualified)}(src any, v *{go}) {{", "}"):
        w.line(f'm := vObject(src, "{s.qualified}")')
        if not s.all_fields:
            w.line("_, _ = m, v")
        for f in s.all_fields:
            w.line(f'vEnter(".{f.name}")')
            read(w, c, f.type, f'm["{f.name}"]', f"v.{c.ident.field(f)}", names)
            w.line("vLeave()")
    w.blank()
    with w.block(f"func {function('toValue_', s.qualified)}(d *describer, v *{go}) {{", "}"):
        w.line(f'd.Begin("{s.qualified}")')
        for f in s.all_fields:
            w.line(f'd.Key("{f.name}")')
            write(w, c, f.type, f"v.{c.ident.field(f)}", names)
        w.line("d.Close('}')")
    w.blank()


def values_file(schemas: list[ir.Schema]) -> str:
    """values.go: the functions of every struct of the schemas' packages and the registry's entries."""
    body = CodeWriter(Options(tabs=True))
    modules: dict[str, str] = {}
    entries: dict[str, str] = {}
    for schema in schemas:
        for package in schema.packages:             # imported packages too: their structs are fields
            c = TesteeContext(schema, package)
            c.file.qualified("github.com/fbe-toolkit/fbe/runtime/go/fbe", "Pair", "fbe")
            for s in package.structs:
                if s.qualified in entries:
                    continue
                struct_functions(body, c, s)
                go = c.named(s.qualified)
                verify_fbe = c.qualify(s.qualified, c.ident.function("VerifyFBE", s.qualified))
                verify_final = c.qualify(s.qualified, c.ident.function("VerifyFinal", s.qualified))
                entries[s.qualified] = (
                    f"{{func() value {{ return new({go}) }}, "
                    f"func(src any, v value) {{ {function('fromValue_', s.qualified)}(src, v.(*{go})) }}, "
                    f"func(d *describer, v value) {{ {function('toValue_', s.qualified)}(d, v.(*{go})) }}, "
                    f"{verify_fbe}, {verify_final}}}")
            modules.update(c.file.modules)
    out = CodeWriter(Options(tabs=True))
    out.line("// Generated by conformance/testees/go/build.py (values.py). Do not edit.")
    out.blank()
    out.line("package main")
    out.blank()
    write_imports(out, modules)
    with out.block("var registry = map[string]entry{", "}"):
        for q, e in sorted(entries.items()):
            out.line(f'"{q}": {e},')
    out.blank()
    out.lines(body.text())
    return out.text()
