"""fbec tools beyond code generation: `fbec decode`, `fbec encode`, `fbec compat`, `fbec format`,
`fbec fingerprint`, `fbec topic`.

Each tool is a module with a function that builds its argument parser and one that runs on the
parsed arguments and returns the exit status (TOOLS); `fbec.cli.main` dispatches to `run` when the
first argument is a tool's name. See docs/tools.md.
"""

from __future__ import annotations

import argparse
import importlib

TOOLS: dict[str, tuple[str, str, str]] = {
    # name: (module, the function that builds its argument parser, the function that runs it on the parsed args)
    "decode": ("fbec.tools.codec", "_decode_parser", "decode"),
    "encode": ("fbec.tools.codec", "_encode_parser", "encode"),
    "compat": ("fbec.tools.compat", "_parser", "run"),
    "format": ("fbec.tools.format", "_parser", "run"),
    "fingerprint": ("fbec.tools.fingerprint", "_parser", "run"),
    "topic": ("fbec.tools.topic", "_parser", "run"),
}


def add_imports(p: argparse.ArgumentParser) -> None:
    """The -I/--import option every tool that reads a schema takes (args.imports: the folders)."""
    p.add_argument("-I", "--import", dest="imports", metavar="DIR", action="append", default=[],
                   help="also look for imported packages in DIR (repeatable)")


def parser(name: str) -> argparse.ArgumentParser:
    """The argument parser of a tool (for shell completion)."""
    module, make, _ = TOOLS[name]
    return getattr(importlib.import_module(module), make)()  # type: ignore[no-any-return]


def run(name: str, argv: list[str]) -> int:
    """`fbec <name> ARGS...`: the tool run on its parsed arguments; its exit status."""
    module, _, func = TOOLS[name]
    return getattr(importlib.import_module(module), func)(parser(name).parse_args(argv))  # type: ignore[no-any-return]
