"""`FBE::Nesting<T>` in `<package>.h`: the depth check of the binary writers (docs/limits.md 1).

`serialize()` of both models and every Sender's `send()` refuse a value whose
structs nest deeper than `FBE::kMaxDepth`. Only structs whose nesting has no
bound in the schema (the IR's `height` None: recursive structs and what holds
them) can; for them `Nesting<T>::bounded` is false and the runtime calls
`Nesting<T>::within`, a walk over the value. Every other struct keeps the
runtime's primary template: its writers check nothing and pay nothing.

The walk enters a bounded struct of the same package through its own
`within`, which returns at once when the struct's height fits below the
limit and walks it only near the limit (exact: a reader counts the levels a
value has, not those its type could have). A bounded struct of another
package (whose header cannot know it is walked) is checked by its height
alone, which may refuse a value a few levels short of the limit.
"""

from __future__ import annotations

from fbec.model import ir, plan
from fbec.model.ir import Array, Mapping, Optional_, Package, Schema, Sequence, Struct, StructRef, Type

from .common import CppWriter, field_ident, guard, namespace, qualified, specialisation


def _static(schema: Schema, package: Package, t: Type) -> bool:
    """Whether every struct in a value of type t is a bounded struct of another package (checked
    by its height alone, without looking at the value)."""
    return all(plan.of(schema).struct(r).bounded and r.rpartition(".")[0] != package.name for r in ir.struct_refs(t))


def _present(t: Type, x: str) -> str | None:
    """A C++ condition that a value x of type t holds a struct (None: always; conservative below
    the outermost optional or collection)."""
    if isinstance(t, Optional_):
        return f"{x}.has_value()"
    if isinstance(t, (Sequence, Mapping)):
        return f"!{x}.empty()"
    return None


def _check(w: CppWriter, schema: Schema, package: Package, s: Struct, field: str, t: Type, x: str,
           n: int) -> None:
    """Statements that return false when the structs in `x` (of type `t`, held by a struct at
    `depth`) nest too deep."""
    fail = f'return detail::nested_too_deep(error, "{s.qualified}", "{field}");'
    if _static(schema, package, t):
        levels = plan.of(schema).levels(t)
        present = _present(t, x)
        guard(w, f"{present + ' && ' if present else ''}depth + {levels}u > kMaxDepth", fail)
    elif isinstance(t, StructRef):
        guard(w, f"!Nesting<{qualified(t.name)}>::within({x}, depth + 1, error)", fail)
    elif isinstance(t, Optional_):
        with w.block(f"if ({x})"):
            _check(w, schema, package, s, field, t.element, f"*{x}", n)
    elif isinstance(t, (Array, Sequence)):
        with w.block(f"for (const auto& e{n} : {x})"):
            _check(w, schema, package, s, field, t.element, f"e{n}", n + 1)
    elif isinstance(t, Mapping):
        with w.block(f"for (const auto& p{n} : {x})"):
            if ir.struct_refs(t.key):
                _check(w, schema, package, s, field, t.key, f"p{n}.first", n + 1)
            if ir.struct_refs(t.value):
                _check(w, schema, package, s, field, t.value, f"p{n}.second", n + 1)


def generate(w: CppWriter, schema: Schema, package: Package) -> None:
    """The Nesting specializations of the package's walked structs (nothing when none)."""
    structs = plan.of(schema).depth_walk(package.name)   # the unbounded ones and the bounded ones a walk enters
    if not structs:
        return
    with namespace(w, "FBE"):
        w.blank()
        for s in structs:
            t = qualified(s.qualified)
            bounded = plan.of(schema).struct(s.qualified).bounded
            height = f"nesting height {s.height if bounded else 'unbounded'} (struct levels below it)"
            with specialisation(w, f"Nesting<{t}>", f"{s.qualified}: {height}", [("bool bounded", bounded)]):
                w.line(f"static bool within(const {t}& value, unsigned depth, std::string& error);")
        for s in structs:
            t = qualified(s.qualified)
            fields = [f for f in s.all_fields if ir.struct_refs(f.type)]
            with w.function(f"inline bool Nesting<{t}>::within(const {t}& value, unsigned depth, std::string& error)"):
                if plan.of(schema).struct(s.qualified).bounded:
                    # Fits whatever the value holds: the common case, no walk.
                    guard(w, f"FBE_LIKELY(depth + {s.height}u <= kMaxDepth)", "return true;")
                guard(w, "depth > kMaxDepth")
                for f in fields:
                    _check(w, schema, package, s, f.name, f.type, f"value.{field_ident(f)}", 0)
                w.line("return true;")
