"""The shared target toolkit (fbec.targets.base): the code writer every target builds files with."""

from __future__ import annotations

from pathlib import Path

import pytest
from fbec.targets.base import CodeWriter, Options


def test_blocks_pair_indentation_and_labels_sit_one_level_out() -> None:
    w = CodeWriter()
    w.line("class Sender")
    with w.block("{", "};"):
        w.label("public:")
        w.line("void send()")
        with w.block("{", "}"):
            w.line("switch (type)")
            with w.block("{", "}"):
                w.label("case 1:")
                w.line("return;")
        w.blank()
        w.label("private:")
        w.line("int x;")
    assert w.text() == (
        "class Sender\n{\npublic:\n    void send()\n    {\n        switch (type)\n        {\n"
        "        case 1:\n            return;\n        }\n    }\n\nprivate:\n    int x;\n};\n")


def test_indented_continuation_and_the_indent_options() -> None:
    for options, unit in ((Options(), "    "), (Options(indent=2), "  "), (Options(tabs=True), "\t")):
        w = CodeWriter(options)
        w.line("return a")
        with w.indented():
            w.line("+ b;")
        assert w.text() == f"return a\n{unit}+ b;\n"
        assert w.unit == unit


def test_a_block_closes_when_its_body_raises() -> None:
    w = CodeWriter()
    with pytest.raises(KeyError), w.block("{", "}"):
        raise KeyError("x")
    w.line("after")
    assert w.text() == "{\n}\nafter\n"


def test_blank_lines_never_double_and_never_end_the_file() -> None:
    w = CodeWriter()
    w.blank()
    w.line("a")
    w.blank()
    w.blank()
    w.line("b")
    w.blank()
    assert w.text() == "a\n\nb\n"


def test_empty_line_has_no_indentation() -> None:
    w = CodeWriter()
    with w.block("{", "}"):
        w.line("")
        w.line("x")
    assert w.text() == "{\n\n    x\n}\n"


def test_reserved_names_escape_with_a_suffix_and_combine() -> None:
    from fbec.targets.base import ReservedNames
    names = ReservedNames({"new", "class"}, ["std"])
    assert [names(n) for n in ("new", "class", "std", "news", "New")] == ["new_", "class_", "std_", "news", "New"]
    members = names | {"swap"}
    assert members("swap") == "swap_" and names("swap") == "swap" and members("new") == "new_"
    assert "std" in members and "x" not in members
    assert ReservedNames({"type"}, suffix="__")("type") == "type__"


def test_scope_idents_rename_only_what_clashes() -> None:
    """A name keeps its identifier unless it is taken or an earlier name took it; a renamed one gets
    underscores until it is free, never the identifier of a name that did not clash (whatever the order)."""
    from fbec.targets.base import scope_idents
    taken = {"class", "new_"}.__contains__
    wanted = [("class", "class"), ("x", "X"), ("class_", "class_"), ("X", "X"), ("new", "new_")]
    assert scope_idents(wanted, taken) == {"class": "class__", "x": "X", "class_": "class_", "X": "X_",
                                           "new": "new__"}
    assert scope_idents(reversed(wanted), taken) == {"class": "class__", "x": "X_", "class_": "class_", "X": "X",
                                                     "new": "new__"}
    assert scope_idents([(1, "__a")], lambda x: x.startswith("__"), lambda x: "m" + x) == {1: "m__a"}


def test_each_target_escapes_its_own_reserved_words(tmp_path: Path) -> None:
    from fbec.model.resolve import compile_schema
    from fbec.syntax.diagnostics import Diagnostics
    from fbec.targets.cpp.names import escape
    from fbec.targets.python.names import Idents
    assert (escape("new"), escape("EOF"), escape("size_t"), escape("swap"), escape("__FILE__")) == \
        ("new_", "EOF_", "size_t_", "swap", "__FILE___")
    (tmp_path / "p.fbe").write_text("package p\nenum E { value; _x; __y; None; A; }\n"
                                    "struct Decimal { int32 class; int32 new; E E; int32 p; }\n")
    names = Idents(compile_schema(str(tmp_path / "p.fbe"), [], Diagnostics()))
    fields = {f.name: names.field(f) for f in names.schema.struct("p.Decimal").fields}
    assert (names.type("p.Decimal"), names.type("p.E"), fields) == \
        ("Decimal_", "E", {"class": "class_", "new": "new", "E": "E_", "p": "p"})
    values = ("value", "_x", "__y", "None", "A")
    assert [names.value("p.E", v) for v in values] == ["value_", "_x", "m__y", "None_", "A"]


def test_a_generated_file_records_its_imports_by_use_and_keeps_names_apart() -> None:
    from fbec.targets.base import GeneratedFile
    f = GeneratedFile("p/p.go", taken=lambda name: name in {"Sender"})
    assert f.modules == {} and f.names == {}
    assert f.qualified("struct", "unpack_from") == "struct.unpack_from"
    assert f.imported("typing", "Any") == "Any" and f.imported("typing", "ClassVar") == "ClassVar"
    assert f.qualified("github.com/x/fbe", "Reader", "fbe") == "fbe.Reader"
    assert f.qualified("struct", "pack_into") == "struct.pack_into"
    # a qualifier the file's own code declares, or another module's, is renamed; the first use decides
    assert f.declare("binary") == "binary"
    assert f.qualified("encoding/binary", "LittleEndian") == "binary_.LittleEndian"
    assert f.qualified("other/fbe", "X") == "fbe_.X"
    assert f.modules == {"struct": "struct", "github.com/x/fbe": "fbe", "encoding/binary": "binary_",
                         "other/fbe": "fbe_"}
    assert f.names == {"typing": {"Any", "ClassVar"}}
    assert [f.declare(n) for n in ("Sender", "Client", "Sender", "Sender_", "fbe")] == \
        ["Sender_", "Client", "Sender_", "Sender__", "fbe__"]
    assert f.text == "" and GeneratedFile("a", "x\n") == GeneratedFile("a", "x\n") != GeneratedFile("a", "y\n")


def test_locals_are_fresh() -> None:
    from fbec.targets.base import Locals
    names = Locals()
    assert [names("i"), names("e"), names("i")] == ["i1", "e2", "i3"]


def test_a_default_literal_is_one_dispatch_on_its_kind() -> None:
    """base.DefaultLiterals: the target spells each kind; a language whose scalars have a zero value
    of their own gets None for a default that is that zero, one that spells the zero gets it spelled,
    and so does every language for an optional's value (`present`); a decimal written 0.0 keeps its
    scale, so it is always spelled."""
    from fbec.model import ir
    from fbec.targets.base import DefaultLiterals

    class Spelling(DefaultLiterals):
        def made_default(self, kind: str) -> str:
            return f"{kind}()"

        def int_default(self, t: ir.Type, value: int) -> str:
            return f"int {value}"

        def real_default(self, t: ir.Type, text: str) -> str:
            return f"real {text}"

        def string_default(self, text: str) -> str:
            return repr(text)

        def uuid_default(self, uuid: str) -> str:
            return f"uuid {uuid[:4]}"

        def enum_value(self, enum: str, name: str) -> str:
            return f"{enum}.{name}"

        def flags_default(self, flags: str, value: int) -> str:
            return f"{flags}({value})"

    class SpellsZero(Spelling):
        SPELLS_ZERO = True

    int32, decimal = ir.Primitive("int32"), ir.Primitive("decimal")
    cases = [  # (type, default, a zero-valued language's literal, a zero-spelling language's)
        (int32, ir.NO_DEFAULT, None, None),
        (int32, ir.Default("null"), None, None),
        (int32, ir.Default("int", 0), None, "int 0"),
        (int32, ir.Default("int", -5), "int -5", "int -5"),
        (ir.Primitive("bool"), ir.Default("bool", False), None, "false"),
        (ir.Primitive("bool"), ir.Default("bool", True), "true", "true"),
        (ir.Primitive("double"), ir.Default("real", text="-0.0"), None, "real -0.0"),
        (decimal, ir.Default("real", text="0.0"), "real 0.0", "real 0.0"),
        (decimal, ir.Default("int", 0), None, "int 0"),
        (ir.Primitive("string"), ir.Default("string", ""), None, "''"),
        (ir.Primitive("timestamp"), ir.Default("utc"), "utc()", "utc()"),
        (ir.Primitive("uuid"), ir.Default("uuid", ir.NIL_UUID), None, "uuid 0000"),
        (ir.Primitive("uuid"), ir.Default("uuid4"), "uuid4()", "uuid4()"),
        (int32, ir.Default("enum", 0, type="p.E", names=("a",)), None, "p.E.a"),
        (int32, ir.Default("flags", 3, type="p.F", names=("a", "b")), "p.F.a | p.F.b", "p.F.a | p.F.b"),
        (int32, ir.Default("flags", 8, type="p.F"), "p.F(8)", "p.F(8)"),
    ]
    for t, d, zero_valued, zero_spelled in cases:
        assert (Spelling().scalar_default(t, d), SpellsZero().scalar_default(t, d)) == (zero_valued, zero_spelled), d
        # an optional's explicit default is present (docs/format.md 3.6): spelled in every language, zero or not
        assert Spelling().scalar_default(t, d, present=True) == zero_spelled, d


def test_import_closure_is_depth_first_in_import_order_each_once(tmp_path) -> None:
    from fbec.model.resolve import compile_schema
    from fbec.syntax.diagnostics import Diagnostics
    from fbec.targets.base import import_closure
    for name, text in {"d": "package d\n", "b": "package b\nimport d\n", "c": "package c\nimport d\n",
                       "a": "package a\nimport c\nimport b\n"}.items():
        (tmp_path / f"{name}.fbe").write_text(text)
    schema = compile_schema(str(tmp_path / "a.fbe"), [], Diagnostics())
    assert [p.name for p in import_closure(schema, schema.main_package)] == ["a", "c", "d", "b"]
    assert [p.name for p in import_closure(schema, schema.package("b"))] == ["b", "d"]


def test_targets_dispatch_on_ir_dataclasses_not_kind_strings() -> None:
    """One idiom over IR types in every target: isinstance on the dataclasses (mypy then checks each
    attribute); `kind` only tells apart the variants of one dataclass (vector/list/set, map/hash,
    enum/flags)."""
    import re
    from pathlib import Path

    import fbec.targets
    root = Path(fbec.targets.__file__).parent
    dataclass_kind = re.compile(r"""\.kind\s*(==|!=|in)\s*\(?[^)\n]*["'](primitive|struct|optional|array)["']""")
    found = [f"{p.relative_to(root)}:{n}: {line.strip()}" for p in sorted(root.rglob("*.py"))
             for n, line in enumerate(p.read_text().splitlines(), 1) if dataclass_kind.search(line)]
    assert not found, "\n".join(found)
    # the pattern finds what it is meant to find
    assert dataclass_kind.search('if t.kind == "primitive":') and dataclass_kind.search('t.kind in ("enum", "struct")')


def test_blank_tops_up_to_the_lines_asked_for() -> None:
    w = CodeWriter()
    w.blank(2)
    w.line("def f():")
    w.blank(2)
    w.blank()
    w.line("x = 1")
    w.blank()
    w.blank(2)
    w.line("y = 2")
    assert w.text() == "def f():\n\n\nx = 1\n\n\ny = 2\n"


def test_every_indent_follows_the_indent_unit(tmp_path) -> None:
    """With -t every generated line is indented with tabs only: indentation comes from
    CodeWriter blocks, never from spaces written into the text."""
    import re
    from pathlib import Path

    from fbec.cli import main
    repo = Path(__file__).resolve().parents[2]
    for schema in ("schemas/tests/everything.fbe", "schemas/cpp-tests/recursive.fbe"):
        for target in ("--cpp", "--python"):
            assert main(["-q", target, "--final", "--json", "--proto", "-t", f"--input={repo / schema}",
                         f"--output={tmp_path}"]) == 0
    files = sorted(tmp_path.iterdir())
    assert len(files) >= 12
    spaced = re.compile(r"^\t* +\S")
    found = [f"{p.name}:{n}: {line!r}" for p in files
             for n, line in enumerate(p.read_text().splitlines(), 1) if spaced.match(line)]
    assert not found, "\n".join(found[:20])


def test_the_generator_sketch_of_docs_targets_md_works(tmp_path) -> None:
    """docs/targets.md's sketch of a Go target runs on the project's schemas (tests/go checks that
    gofmt leaves its output as it is)."""
    import re
    from pathlib import Path

    from fbec.model.resolve import compile_schema
    from fbec.syntax.diagnostics import Diagnostics
    repo = Path(__file__).resolve().parents[2]
    doc = (repo / "docs" / "targets.md").read_text()
    sketch = next(block for block in re.findall(r"```python\n(.*?)```", doc, re.DOTALL) if "def go_type(" in block)
    target: dict[str, object] = {}
    exec(compile(sketch, "docs/targets.md", "exec"), target)  # noqa: S102 (our own documentation's code)
    generate = target["generate"]
    for schema in ("schemas/trade.fbe", "schemas/tests/everything.fbe"):
        ir_schema = compile_schema(str(repo / schema), [], Diagnostics())
        (file,) = generate(ir_schema, Options())  # type: ignore[operator]
        text = file.text
        assert text.startswith("// Automatically generated by fbec") and f"\npackage {ir_schema.main}\n" in text
        (tmp_path / file.path.replace("/", "_")).write_text(text)
    assert "type Order struct {\n\tId " in (tmp_path / "proto_proto.go").read_text()
    assert 'import (\n\t"fmt"\n)' in (tmp_path / "proto_proto.go").read_text()


# ---------------------------------------------------------------- targets print the plan (issue 22)

# IR and plan attributes that are sizes, offsets, costs or levels: a target prints them as they are
FACTS = frozenset({
    "size", "final_size", "final_min_size", "offset", "final_offset", "body_size", "base_size", "length",
    "height", "levels", "decode_cost", "default_cost", "item_size", "item_min_size", "item_cost", "end",
    "missing_cost", "older_cost", "min_from", "min_after", "final_fixed_size", "at",
})
COMPUTING_CALLS = frozenset({"default_cost", "decode_share", "element_cost", "type_height", "runs_of", "height"})
# What a target may still write as arithmetic on a fact, and why
ALLOWED = {
    ("go/models.py", "run.size - 1"): "the index of a run's last byte: Go's one bounds check for the run",
    ("ruby/__init__.py", "line.end - line.offset"):
        "the length of adjacent slots the plan placed (its offset and end), patched by one String#[]=",
    ("ruby/__init__.py", "fp.min_from - stop.min_from"):
        "where a final float is in the Array#pack that wrote it, from the buffer's end: the plan's fewest "
        "bytes from it on, less those from the field the pack stopped before",
}


def _is_fact(node: object) -> bool:
    import ast
    return isinstance(node, ast.Attribute) and node.attr in FACTS


def _fact_or_number(node: object) -> bool:
    import ast
    return _is_fact(node) or isinstance(node, ast.Constant) and isinstance(node.value, int) \
        or isinstance(node, ast.BinOp) and _fact_or_number(node.left) and _fact_or_number(node.right)


def computations(source: str) -> list[tuple[int, str, str]]:
    """Where Python source computes what the plan decides: arithmetic that combines sizes, offsets,
    costs or levels (with each other or with a number), sums of them, the IR's cost rules and
    height called directly, tests of a struct's height, the IR's runs (the plan groups them),
    ("string", "bytes") spelled out instead of ir.is_text/is_scalar, and the struct-reference walk
    (a function returning [x.name] for a struct reference) instead of ir.struct_refs."""
    import ast
    found: list[tuple[int, str, str]] = []
    for node in ast.walk(ast.parse(source)):
        what = ""
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult)) \
                and (_is_fact(node.left) or _is_fact(node.right)) \
                and _fact_or_number(node.left) and _fact_or_number(node.right):
            what = "arithmetic on sizes, offsets, costs or levels"
        elif (isinstance(node, ast.AugAssign) and _fact_or_number(node.value)
              and not isinstance(node.value, ast.Constant)):
            what = "a running sum of sizes or offsets"
        elif isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name in COMPUTING_CALLS:
                what = f"{name}() called: the plan's or the type's figure"
            elif name == "sum" and any(_is_fact(n) for arg in node.args for n in ast.walk(arg)):
                what = "a sum of sizes, offsets or costs"
        elif isinstance(node, ast.Compare) and any(isinstance(n, ast.Attribute) and n.attr == "height"
                                                   for n in [node.left, *node.comparators]):
            what = "a test of a struct's height: the plan's bounded/nests"
        elif (isinstance(node, ast.Attribute) and node.attr == "runs"
              or isinstance(node, ast.Name) and node.id == "FixedRun"):
            what = "the IR's runs: the plan's final steps"
        elif isinstance(node, (ast.Tuple, ast.List, ast.Set)) and len(node.elts) == 2 \
                and {getattr(e, "value", None) for e in node.elts} == {"string", "bytes"}:
            what = '("string", "bytes"): ir.is_text / ir.is_scalar'
        elif isinstance(node, ast.Return) and isinstance(node.value, ast.List) and len(node.value.elts) == 1 \
                and isinstance(node.value.elts[0], ast.Attribute) and node.value.elts[0].attr == "name":
            what = "a struct-reference walk: ir.struct_refs"
        if what:
            found.append((getattr(node, "lineno", 0), what, ast.get_source_segment(source, node) or ""))
    return found


def test_targets_print_the_plan_and_compute_nothing() -> None:
    """No target computes a size, an offset, a cost, a run or a walk: the model decides them once
    (fbec.model.ir's type facts, fbec.model.plan) and a target prints them (issue 22 item 1)."""
    from pathlib import Path

    import fbec.targets
    root = Path(fbec.targets.__file__).parent
    found = [f"{p.relative_to(root)}:{line}: {what}: {code}" for p in sorted(root.rglob("*.py"))
             for line, what, code in computations(p.read_text())
             if (p.relative_to(root).as_posix(), code) not in ALLOWED]
    assert not found, "\n".join(found)


def test_the_plan_guard_finds_what_it_forbids() -> None:
    """Each copy issue 22 counted is found (the guard above can fail)."""
    copies = {
        "rest = sum(ir.default_cost(g.type) for g in own[k:])": "default_cost",
        "end = f.offset + f.type.size": "arithmetic",
        "item = t.key.size + t.value.size": "arithmetic",
        "at = f.offset - run.offset": "arithmetic",
        "levels = s.height + 1": "arithmetic",
        "cost = ir.element_cost(t.key) + ir.element_cost(t.value)": "element_cost",
        "bounded = s.height is not None and not s.recursive": "height",
        "ok = t.name in ('string', 'bytes')": "string",
        "starts = {r.fields[0]: r for r in s.runs}": "runs",
        "groups = runs_of(s.fields, is_scalar)": "runs_of",
        "at += scalar_size(f.type)": "",                        # (a call: not a fact as such)
        "pos += f.type.size": "running sum",
        "def refs(t):\n    if isinstance(t, ir.StructRef):\n        return [t.name]\n    return []": "walk",
        "fixed = sum(f.type.final_size for f in s.fields if f.type.final_size is not None)": "sum",
        "levels = schema.height(t)": "height",
    }
    for source, expected in copies.items():
        found = computations(source)
        assert (expected in " ".join(w for _, w, _ in found)) if expected else True, (source, found)
    # printing a fact, or runtime arithmetic in the generated text, is no computation
    for source in ('w.line(f"if (n < {f.end}) {{")', 'x = f"{e}+{i}*{t.element.size}"',
                   'w.line(f"r.spend({plan.older_cost}, b)")', "n = t.length * k", "tv = name + f.name"):
        assert not computations(source), source


# Targets whose modules import each other at the top only (docs/targets.md "One style"); Java and
# Kotlin join when their one JVM generator lands (issue 22 item 3).
LEAF_STYLE_TARGETS = ("cpp", "go", "python", "typescript", "javascript", "csharp", "ruby", "rust")


def function_local_imports(source: str) -> list[int]:
    """The lines of the imports inside functions of a module (each once, nested functions too)."""
    import ast
    return sorted({sub.lineno for node in ast.walk(ast.parse(source))
                   if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                   for sub in ast.walk(node) if isinstance(sub, (ast.Import, ast.ImportFrom))})


def test_function_local_imports_are_found() -> None:
    source = "import os\n\ndef f():\n    import re\n    def g():\n        from x import y\n    return re\n"
    assert function_local_imports(source) == [4, 6]


def test_targets_import_at_the_top_only() -> None:
    """A target's modules import its leaf context and the parts before them at the top: no import
    cycle inside a target package is broken by importing inside a function."""
    from pathlib import Path
    targets = Path(__file__).resolve().parents[2] / "compiler" / "fbec" / "targets"
    found = [f"{path.relative_to(targets)}:{line}" for name in LEAF_STYLE_TARGETS
             for path in sorted((targets / name).glob("*.py"))
             for line in function_local_imports(path.read_text())]
    found += [f"base.py:{line}" for line in function_local_imports((targets / "base.py").read_text())]
    assert not found, found
