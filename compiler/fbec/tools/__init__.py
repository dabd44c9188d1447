"""fbec tools beyond code generation: `fbec decode`, `fbec encode`, `fbec compat`, `fbec format`,
`fbec fingerprint`, `fbec topic`.

Each tool is a module with `main(argv) -> exit status`; `fbec.cli.main`
dispatches to it when the first argument is the tool's name. See docs/tools.md.
"""

from __future__ import annotations

import argparse
import importlib
from typing import Callable

TOOLS: dict[str, str] = {
    "decode": "fbec.tools.codec:decode_main",
    "encode": "fbec.tools.codec:encode_main",
    "compat": "fbec.tools.compat:main",
    "format": "fbec.tools.format:main",
    "fingerprint": "fbec.tools.fingerprint:main",
    "topic": "fbec.tools.topic:main",
}


def add_imports(p: argparse.ArgumentParser) -> None:
    """The -I/--import option every tool that reads a schema takes (args.imports: the folders)."""
    p.add_argument("-I", "--import", dest="imports", metavar="DIR", action="append", default=[],
                   help="also look for imported packages in DIR (repeatable)")


def tool(name: str) -> Callable[[list[str]], int]:
    module, _, func = TOOLS[name].partition(":")
    return getattr(importlib.import_module(module), func)  # type: ignore[no-any-return]


PARSERS: dict[str, str] = {
    "decode": "fbec.tools.codec:_decode_parser",
    "encode": "fbec.tools.codec:_encode_parser",
    "compat": "fbec.tools.compat:_parser",
    "format": "fbec.tools.format:_parser",
    "fingerprint": "fbec.tools.fingerprint:_parser",
    "topic": "fbec.tools.topic:_parser",
}


def parser(name: str) -> argparse.ArgumentParser:
    """The argument parser of a tool (for shell completion)."""
    module, _, func = PARSERS[name].partition(":")
    return getattr(importlib.import_module(module), func)()  # type: ignore[no-any-return]
