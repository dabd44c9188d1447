"""The facts the model decides for every target (docs/ir.md), and `ir_json.load` reading `fbec --ir` back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import REPO, shared_schemas
from fbec.model import ir, ir_json, plan
from fbec.model.resolve import compile_schema
from fbec.syntax.diagnostics import Diagnostics

PROJECT_SCHEMAS = sorted((REPO / "schemas").rglob("*.fbe")) + [REPO / "tests/cpp_proto/schemas/jsoncases.fbe"]
SHARED_NAMES = ["enums", "proto", "protoex", "test"]


def load(path: Path, *imports: Path) -> ir.Schema:
    return compile_schema(str(path), [str(i) for i in imports], Diagnostics())


@pytest.mark.parametrize("path", PROJECT_SCHEMAS, ids=lambda p: str(p.relative_to(REPO)))
def test_dump_then_load_gives_the_same_dataclasses(path: Path) -> None:
    schema = load(path)
    assert ir_json.load(ir_json.dumps(schema)) == schema


@pytest.mark.parametrize("name", SHARED_NAMES)
def test_dump_then_load_gives_the_same_dataclasses_shared(name: str) -> None:
    schema = load(shared_schemas() / f"{name}.fbe")
    back = ir_json.load(json.loads(ir_json.dumps(schema)))
    assert back == schema
    assert back.struct(schema.main_package.structs[0].qualified) == schema.main_package.structs[0]


def test_load_rejects_another_version_and_other_documents() -> None:
    text = ir_json.dumps(load(REPO / "schemas/graph.fbe"))
    doc = json.loads(text)
    doc["version"] = ir.IR_VERSION + 1
    with pytest.raises(ir_json.IRFormatError, match="IR version 2"):
        ir_json.load(doc)
    with pytest.raises(ir_json.IRFormatError, match="not an fbec IR document"):
        ir_json.load({"version": ir.IR_VERSION, "main": "x"})


def test_final_min_size_height_and_offsets_of_the_reference_protocol() -> None:
    schema = load(shared_schemas() / "proto.fbe")
    order = schema.struct("proto.Order")
    # id int32, symbol string (length), side, type (bytes), price, volume (doubles)
    facts = (order.final_size, order.final_min_size, order.height, order.recursive)
    assert facts == (None, 4 + 4 + 1 + 1 + 8 + 8, 0, False)
    assert [(f.name, f.offset, f.final_offset) for f in order.all_fields] == [
        ("id", 8, 0), ("symbol", 12, 4), ("side", 16, None), ("type", 17, None), ("price", 18, None),
        ("volume", 26, None)]
    assert order.runs == (ir.FixedRun(("id",), 8, 0, 4), ir.FixedRun(("side", "type", "price", "volume"), 16, None, 18))
    account = schema.struct("proto.Account")
    # id, name, state, wallet (Balance: currency + amount), asset (flag), orders (count)
    assert account.final_min_size == 4 + 4 + 1 + (4 + 8) + 1 + 4
    assert account.height == 1
    wallet = next(f for f in account.fields if f.name == "wallet")
    assert wallet.type == ir.StructRef("proto.Balance", None, 12, 12) and wallet.type.final_min_size == 12
    assert plan.of(schema).levels(wallet.type) == 1
    message = schema.struct("proto.AccountMessage")
    assert (message.final_min_size, message.height) == (account.final_min_size, 2)


def test_decode_costs_of_the_reference_protocol() -> None:
    """docs/limits.md 3: a struct costs max(1, its fields' final minimum, struct values 0); its default
    also the default structs it holds; a collection element max(1, its minimum), a struct element 0."""
    schema = load(shared_schemas() / "proto.fbe")
    account = schema.struct("proto.Account")
    # id 4, name 4, state 1, wallet 0 (a struct of its own), asset 1 (flag), orders 4 (count)
    assert account.decode_cost == 4 + 4 + 1 + 0 + 1 + 4
    assert account.default_cost == account.decode_cost + schema.struct("proto.Balance").decode_cost
    message = schema.struct("proto.AccountMessage")
    assert (message.decode_cost, message.default_cost) == (1, 1 + account.default_cost)
    types = {f.name: f.type for f in account.fields}
    assert [ir.element_cost(types["orders"].element), ir.element_cost(types["name"])] == [0, 4]
    assert [ir.default_cost(types["wallet"]), ir.default_cost(types["asset"]), ir.default_cost(types["orders"])] \
        == [12, 0, 0]


def test_decode_cost_of_an_empty_struct_and_arrays_of_structs(tmp_path: Path) -> None:
    (tmp_path / "c.fbe").write_text("package c\nstruct E {}\nstruct W { E e; }\nstruct A { E[3] e; int16[2] n; }\n"
                                    "struct B { W w; byte b; }\n", encoding="utf-8")
    schema = load(tmp_path / "c.fbe")
    # a struct that takes no bytes in the final model costs ir.ZERO_SIZE_COST (docs/limits.md 3)
    assert (schema.struct("c.E").decode_cost, schema.struct("c.E").default_cost) == (32, 32)
    assert (schema.struct("c.W").decode_cost, schema.struct("c.W").default_cost) == (32, 32 + 32)
    a = schema.struct("c.A")
    assert (a.decode_cost, a.default_cost) == (4, 4 + 3 * 32)
    b = schema.struct("c.B")      # takes a byte: its own minimum, and W's and E's 32 each
    assert (b.decode_cost, b.default_cost) == (1, 1 + 64)
    assert ir.element_cost(ir.StructRef("c.E", 0, 0, 1)) == 0 and ir.element_cost(a.fields[1].type) == 4


def test_fixed_struct_offsets_continue_through_the_base(tmp_path: Path) -> None:
    (tmp_path / "f.fbe").write_text("package f\nstruct A { int32 a; uint8[3] b; }\n"
                                    "struct B : A { int16 c; string d; bool e; }\n", encoding="utf-8")
    b = load(tmp_path / "f.fbe").struct("f.B")
    assert [(f.name, f.final_offset) for f in b.all_fields] == [("a", 0), ("b", 4), ("c", 7), ("d", 9), ("e", None)]
    assert b.runs == (ir.FixedRun(("a", "b", "c"), 8, 0, 9), ir.FixedRun(("e",), 21, None, 1))
    assert b.final_min_size == 4 + 3 + 2 + 4 + 1


def test_key_fields_are_the_fields_of_keys_inherited_first(tmp_path: Path) -> None:
    (tmp_path / "k.fbe").write_text("package k\nstruct A { int32 x; [key] string a; }\n"
                                    "struct B : A { bool c; [key] int16 b; }\nstruct C { int8 z; }\n", encoding="utf-8")
    schema = load(tmp_path / "k.fbe")
    b = schema.struct("k.B")
    assert [f.name for f in b.key_fields] == ["a", "b"]
    assert b.key_fields[0] is b.all_fields[1] and b.key_fields[0].owner == "k.A"
    assert schema.struct("k.C").key_fields == ()


def test_named_flags_are_the_values_but_0_in_declaration_order(tmp_path: Path) -> None:
    (tmp_path / "f.fbe").write_text("package f\nflags F : byte { none = 0; b = 2; a = 1; ab = a | b; }\n",
                                    encoding="utf-8")
    flags = load(tmp_path / "f.fbe").main_package.flags[0]
    assert [v.name for v in flags.named_flags] == ["b", "a", "ab"]


def test_text_values_are_the_first_name_of_each_value_in_declaration_order(tmp_path: Path) -> None:
    (tmp_path / "e.fbe").write_text("package e\nenum E : int8 { a = 1; b = 1; c = -1; d = 2; e = -1; f = 2; }\n",
                                    encoding="utf-8")
    enum = load(tmp_path / "e.fbe").main_package.enums[0]
    assert [(v.name, v.value) for v in enum.text_values] == [("a", 1), ("c", -1), ("d", 2)]


def test_recursive_structs_have_no_height() -> None:
    schema = load(REPO / "schemas/cpp-tests/recursive.fbe")
    node = schema.struct("recursive.Node")
    assert (node.recursive, node.height, node.final_min_size) == (True, None, 4 + 4 + 4)


def test_holder_of_a_recursive_struct_is_unbounded_but_not_recursive(tmp_path: Path) -> None:
    (tmp_path / "r.fbe").write_text("package r\nstruct Node { Node[] children; }\nstruct Tree { Node? root; }\n"
                                    "struct Leaf { int32 x; }\nstruct Pair { Leaf a; Leaf[] b; }\n", encoding="utf-8")
    schema = load(tmp_path / "r.fbe")
    tree = schema.struct("r.Tree")
    assert (tree.recursive, tree.height, tree.final_min_size) == (False, None, 1)
    assert (schema.struct("r.Pair").height, schema.struct("r.Leaf").height) == (1, 0)


def test_dispatch_table_own_types_first_then_imports_first_id_wins(tmp_path: Path) -> None:
    (tmp_path / "a.fbe").write_text("package a\nmessage M1(7) { int32 x; }\nmessage M2(8) { int32 y; }\n",
                                    encoding="utf-8")
    # (two messages of one package with one number are an error: test_diagnostics.py)
    (tmp_path / "b.fbe").write_text("package b\nimport a\nmessage N(7) { int32 z; }\n", encoding="utf-8")
    schema = load(tmp_path / "b.fbe")
    assert schema.package("a").dispatch == (ir.Dispatch(7, "a.M1"), ir.Dispatch(8, "a.M2"))
    assert schema.main_package.dispatch == (ir.Dispatch(7, "b.N"), ir.Dispatch(8, "a.M2"))


def test_dispatch_of_the_reference_schemas() -> None:
    schema = load(shared_schemas() / "protoex.fbe")
    assert [(d.type_id, d.type) for d in schema.main_package.dispatch] == [
        (11, "protoex.OrderMessage"), (12, "protoex.BalanceMessage"), (13, "protoex.AccountMessage"),
        (1, "proto.OrderMessage"), (2, "proto.BalanceMessage"), (3, "proto.AccountMessage")]


def test_primitive_table_and_text_brackets_in_the_json() -> None:
    doc = json.loads(ir_json.dumps(load(REPO / "schemas/graph.fbe")))
    assert doc["primitives"]["char"] == {"size": 1, "final_size": 1, "min": 0, "max": 255, "order": "signed"}
    assert doc["primitives"]["timestamp"] == {"size": 8, "final_size": 8, "min": 0, "max": 2**64 - 1,
                                              "order": "value"}
    assert doc["primitives"]["string"] == {"size": 4, "final_size": None, "min": None, "max": None,
                                           "order": "bytes"}
    assert doc["primitives"]["int8"]["min"] == -128
    assert doc["text_brackets"]["map"] == ["<{", "}>"] and doc["text_brackets"]["list"] == ["<", ">"]


