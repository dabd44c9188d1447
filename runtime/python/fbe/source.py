"""Functions the runtime compiles for a generated struct class from its ``fbe_spec`` (the type spec
of each field), as ``dataclasses`` makes a class's methods: the source of one straight-line function
per class, compiled when the class first needs it, which runs as fast as the same function written
out in the generated module would (the text form, fbe.text; the writers' depth check,
fbe.struct.depth_walk; the JSON writer and reader, fbe.jsonfmt.json_writer and json_reader).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


class Source:
    """The source of one function and the values it names (its module's globals)."""

    def __init__(self) -> None:
        self.names: dict[str, Any] = {}

    def name(self, value: Any) -> str:
        """The name under which the function's source uses ``value`` (a function, a class...)."""
        name = f"p{len(self.names)}"
        self.names[name] = value
        return name

    def function(self, parameters: str, expr: str) -> Callable[..., Any]:
        """``def f(<parameters>): return <expr>``, compiled."""
        return self.statements(parameters, [f"return {expr}"])

    def statements(self, parameters: str, lines: list[str]) -> Callable[..., Any]:
        """``def f(<parameters>):`` with the body ``lines`` (indented as they are below the def), compiled."""
        body = "".join(f"    {line}\n" for line in lines)
        exec(f"def f({parameters}):\n{body}", self.names)  # noqa: S102 (our own source)
        return self.names["f"]  # type: ignore[no-any-return]


class PerClass(Generic[F]):
    """A function made for each class (``make(cls)``) when it is first asked for. While it is made,
    a function that calls it (a struct that holds itself: a recursive schema) names it
    (:meth:`named`) and is given it once it is there."""

    def __init__(self, make: Callable[[Any], F]) -> None:
        self.made: dict[Any, F] = {}
        self.making: dict[Any, list[tuple[dict[str, Any], str]]] = {}
        self.make = make

    def __call__(self, cls: Any) -> F:
        made = self.made.get(cls)
        if made is None:
            self.making[cls] = []
            made = self.made[cls] = self.make(cls)
            for names, name in self.making.pop(cls):
                names[name] = made
        return made

    def named(self, source: Source, cls: Any) -> str:
        """The name under which ``source`` calls the function of ``cls`` (bound once it is made)."""
        if cls in self.making:
            name = source.name(None)
            self.making[cls].append((source.names, name))
            return name
        return source.name(self(cls))
