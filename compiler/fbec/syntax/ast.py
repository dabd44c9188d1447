"""Syntax tree of one `.fbe` file, as written, with source positions.

Nothing here is resolved: names are plain text and literals keep their
spelling. `fbec.model.resolve` turns a set of these into the IR.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Optional, Tuple

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
    atoms: Tuple[Literal, ...]
    position: Position


@dataclass(frozen=True)
class EnumValueDecl:
    name: Name
    value: Optional[ValueExpr]
    attributes: Attributes


@dataclass(frozen=True)
class EnumDecl:
    kind: str              # "enum" | "flags"
    name: Name
    base: Optional[Name]
    values: Tuple[EnumValueDecl, ...]
    attributes: Attributes
    position: Position


@dataclass(frozen=True)
class TypeExpr:
    """`element` with an optional container: None | array | vector | list | set | map | hash | reset."""
    element: Name
    element_optional: bool
    container: Optional[str]
    array_size: Optional[Literal] = None
    key: Optional[Name] = None
    position: Optional[Position] = None


@dataclass(frozen=True)
class FieldDecl:
    name: Name
    type: TypeExpr
    key: bool
    id: bool
    default: Optional[ValueExpr]
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
    numbering: Optional[Tuple[str, Optional[Literal]]]   # ("fixed", n) | ("shift", n) | ("base", None)
    base: Optional[Name]
    fields: Tuple[FieldDecl, ...]
    attributes: Attributes
    position: Position
    request: bool = False
    response: Optional[Name] = None
    rejects: Tuple[RejectDecl, ...] = ()


@dataclass
class SchemaFile:
    path: str
    package: Optional[Name] = None
    offset: Optional[Literal] = None
    domain: Optional[Name] = None
    version: Optional[Literal] = None
    imports: List[Name] = field(default_factory=list)
    enums: List[EnumDecl] = field(default_factory=list)       # enums and flags, in order
    structs: List[StructDecl] = field(default_factory=list)
