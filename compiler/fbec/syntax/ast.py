"""Syntax tree of one `.fbe` file, as written, with source positions.

Nothing here is resolved: names are plain text and literals keep their
spelling. `fbec.model.resolve` turns a set of these into the IR.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .diagnostics import Position


@dataclass(frozen=True)
class Name:
    text: str              # possibly dotted: "proto.Order"
    position: Position


@dataclass(frozen=True)
class Attributes:
    hidden: bool = False
    deprecated: bool = False


@dataclass(frozen=True)
class Literal:
    """One atom of a value: kind is int|float|char|string|name."""
    kind: str
    text: str              # as written (with quotes for char/string)
    position: Position


@dataclass(frozen=True)
class ValueExpr:
    """`atom { '|' name }` — one literal or a `|`-chain of names."""
    atoms: tuple[Literal, ...]
    position: Position


@dataclass(frozen=True)
class EnumValueDecl:
    name: Name
    value: ValueExpr | None
    attributes: Attributes


@dataclass(frozen=True)
class EnumDecl:
    kind: str              # "enum" | "flags"
    name: Name
    base: Name | None
    values: tuple[EnumValueDecl, ...]
    attributes: Attributes
    position: Position


@dataclass(frozen=True)
class TypeExpr:
    """`element` with an optional container: None | array | vector | list | set | map | hash | reset."""
    element: Name
    element_optional: bool
    container: str | None
    array_size: Literal | None = None
    key: Name | None = None
    position: Position | None = None


@dataclass(frozen=True)
class FieldDecl:
    name: Name
    type: TypeExpr
    key: bool
    id: bool
    default: ValueExpr | None
    attributes: Attributes
    position: Position


@dataclass(frozen=True)
class RejectDecl:
    name: Name
    global_: bool


@dataclass(frozen=True)
class StructDecl:
    message: bool
    name: Name
    numbering: tuple[str, Literal | None] | None   # ("fixed", n) | ("shift", n) | ("base", None)
    base: Name | None
    fields: tuple[FieldDecl, ...]
    attributes: Attributes
    position: Position
    request: bool = False
    response: Name | None = None
    rejects: tuple[RejectDecl, ...] = ()


@dataclass
class SchemaFile:
    path: str
    package: Name | None = None
    offset: Literal | None = None
    domain: Name | None = None
    version: Literal | None = None
    imports: list[Name] = field(default_factory=list)
    enums: list[EnumDecl] = field(default_factory=list)       # enums and flags, in order
    structs: list[StructDecl] = field(default_factory=list)
