"""Schema evolution, after Cap'n Proto's evolution test.

Hypothesis builds a random schema, then a compatible newer version of it
(fields appended at the end of structs that nothing derives from, values
appended to enums). Random values are written with one version and read with
the other, both ways, by two independent implementations: the generated
Python code and the schema-driven codec of the runtime (fbe.dynamic).

* new reader, old data: every old field keeps its value, appended fields
  take their schema defaults;
* old reader, new data: every old field keeps its value, appended fields are
  skipped.
"""

from __future__ import annotations

import importlib.util
import sys
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

REPO = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(REPO / "conformance"), str(REPO / "conformance" / "testees")]

from fbe.dynamic import DynamicCodec
from fbec.model import ir
from fbec.model.resolve import compile_schema
from fbec.syntax.diagnostics import Diagnostics
from fbec.targets.base import Options
from fbec.targets.python import generate
from python_testee import Values
from runner import _canonical
from strategies import Strategies

SCALARS = ["bool", "int8", "uint16", "int32", "uint64", "float", "double", "decimal", "string", "bytes",
           "timestamp", "uuid"]


@st.composite
def schema_pair(draw: Any) -> tuple[str, str]:
    """(old text, new text): a random package and a compatible evolution of it."""
    n_enums = draw(st.integers(0, 2))
    n_structs = draw(st.integers(1, 4))
    enums: list[tuple[str, int, int]] = [(f"E{i}", draw(st.integers(1, 3)), draw(st.integers(1, 2)))
                                         for i in range(n_enums)]      # name, old values, appended values
    types = SCALARS + [e[0] for e in enums]
    structs = []
    for i in range(n_structs):
        known = types + [f"S{j}" for j in range(i)]
        fields = [draw(st.sampled_from(known)) + draw(st.sampled_from(["", "?", "[]", "[2]", "<int32>"]))
                  for _ in range(draw(st.integers(0, 4)))]
        base = f"S{draw(st.integers(0, i - 1))}" if i and draw(st.booleans()) else None
        appended = [draw(st.sampled_from(known)) + draw(st.sampled_from(["", "?", "[]"]))
                    for _ in range(draw(st.integers(1, 3)))]
        structs.append((f"S{i}", base, fields, appended))
    bases = {b for _, b, _, _ in structs if b}

    def text(new: bool) -> str:
        out = ["package evolved", ""]
        for name, old_n, add_n in enums:
            values = [f"v{k};" for k in range(old_n + (add_n if new else 0))]
            out.append(f"enum {name} : uint8 {{ {' '.join(values)} }}")
        for name, base, fields, appended in structs:
            body = [f"{t} {name.lower()}f{k};" for k, t in enumerate(fields)]
            if new and name not in bases:      # appending to a base would shift every derived struct
                body += [f"{t} {name.lower()}g{k};" for k, t in enumerate(appended)]
            out.append(f"struct {name}{' : ' + base if base else ''} {{ {' '.join(body)} }}")
        return "\n".join(out) + "\n"
    return text(False), text(True)


class Version:
    """One version of the schema: its IR, its generated module and its dynamic codec."""

    def __init__(self, folder: Path, text: str, tag: str) -> None:
        path = folder / f"{tag}.fbe"
        path.write_text(text)
        self.schema = compile_schema(str(path), [], Diagnostics())
        (out,) = generate(self.schema, Options(final=True))
        module_path = folder / f"evolved_{tag}.py"
        module_path.write_text(out.text)
        spec = importlib.util.spec_from_file_location(f"evolved_{tag}", module_path)
        assert spec and spec.loader
        self.module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(self.module)
        self.values = Values({"evolved": self.schema.main_package}, {"evolved": self.schema},
                             {"evolved": self.module})
        self.codec = DynamicCodec(self.schema)


def project(reader: Version, t: ir.Type, value: Any) -> Any:
    """What a reader must see of a value: the writer's data for fields it knows, its defaults for the others."""
    if value is None:
        return None
    if isinstance(t, ir.StructRef):
        s = reader.schema.struct(t.name)
        default = reader.values.describe(t, reader.values.cls(t.name)())
        return {"@type": t.name, **{f.name: project(reader, f.type, value[f.name]) if f.name in value
                                    else default[f.name] for f in s.all_fields}}
    if isinstance(t, ir.Optional_):
        return project(reader, t.element, value)
    if isinstance(t, (ir.Array, ir.Sequence)):
        return [project(reader, t.element, x) for x in value]
    if isinstance(t, ir.Mapping):
        return [[project(reader, t.key, k), project(reader, t.value, v)] for k, v in value]
    return value


@settings(max_examples=40, derandomize=True, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate],
          
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(pair=schema_pair(), data=st.data())
def test_old_and_new_read_each_other(pair, data):
    old_text, new_text = pair
    with tempfile.TemporaryDirectory() as d:
        old, new = Version(Path(d), old_text, "old"), Version(Path(d), new_text, "new")
        for s_old in old.schema.main_package.structs:
            s_new = new.schema.struct(s_old.qualified)
            for writer, reader, s_w, s_r in ((old, new, s_old, s_new), (new, old, s_new, s_old)):
                value = data.draw(Strategies(writer.schema).struct(s_w.qualified), label=f"{s_w.name} value")
                want = _canonical(project(reader, s_r.ref(), value))
                written = writer.values.build(s_w.ref(), value).to_fbe()
                # the generated code of the other version reads it
                got = reader.values.cls(s_r.qualified).from_fbe(written)
                assert _canonical(reader.values.describe(s_r.ref(), got)) == want, (old_text, new_text, value)
                # and so does the dynamic codec, independently
                decoded, _ = reader.codec.decode(written, s_r.qualified, "versioned", check=True)
                described = reader.codec.to_described(decoded, s_r.qualified)
                # through the generated classes once, so both sides spell numbers alike
                normalised = reader.values.describe(s_r.ref(), reader.values.build(s_r.ref(), described))
                assert _canonical(normalised) == want, (old_text, new_text, value)


def test_the_check_sees_a_breaking_change():
    """Control: inserting a field in front (not compatible) must make the same check fail."""
    old_text = "package evolved\nstruct S0 { int32 a; string b; }\n"
    new_text = "package evolved\nstruct S0 { int64 z; int32 a; string b; }\n"
    with tempfile.TemporaryDirectory() as d:
        old, new = Version(Path(d), old_text, "old"), Version(Path(d), new_text, "new")
        s_old, s_new = old.schema.struct("evolved.S0"), new.schema.struct("evolved.S0")
        value = {"@type": "evolved.S0", "a": 7, "b": "text"}
        written = old.values.build(s_old.ref(), value).to_fbe()
        got = new.values.cls("evolved.S0").from_fbe(written)
        assert _canonical(new.values.describe(s_new.ref(), got)) != _canonical(project(new, s_new.ref(), value))
