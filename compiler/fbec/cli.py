"""The `fbec` command line, option-compatible with the original compiler.

    fbec --input=FILE --output=DIR [--cpp] [--python] ... [--final] [--json] [--proto]

Bad input gives `path:line:col: error: ...` diagnostics and exit status 1,
never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from . import __version__
from .model import ir_json
from .model.resolve import compile_schema
from .syntax.diagnostics import CompileError, Diagnostics
from .targets.base import GeneratedFile, Options

# Every language the original fbec knows; a target is a package fbec.targets.<name>.
LANGUAGES = {
    "cpp": "C++", "csharp": "C#", "go": "Go", "java": "Java", "javascript": "JavaScript",
    "kotlin": "Kotlin", "python": "Python", "ruby": "Ruby", "swift": "Swift",
}
NOT_BUILDABLE = {"swift": "Swift cannot be built or tested on this project's machines"}


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="fbec", description="Fast Binary Encoding schema compiler.",
        epilog="Example: fbec --input=proto.fbe --output=gen --cpp --final --json --proto. "
               "Tools: fbec decode|encode|compat|format --help (docs/tools.md).")
    p.add_argument("-v", "--version", action="version", version=f"fbec {__version__}")
    p.add_argument("-i", "--input", metavar="FILE", help="schema file to compile")
    p.add_argument("-o", "--output", metavar="DIR", help="folder for generated files (default: .)")
    p.add_argument("-I", "--import", dest="imports", metavar="DIR", action="append", default=[],
                   help="also look for imported packages in DIR (repeatable; the input's folder comes first)")
    p.add_argument("-q", "--quiet", action="store_true", help="print errors only")
    p.add_argument("-n", "--indent", metavar="N", type=int, default=4, help="indent size (default 4)")
    p.add_argument("-t", "--tabs", action="store_true", help="indent with tabs")
    for lang, title in LANGUAGES.items():
        p.add_argument(f"--{lang}", action="store_true", help=f"generate {title} code")
    p.add_argument("--final", action="store_true", help="also generate the final (compact) model")
    p.add_argument("--json", action="store_true", help="also generate JSON conversion")
    p.add_argument("--proto", action="store_true", help="also generate the protocol (Sender/Receiver/Client)")
    p.add_argument("--sender", dest="proto", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--list-outputs", action="store_true",
                   help="print the path of every file the chosen targets would write, one per line, "
                        "and write nothing (for build systems)")
    p.add_argument("--ir", action="store_true",
                   help="write the resolved IR as JSON (to stdout, or DIR/<package>.ir.json with --output)")
    return p


def _write(out_dir: str, files: Sequence[GeneratedFile], quiet: bool) -> None:
    for f in files:
        path = os.path.join(out_dir, f.path)
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        try:
            with open(path, encoding="utf-8", newline="") as old:
                if old.read() == f.text:
                    continue            # unchanged: keep the timestamp so builds stay incremental
        except OSError:
            pass
        with open(path, "w", encoding="utf-8", newline="") as new:
            new.write(f.text)
        if not quiet:
            print(f"Generated: {path}")


def main(argv: list[str] | None = None) -> int:
    rest = sys.argv[1:] if argv is None else list(argv)
    if rest and rest[0] in ("decode", "encode", "compat", "format"):
        from .tools import tool  # fbec decode|encode|compat|format ... (docs/tools.md)
        return tool(rest[0])(rest[1:])
    args = _parser().parse_args(argv)
    if not args.input:
        print("fbec: error: no input schema: use --input=FILE (see fbec --help)", file=sys.stderr)
        return 1
    if args.indent < 0:
        print("fbec: error: -n/--indent must not be negative", file=sys.stderr)
        return 1
    chosen = [lang for lang in LANGUAGES if getattr(args, lang)]
    if not chosen and not args.ir:
        print("fbec: error: choose what to generate: --ir or a language "
              f"({', '.join('--' + x for x in LANGUAGES)})", file=sys.stderr)
        return 1

    diag = Diagnostics()
    if not os.path.isfile(args.input):
        print(f"fbec: error: input file '{args.input}' does not exist", file=sys.stderr)
        return 1
    try:
        schema = compile_schema(args.input, args.imports, diag)
    except CompileError:
        diag.print(sys.stderr)
        return 1
    diag.print(sys.stderr, quiet_warnings=args.quiet)

    if args.ir and args.list_outputs:
        if args.output is not None:
            print(os.path.join(args.output, f"{schema.main}.ir.json"))
    elif args.ir:
        text = ir_json.dumps(schema)
        if args.output is not None:
            _write(args.output, [GeneratedFile(f"{schema.main}.ir.json", text)], args.quiet)
        else:
            sys.stdout.write(text)

    options = Options(final=args.final, json=args.json, proto=args.proto, indent=args.indent, tabs=args.tabs)
    status = 0
    for lang in chosen:
        if lang in NOT_BUILDABLE:
            print(f"fbec: error: --{lang}: not available ({NOT_BUILDABLE[lang]})", file=sys.stderr)
            status = 1
            continue
        try:
            target = importlib.import_module(f"fbec.targets.{lang}")
        except ModuleNotFoundError as e:
            if e.name and e.name.startswith(f"fbec.targets.{lang}"):
                print(f"fbec: error: --{lang}: the {LANGUAGES[lang]} target is not implemented yet",
                      file=sys.stderr)
                status = 1
                continue
            raise
        files = target.generate(schema, options)
        if args.list_outputs:
            for f in files:
                print(os.path.join(args.output or ".", f.path))
        else:
            _write(args.output or ".", files, args.quiet)
    return status
