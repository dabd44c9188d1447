"""Resolution of valid schemas: type numbers, layouts, values and defaults as the original assigns them."""

from __future__ import annotations

import json

import pytest
from conftest import REPO, run_fbec, shared_schemas
from fbec.model import ir
from fbec.model.resolve import compile_schema
from fbec.syntax.diagnostics import Diagnostics

# docs/format.md section 11: type id, versioned body size and field count (inherited included).
REFERENCE_LAYOUT = {
    "proto": {"Order": (1, 34, 6), "Balance": (2, 20, 2), "Account": (3, 30, 6),
              "OrderMessage": (1, 12, 1), "BalanceMessage": (2, 12, 1), "AccountMessage": (3, 12, 1)},
    "protoex": {"Order": (1, 50, 8), "Balance": (2, 28, 3), "Account": (3, 30, 6),
                "OrderMessage": (11, 12, 1), "BalanceMessage": (12, 12, 1), "AccountMessage": (13, 12, 1)},
    "test": {"StructSimple": (110, 237, 45), "StructOptional": (111, 567, 111), "StructNested": (112, 622, 123),
             "StructBytes": (120, 22, 3), "StructArray": (125, 92, 10), "StructVector": (130, 48, 10),
             "StructList": (131, 48, 10), "StructSet": (132, 24, 4), "StructMap": (140, 48, 10),
             "StructHash": (141, 48, 10), "StructHashEx": (142, 16, 2), "StructEmpty": (143, 8, 0)},
    "enums": {"Enums": (1, 224, 66)},
}


def load(path, *imports) -> ir.Schema:
    return compile_schema(str(path), list(imports), Diagnostics())


@pytest.mark.parametrize("package", sorted(REFERENCE_LAYOUT))
def test_reference_layouts(package):
    schema = load(shared_schemas() / f"{package}.fbe")
    got = {s.name: (s.type_id, s.body_size, len(s.all_fields)) for s in schema.main_package.structs}
    assert got == REFERENCE_LAYOUT[package]


def test_final_sizes_of_fixed_structs():
    schema = load(shared_schemas() / "enums.fbe")
    assert schema.struct("enums.Enums").final_size == 224 - 8      # root = 8 + fields (232 / 224 in docs/format.md)
    assert load(shared_schemas() / "test.fbe").struct("test.StructEmpty").final_size == 0


def test_inheritance_offsets_continue_after_the_base():
    schema = load(shared_schemas() / "test.fbe")
    simple, optional = schema.struct("test.StructSimple"), schema.struct("test.StructOptional")
    assert optional.base_size == simple.body_size == 237
    assert optional.fields[0].name == "f100" and optional.fields[0].offset == 237
    assert optional.all_fields[:45] == simple.all_fields
    offsets = [f.offset for f in optional.all_fields]
    sizes = [f.type.size for f in optional.all_fields]
    assert offsets == [8 + sum(sizes[:i]) for i in range(len(sizes))]
    assert simple.keys == ("id",) and optional.keys == ("id",)


def test_imported_base_keeps_its_type_number():
    schema = load(shared_schemas() / "protoex.fbe")
    balance = schema.struct("protoex.Balance")
    assert (balance.base, balance.type_id, balance.base_size) == ("proto.Balance", 2, 20)
    assert [p.name for p in schema.packages] == ["proto", "protoex"]


def test_enum_values_follow_c_rules():
    schema = load(shared_schemas() / "enums.fbe")
    values = {e.name: [v.value for v in e.values] for e in schema.main_package.enums}
    assert values["EnumByte"] == [0, 0, 1, 254, 255, 254]
    assert values["EnumChar"] == [0, 49, 50, 51, 52, 51]
    assert values["EnumInt8"] == [0, -128, -127, 126, 127, 126]
    assert values["EnumUInt64"] == [0, 0, 1, 2**64 - 2, 2**64 - 1, 2**64 - 2]
    wires = {e.name: (e.underlying, e.wire, e.size) for e in schema.main_package.enums}
    assert wires["EnumChar"] == ("char", "uint8", 1) and wires["EnumWChar"] == ("wchar", "uint32", 4)


def test_flags_combinations():
    schema = load(shared_schemas() / "proto.fbe")
    state = schema.enum("proto.State")
    assert [(v.name, v.value) for v in state.values][-2:] == [("good", 6), ("bad", 9)]
    account = schema.struct("proto.Account")
    default = account.fields[2].default
    assert (default.kind, default.names, default.value) == ("flags", ("initialized", "bad"), 11)


def test_defaults_of_every_kind():
    schema = load(REPO / "schemas/tests/everything.fbe")
    fields = {f.name: f for f in schema.struct("everything.Everything").fields}

    def d(name):
        return fields[name].default

    assert d("id") == ir.Default("int", 42)
    assert d("f1") == ir.Default("bool", True)
    assert d("f2") == ir.Default("int", 255) and d("f5") == ir.Default("int", -128)
    assert d("f3") == ir.Default("int", 33) and d("f6") == ir.Default("int", 65)
    assert d("f12") == ir.Default("int", 2**64 - 1)
    assert d("f13") == ir.Default("real", text=".5e3") and d("f16") == ir.Default("real", text="7")
    assert d("f17") == ir.Default("string", "text")
    assert d("f18") == ir.Default("timestamp", 0) and d("f19") == ir.Default("utc")
    assert d("f20") == ir.Default("uuid", "00000000-0000-0000-0000-000000000000")
    assert d("f21") == ir.Default("uuid1") and d("f22") == ir.Default("uuid4")
    assert d("f23") == ir.Default("uuid", "123e4567-e89b-12d3-a456-426655440000")
    assert d("f26") == ir.Default("enum", 1, type="market.Side", names=("sell",))
    assert d("f28") == ir.Default("flags", 2**63 + 1, type="everything.FUInt64", names=("all",))
    assert d("f31") == ir.Default("null") and d("f32") == ir.Default("int", 5)
    assert d("f34") == ir.Default("enum", 0x10, type="everything.EByte", names=("b",))
    note = schema.struct("everything.Note").fields[0].default
    assert note == ir.Default("string", 'hi "there"\n')


def test_reset_field_adds_a_flag():
    schema = load(REPO / "schemas/tests/everything.fbe")
    fields = schema.struct("everything.Everything").fields
    i = next(i for i, f in enumerate(fields) if f.name == "f47")
    f47, flag = fields[i], fields[i + 1]
    assert isinstance(f47.type, ir.Optional_) and f47.name == "f47"
    assert (flag.name, flag.type, flag.reset_of, flag.offset) == ("f47Reset", ir.Primitive("bool"), "f47",
                                                                  f47.offset + 5)


def test_type_numbers_of_every_form():
    schema = load(REPO / "schemas/tests/everything.fbe")
    ids = {s.name: s.type_id for s in schema.main_package.structs}
    assert ids["Counted"] == 1001 and ids["Shifted"] == 1020 and ids["AfterShift"] == 1021
    assert ids["Fixed"] == 7 and ids["Derived"] == 7 and ids["ImportedBase"] == 1022
    assert schema.struct("market.Failure").type_id == 502


def test_requests_responses_rejects():
    schema = load(REPO / "schemas/tests/everything.fbe")
    place = schema.struct("everything.PlaceOrder")
    assert place.request and place.message and place.response == "everything.Accepted"
    assert place.rejects == (ir.Reject("market.Failure", True), ir.Reject("everything.Rejected", False))
    assert place.keys == ("id",) and place.fields[0].id
    ping = schema.struct("everything.Ping")
    assert ping.request and ping.response is None and ping.rejects == ()


def test_collections_and_sizes():
    schema = load(REPO / "schemas/tests/everything.fbe")
    fields = {f.name: f.type for f in schema.struct("everything.Everything").fields}
    assert fields["f36"] == ir.Array(ir.Primitive("int32"), 3) and fields["f36"].size == 12
    assert fields["f37"].size == 10 and fields["f37"].final_size is None
    assert fields["f41"] == ir.Sequence("set", ir.Primitive("int64"))
    assert isinstance(fields["f46"], ir.Mapping) and fields["f46"].kind == "hash"
    assert fields["f46"].key == ir.StructRef("market.Instrument", None, 8, 8)
    assert fields["f26"] == ir.EnumRef("enum", "market.Side", "uint8", 1)


def test_structs_follow_what_they_contain():
    text = "package p\nstruct A { B b; }\nstruct B { int32 x; }\nstruct C : D {}\nstruct D {}\n"
    import os
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "p.fbe")
        with open(path, "w") as f:
            f.write(text)
        schema = load(path)
    assert [s.name for s in schema.main_package.structs] == ["B", "A", "D", "C"]
    assert schema.struct("p.A").type_id == 1 and schema.struct("p.B").type_id == 2


def test_import_dirs(tmp_path, capsys):
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "q.fbe").write_text("package q\nstruct T { int32 x; }\n")
    (tmp_path / "p.fbe").write_text("package p\nimport q\nstruct S : q.T { int32 y; }\n")
    status, _, err = run_fbec(capsys, "--ir", f"--input={tmp_path / 'p.fbe'}")
    assert status == 1 and "cannot find imported package 'q'" in err
    status, out, err = run_fbec(capsys, "--ir", f"--input={tmp_path / 'p.fbe'}", "-I", str(tmp_path / "lib"))
    assert status == 0, err
    data = json.loads(out)
    assert [p["name"] for p in data["packages"]] == ["q", "p"]
    s = data["packages"][1]["structs"][0]
    assert (s["base"], s["body_size"], [f["name"] for f in s["all_fields"]]) == ("q.T", 16, ["x", "y"])
