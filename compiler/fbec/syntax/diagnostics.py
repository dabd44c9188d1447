"""Compiler diagnostics: `path:line:col: error: message`, the source line, a caret.

Every stage reports through a `Diagnostics` sink so one run can show several
errors; `CompileError` stops a stage when going on would only add noise.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TextIO


@dataclass(frozen=True)
class Position:
    file: str
    line: int      # 1-based
    column: int    # 1-based, in characters

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


@dataclass(frozen=True)
class Diagnostic:
    severity: str              # "error" | "warning" | "note"
    message: str
    position: Position | None

    def render(self, sources: dict[str, str]) -> str:
        if self.position is None:
            return f"fbec: {self.severity}: {self.message}"
        head = f"{self.position}: {self.severity}: {self.message}"
        text = sources.get(self.position.file)
        if text is None:
            return head
        lines = text.splitlines()
        if not 1 <= self.position.line <= len(lines):
            return head
        source, column = _excerpt(lines[self.position.line - 1].expandtabs(1), self.position.column)
        return f"{head}\n    {source}\n    {' ' * (column - 1)}^"


EXCERPT_WIDTH = 100
"""A source line longer than this is shown cut around the caret, with `...` where text is left out."""


def _excerpt(line: str, column: int) -> tuple[str, int]:
    """The part of `line` shown under a diagnostic and the caret's column in it."""
    if len(line) <= EXCERPT_WIDTH:
        return line, column
    start = max(0, min(column - 1 - EXCERPT_WIDTH // 2, len(line) - EXCERPT_WIDTH))
    end = start + EXCERPT_WIDTH
    shown = ("..." if start else "") + line[start:end] + ("..." if end < len(line) else "")
    return shown, column - start + (3 if start else 0)


class CompileError(Exception):
    """Raised to abandon compilation after errors were reported."""


class Diagnostics:
    """Collects diagnostics in the order they are found."""

    def __init__(self) -> None:
        self.items: list[Diagnostic] = []
        self.sources: dict[str, str] = {}

    def add_source(self, path: str, text: str) -> None:
        self.sources[path] = text

    def error(self, message: str, position: Position | None = None) -> None:
        self.items.append(Diagnostic("error", message, position))

    def warning(self, message: str, position: Position | None = None) -> None:
        self.items.append(Diagnostic("warning", message, position))

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity == "error"]

    @property
    def has_errors(self) -> bool:
        return any(d.severity == "error" for d in self.items)

    def check(self) -> None:
        """Stops compilation if any error was reported so far."""
        if self.has_errors:
            raise CompileError(f"{len(self.errors)} error(s)")

    def render(self, quiet_warnings: bool = False) -> str:
        files = list(self.sources)

        def order(d: Diagnostic) -> tuple[int, int, int]:
            if d.position is None:
                return (-1, 0, 0)
            index = files.index(d.position.file) if d.position.file in files else len(files)
            return (index, d.position.line, d.position.column)

        shown = sorted((d for d in self.items if not (quiet_warnings and d.severity == "warning")), key=order)
        return "\n".join(d.render(self.sources) for d in shown)

    def print(self, stream: TextIO, quiet_warnings: bool = False) -> None:
        text = self.render(quiet_warnings)
        if text:
            stream.write(text + "\n")
