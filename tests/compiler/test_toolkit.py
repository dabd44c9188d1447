"""The shared target toolkit (fbec.targets.base): the code writer every target builds files with."""

from __future__ import annotations

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


def test_each_target_escapes_its_own_reserved_words() -> None:
    from fbec.targets.cpp.common import field_ident, ident
    from fbec.targets.python.context import ident as py_ident
    from fbec.targets.python.context import member_ident
    assert (ident("new"), ident("EOF"), ident("size_t"), ident("swap"), field_ident("swap")) == \
        ("new_", "EOF_", "size_t_", "swap", "swap_")
    assert (py_ident("class"), py_ident("Decimal"), py_ident("new")) == ("class_", "Decimal_", "new")
    assert (member_ident("value"), member_ident("_x"), member_ident("None"), member_ident("A")) == \
        ("value_", "_x_", "None_", "A")


def test_imports_are_recorded_by_use() -> None:
    from fbec.targets.base import Imports
    used = Imports()
    assert used.modules == set() and used.names == {}
    assert used.attr("struct", "unpack_from") == "struct.unpack_from"
    assert used.name("typing", "Any") == "Any" and used.name("typing", "ClassVar") == "ClassVar"
    used.attr("struct", "pack_into")
    assert used.modules == {"struct"} and used.names == {"typing": {"Any", "ClassVar"}}
    assert used.attr("encoding/binary", "LittleEndian", "binary") == "binary.LittleEndian"
    assert used.modules == {"struct", "encoding/binary"}


def test_runs_of_groups_consecutive_items_that_join() -> None:
    from fbec.targets.base import runs_of
    assert runs_of([1, 3, 5, 2, 7, 9, 4, 4], lambda n: n % 2 == 1) == [[1, 3, 5], [2], [7, 9], [4], [4]]
    assert runs_of([], bool) == []
    assert runs_of([0, 0], bool) == [[0], [0]]


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
