"""The generated code itself: lint/type checks, the Python API, and the protocol classes."""

from __future__ import annotations

import asyncio
import importlib.util
import os
import subprocess
import sys
import uuid
from decimal import Decimal
from pathlib import Path
from typing import Any, ClassVar

import fbe
import pytest
from fbe_testlib import REPO, generate_into
from fbec.targets.base import Options

RUNTIME = REPO / "runtime" / "python"


def _tool(module: str) -> None:
    try:
        __import__(module)
    except ImportError:
        pytest.fail(f"{module} is not installed (make venv installs tools/requirements/test.txt)")


def _generate_sets(tmp: Path, shared: Path | None) -> list[Path]:
    sets = {"everything": [REPO / "schemas" / "tests" / "everything.fbe"],
            "trade": [REPO / "schemas" / "trade.fbe"], "graph": [REPO / "schemas" / "graph.fbe"]}
    if shared is not None:
        sets["shared"] = [shared / "schemas" / f"{n}.fbe" for n in ("test", "protoex", "enums")]
    folders = []
    for name, schemas in sets.items():
        folder = tmp / name
        folder.mkdir()
        for s in schemas:
            if s.is_file():
                generate_into(s, folder)
        folders.append(folder)
    # option combinations: types and versioned model only; protocol without final/JSON; 2-space indent
    for name, options in (("plain", Options()), ("proto_only", Options(proto=True)),
                          ("indent2", Options(final=True, json=True, proto=True, indent=2))):
        folder = tmp / name
        folder.mkdir()
        generate_into(REPO / "schemas" / "tests" / "everything.fbe", folder, options)
        folders.append(folder)
    return folders


@pytest.fixture(scope="module")
def generated_sets(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    from fbe_testlib import shared_dir
    return _generate_sets(tmp_path_factory.mktemp("lint"), shared_dir())


NAMES = """
package names
enum Kind { None; True; name; value; mro; class; }
flags Bits : byte { from = 1; import = 2; all = from | import; }
struct Weird
{
    [key] int32 from;
    string class;
    Kind self;
    Bits fbe;
    bool? import;
    int32 r;
    int32 v;
    int32 w;
    double Decimal;
    string typing;
    Kind[] t;
    int32<string> p;
}
message Note { Weird lambda; }
enum Any { a; }
struct Client { Any x; }
message Sender { Client c; }
"""


def test_python_keywords_and_clashing_names(tmp_path: Path) -> None:
    """Schema names that are Python keywords or clash with Enum/generated names get a trailing underscore."""
    (tmp_path / "names.fbe").write_text(NAMES)
    generate_into(tmp_path / "names.fbe", tmp_path)
    from fbe_testlib import load_modules
    n = load_modules(tmp_path, ["names"])["names"]
    assert list(n.Kind.__members__) == ["None_", "True_", "name_", "value_", "mro_", "class_"]
    w = n.Weird(from_=1, class_="c", self_=n.Kind.mro_, import_=True, p={"a": 1}, t=[n.Kind.True_])
    assert str(w).startswith('Weird(from=1,class="c",self=mro,fbe=,import=true,')
    assert w.to_json().startswith('{"from":1,"class":"c","self":4,"fbe":0,"import":true,')
    for back in (n.Weird.from_json(w.to_json()), n.Weird.from_fbe(w.to_fbe()), n.Weird.from_final(w.to_final())):
        assert back.fbe_equal(w)
    msg = n.Sender_(c=n.Client_(x=n.Any_.a))  # type names that clash with generated/imported names
    assert str(msg) == "Sender(c=Client(x=a))" and n.Sender().send(msg) == 32
    if importlib.util.find_spec("mypy") and importlib.util.find_spec("ruff"):
        for cmd in (["ruff", "check", "--no-cache", "names.py"], ["mypy", "--strict", "--no-incremental", "names.py"]):
            r = subprocess.run([sys.executable, "-m", *cmd], cwd=tmp_path, capture_output=True, text=True,
                               check=False, env=dict(os.environ, MYPYPATH=str(RUNTIME)))
            assert r.returncode == 0, r.stdout + r.stderr


def test_imports_follow_what_the_code_uses(tmp_path: Path) -> None:
    """A decimal or uuid that is only ever optional still imports Decimal and uuid (the type hints use
    them); the import block used to be decided by searching the text for ``Decimal(``."""
    _tool("mypy")
    _tool("ruff")
    (tmp_path / "opt.fbe").write_text("package opt\nstruct S { decimal? d; uuid? u; }\n")
    generate_into(tmp_path / "opt.fbe", tmp_path, Options())
    text = (tmp_path / "opt.py").read_text()
    assert "from decimal import Decimal\n" in text and "import uuid\n" in text
    for cmd in (["ruff", "check", "--no-cache", "opt.py"], ["mypy", "--strict", "--no-incremental", "opt.py"]):
        r = subprocess.run([sys.executable, "-m", *cmd], cwd=tmp_path, capture_output=True, text=True,
                           check=False, env=dict(os.environ, MYPYPATH=str(RUNTIME)))
        assert r.returncode == 0, r.stdout + r.stderr


def test_ruff_accepts_generated_code(generated_sets: list[Path]) -> None:
    _tool("ruff")
    for folder in generated_sets:
        r = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "."], cwd=folder,
                           capture_output=True, text=True, check=False)
        assert r.returncode == 0, r.stdout + r.stderr


def test_mypy_strict_accepts_generated_code(generated_sets: list[Path]) -> None:
    _tool("mypy")
    env = dict(os.environ, MYPYPATH=str(RUNTIME))
    for folder in generated_sets:
        r = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir=/dev/null",
                            "."], cwd=folder, capture_output=True, text=True, check=False, env=env)
        assert r.returncode == 0, r.stdout + r.stderr


def test_runtime_passes_mypy_strict() -> None:
    """The whole package (a module left out of a list goes unchecked): fbe.dynamic imports the IR from
    fbec.model, which the wheel installs beside fbe, so compiler/ is on the path (else every IR type is
    Any, and --strict reports what it makes of that)."""
    _tool("mypy")
    path = os.pathsep.join([str(RUNTIME), str(REPO / "compiler")])
    r = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir=/dev/null",
                        "--follow-imports=silent", "-p", "fbe"],
                       capture_output=True, text=True, check=False, env=dict(os.environ, MYPYPATH=path))
    assert r.returncode == 0, r.stdout + r.stderr


def test_generator_and_tests_pass_lint_and_types() -> None:
    _tool("mypy")
    _tool("ruff")
    target = REPO / "compiler" / "fbec" / "targets" / "python"
    r = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", str(target)],
                       capture_output=True, text=True, check=False,
                       env=dict(os.environ, MYPYPATH=str(REPO / "compiler")))
    assert r.returncode == 0, r.stdout + r.stderr
    mine = [str(target), str(REPO / "tests" / "python"), str(REPO / "tests" / "python_native"), str(RUNTIME / "fbe")]
    r = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", *mine], capture_output=True, text=True,
                       check=False, cwd=REPO)
    assert r.returncode == 0, r.stdout + r.stderr


def test_generated_module_imports_only_fbe_and_stdlib(generated_sets: list[Path]) -> None:
    allowed = {"struct", "uuid", "collections.abc", "decimal", "enum", "typing", "fbe", "__future__"}
    for folder in generated_sets:
        siblings = {p.stem for p in folder.glob("*.py")}
        for py in folder.glob("*.py"):
            for line in py.read_text().splitlines():
                if line.startswith(("import ", "from ")):
                    mod = line.split()[1]
                    assert mod in allowed or mod in siblings, f"{py.name}: {line}"


# ---------------------------------------------------------------- the API on the schema with every construct

def test_defaults_and_keyword_construction(everything: Any) -> None:
    e = everything.mods["everything"]
    m = everything.mods["market"]
    x = e.Everything()
    assert x.id == 42 and x.f1 is True and x.f2 == 255 and x.f3 == ord("!") and x.f4 == 0x0444
    assert x.f5 == -128 and x.f6 == 65 and x.f12 == 2**64 - 1 and x.f13 == 500.0 and x.f14 == -1.0
    assert x.f15 == Decimal("123456.123456") and x.f16 == Decimal(7) and x.f17 == "text"
    assert x.f20 == uuid.UUID(int=0) and x.f21.version == 1 and x.f22.version == 4
    assert x.f23 == uuid.UUID("123e4567-e89b-12d3-a456-426655440000")
    assert x.f25 == e.EByte.c and x.f26 == m.Side.sell and x.f27 == e.FByte.one | e.FByte.two
    assert x.f30.digits == 5 and x.f31 is None and x.f32 == 5 and x.f34 == e.EByte.b and x.f48 == 0
    assert x.f36 == [0, 0, 0] and x.f37 == [None, None] and x.f41 == set() and x.f43 == {}
    assert x.f47 is None and x.f47Reset is False
    assert abs(x.f19 - fbe.utc()) < 60 * 10**9
    y = e.Everything(id=1, f17="other", f38=[1.5, 2.5], f43={2: "b", 1: "a"})
    assert y.f17 == "other" and y.f29 is not x.f29 and y.f38 == [1.5, 2.5]
    assert "Everything(id=1, f1=True" in repr(y)
    z = y.clone()
    z.f43[3] = "c"
    assert z.fbe_equal(z.clone()) and len(y.f43) == 2


def test_roundtrip_every_construct(everything: Any) -> None:
    e = everything.mods["everything"]
    m = everything.mods["market"]
    x = e.Everything(
        id=7, f17="ünïcode", f24=b"\x00\x01", f31=3, f33="s", f35=e.Counted(a=9), f36=[1, 2, 3],
        f37=["a", None], f38=[0.5, -1e300], f39=[None, e.Counted(a=1)], f40=["x", "y"], f41={3, 1, 2},
        f42={m.Instrument(symbol="B"), m.Instrument(symbol="A")}, f43={2: "two", 1: "one"},
        f44={"k": None, "j": e.Counted(a=5)}, f45={uuid.UUID(int=5): b"five"},
        f46={m.Instrument(symbol="Z"): e.Counted(a=26)}, f47=11, f47Reset=True, f48=None,
    )
    for data, decode in ((x.to_fbe(), e.Everything.from_fbe), (x.to_final(), e.Everything.from_final)):
        assert decode(data).fbe_equal(x)
    s = str(x)
    assert "f41=[3]{1,2,3}" in s and 'f42=[2]{Instrument(symbol="A",digits=5),Instrument(symbol="B",digits=5)}' in s
    assert 'f43=[2]<{1->"one",2->"two"}>' in s
    # struct map keys: an array of [key, value] pairs (the original cannot; as the C++ runtime)
    assert '"f46":[[{"symbol":"Z","digits":5},{"a":26}]]' in x.to_json()
    assert e.Everything.from_json(x.to_json()).fbe_equal(x)
    x.f46 = {}
    assert '"f46":[]' in x.to_json()
    assert e.Everything.from_json(x.to_json()).fbe_equal(x)


def test_keys_equality_hash_ordering(everything: Any) -> None:
    m = everything.mods["market"]
    a, b = m.Instrument(symbol="A", digits=1), m.Instrument(symbol="A", digits=2)
    assert a == b and hash(a) == hash(b) and not a < b
    assert min([m.Instrument(symbol="C"), m.Instrument(symbol="B")]).symbol == "B"
    assert not a.fbe_equal(b)
    e = everything.mods["everything"]
    assert e.Counted(a=1) == e.Counted(a=2)  # no [key] field: all instances are equal


def test_two_key_fields_compare_in_declaration_order(everything: Any) -> None:
    """everything.Route: [key] venue, weight (no key), [key] leg. Equality and hash take venue and leg,
    never weight; the order is venue first, then leg (docs/format.md 3.4), as sets and maps are written."""
    e = everything.mods["everything"]
    r = e.Route
    assert r(venue="a", weight=1.0, leg=2) == r(venue="a", weight=9.0, leg=2)
    assert hash(r(venue="a", weight=1.0, leg=2)) == hash(r(venue="a", weight=9.0, leg=2))
    assert r(venue="a", leg=2) != r(venue="a", leg=3) and r(venue="a", leg=2) != r(venue="b", leg=2)
    assert r(venue="a", leg=2) < r(venue="b", leg=1) and r(venue="b", leg=-1) < r(venue="b", leg=1)
    assert not r(venue="a", weight=1.0, leg=2) < r(venue="a", weight=9.0, leg=2)
    routes = {r(venue="b", leg=1), r(venue="a", leg=2), r(venue="a", weight=5.0, leg=2), r(venue="a", leg=-1)}
    assert [(x.venue, x.leg) for x in sorted(routes)] == [("a", -1), ("a", 2), ("b", 1)]
    value = e.Routes(routes=routes, ranks={r(venue="b", leg=1): 10, r(venue="a", leg=2): 20})
    back = e.Routes.from_fbe(value.to_fbe())
    assert back.fbe_equal(value) and e.Routes.from_final(value.to_final()).fbe_equal(value)
    ranks = '"ranks":[[{"venue":"a","weight":0.0,"leg":2},20],[{"venue":"b","weight":0.0,"leg":1},10]]'
    assert ranks in value.to_json()


def test_inheritance_and_hidden(everything: Any) -> None:
    e = everything.mods["everything"]
    m = everything.mods["market"]
    d = e.Derived(a=1, b=2)
    assert isinstance(d, e.Fixed) and d.fbe_type == 7 == e.Fixed.fbe_type
    assert str(d) == "Derived(Fixed(a=1),b=2)"
    i = e.ImportedBase(symbol="EURUSD")
    assert isinstance(i, m.Instrument) and i.price == 1.5
    assert e.ImportedBase.from_fbe(i.to_fbe()).fbe_equal(i)
    assert str(e.Quiet(password="secret", legacy=1)) == "Quiet(password=***,legacy=1)"


def test_enum_and_flags_types(everything: Any) -> None:
    e = everything.mods["everything"]
    assert str(e.EInt32(-1)) == "a" and str(e.EInt32(42)) == "<unknown>" and int(e.EInt32(42)) == 42
    assert str(e.FByte(3)) == "one|two|both" and e.FByte(3).has_flags(e.FByte.one)
    assert not e.FByte.one.has_flags(e.FByte(3))  # every bit of the argument, not any
    assert str(e.FUInt64.all) == "top|low|all"


def test_models_original_vocabulary(everything: Any) -> None:
    m = everything.mods["market"]
    writer = m.InstrumentModel(fbe.WriteBuffer())
    size = writer.serialize(m.Instrument(symbol="EURUSD"))
    assert size == writer.buffer.size and writer.verify()
    reader = m.InstrumentModel(fbe.ReadBuffer())
    reader.attach_buffer(writer.buffer)
    assert reader.verify()
    value, n = reader.deserialize()
    assert value.symbol == "EURUSD" and n == size
    final = m.InstrumentFinalModel()
    final.serialize(value)
    assert final.verify()
    # a model's type id is its struct's
    assert m.InstrumentModel.fbe_type == final.fbe_type == m.Instrument.fbe_type != 0


# ---------------------------------------------------------------- Client: request / response / reject / timeout

def _client(everything: Any) -> Any:
    e = everything.mods["everything"]
    frames: list[bytes] = []

    class C(e.Client):  # type: ignore[misc]
        notified: ClassVar[list[Any]] = []

        def on_send(self, buffer: bytearray, offset: int, size: int) -> int:
            frames.append(bytes(buffer[offset: offset + size]))
            return size

        def on_receive(self, value: Any) -> None:
            self.notified.append(value)

    c = C()
    c.frames = frames
    return c


def test_client_response_reject_timeout(everything: Any) -> None:
    e = everything.mods["everything"]
    m = everything.mods["market"]
    c = _client(everything)
    req = e.PlaceOrder(instrument=m.Instrument(symbol="X"))
    fut = c.request(req, 1000)
    assert not fut.done() and len(c.frames) == 1
    assert e.PlaceOrder.from_fbe(c.frames[0]).id == req.id
    c.receive(e.Accepted(id=uuid.uuid4()).to_fbe())  # another id: a notification
    assert not fut.done() and len(c.notified) == 1
    c.receive(e.Accepted(id=req.id).to_fbe())
    assert fut.result(0).id == req.id

    req2 = e.PlaceOrder()
    fut2 = c.request(req2)
    c.receive(e.Rejected(id=req2.id, reason="no").to_fbe())
    with pytest.raises(fbe.RequestError, match="no"):
        fut2.result(0)

    req3 = e.PlaceOrder()
    fut3 = c.request(req3)
    c.receive(m.Failure(id=req3.id, reason="market closed").to_fbe())  # imported (global) reject
    with pytest.raises(fbe.RequestError, match="market closed"):
        fut3.result(0)

    fut4 = c.request(e.PlaceOrder(), 5)
    c.watchdog(fbe.utc() + 10**9)
    with pytest.raises(fbe.RequestError, match="Timeout!"):
        fut4.result(0)

    fut6 = c.request(e.PlaceOrder(), 1)

    async def watch() -> None:
        task = asyncio.ensure_future(fbe.protocol.run_watchdog(c, 0.01))
        try:
            await asyncio.wait_for(fbe.wait_response(fut6), 5)
        finally:
            task.cancel()

    with pytest.raises(fbe.RequestError, match="Timeout!"):
        asyncio.run(watch())

    assert c.request(e.Ping(sequence=1)).result(0) is None  # no response type: done when sent
    fut5 = c.request(e.PlaceOrder())
    c.reset()
    with pytest.raises(fbe.RequestError):
        fut5.result(0)
    with pytest.raises(TypeError):
        c.request(e.Note())


def test_asyncio_stream_adapter(everything: Any) -> None:
    e = everything.mods["everything"]

    async def main() -> Any:
        class Server(e.Receiver):  # type: ignore[misc]
            sender: Any = None

            def on_receive_placeorder(self, value: Any) -> None:
                self.sender.send(e.Accepted(id=value.id))

        async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            srv = Server()
            srv.sender = e.Sender()
            fbe.connect_sender(srv.sender, writer)
            await fbe.attach_stream(srv, reader, writer)
            writer.close()

        server = await asyncio.start_server(handle, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        client = e.Client()
        pump = fbe.attach_stream(client, reader, writer)
        req = e.PlaceOrder()
        reply = await asyncio.wait_for(fbe.wait_response(client.request(req, 2000)), 5)
        writer.close()
        await pump  # the server closes its side when ours is closed
        server.close()
        await server.wait_closed()
        return req, reply

    req, reply = asyncio.run(main())
    assert reply.id == req.id


def test_client_handles_requests_of_imported_packages(tmp_path: Path) -> None:
    (tmp_path / "core.fbe").write_text("""
package core
[request] [response(Pong)] message Ping { uuid [id] = uuid1; }
message Pong { uuid [id] = uuid1; }
""")
    (tmp_path / "app.fbe").write_text("""
package app offset 100
import core
[request] [response(core.Pong)] [reject(*Denied)] message Hello { uuid [id] = uuid1; }
message Denied { uuid [id] = uuid1; string why; }
""")
    generate_into(tmp_path / "app.fbe", tmp_path)
    from fbe_testlib import load_modules
    mods = load_modules(tmp_path, ["core", "app"])
    core, app = mods["core"], mods["app"]
    c = app.Client()
    ping, hello = core.Ping(), app.Hello()
    f1, f2 = c.request(ping, 1000), c.request(hello, 1000)
    c.receive(core.Pong(id=ping.id).to_fbe())
    c.receive(app.Denied(id=hello.id, why="no").to_fbe())
    assert f1.result(0).id == ping.id
    with pytest.raises(fbe.RequestError, match="no"):
        f2.result(0)


def test_package_named_like_a_module_the_code_imports(tmp_path: Path) -> None:
    """A package named `fbe` (the runtime), `typing` or `collections` (imported by generated code) or a
    Python keyword gets a module name with a trailing underscore, so it neither shadows what it imports
    nor is impossible to import; an importing package imports it under that name."""
    (tmp_path / "fbe.fbe").write_text("package fbe\nstruct Point { int32 x; }\n")
    (tmp_path / "typing.fbe").write_text("package typing\nimport fbe\nstruct Line { fbe.Point a; }\n")
    (tmp_path / "class.fbe").write_text("package class\nimport typing\nmessage Shape { typing.Line l; }\n")
    out = tmp_path / "out"
    out.mkdir()
    generate_into(tmp_path / "class.fbe", out)
    assert sorted(p.name for p in out.iterdir()) == ["class_.py", "fbe_.py", "typing_.py"]
    from fbe_testlib import load_modules
    mods = load_modules(out, ["fbe_", "typing_", "class_"])
    shape = mods["class_"].Shape(l=mods["typing_"].Line(a=mods["fbe_"].Point(x=7)))
    assert mods["class_"].Shape.from_fbe(shape.to_fbe()).fbe_equal(shape)
    assert shape.to_json() == '{"l":{"a":{"x":7}}}'
