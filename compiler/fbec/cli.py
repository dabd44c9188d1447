"""The `fbec` command line, option-compatible with the original compiler.

    fbec --input=FILE --output=DIR [--cpp] [--python] [--go] [--java] [--kotlin] [--typescript]
         [--javascript] [--final] [--json] [--proto]

Bad input gives `path:line:col: error: ...` diagnostics and exit status 1,
never a traceback; a usage error (a missing or unknown option, a missing
file, a language fbec cannot generate yet) exits 2.
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import sys
import textwrap
from collections.abc import Sequence
from types import ModuleType

from . import __version__
from .model import ir_json
from .model.resolve import compile_schema
from .syntax.diagnostics import CompileError, Diagnostics
from .targets.base import GeneratedFile, NameClash, Options

# The languages fbec generates; a target is a package fbec.targets.<name>.
TARGETS = {"cpp": "C++", "python": "Python", "go": "Go", "java": "Java", "typescript": "TypeScript",
           "javascript": "JavaScript", "kotlin": "Kotlin", "rust": "Rust",
           "csharp": "C#", "ruby": "Ruby"}
# What the help says beside a target's option: every target generates types, both binary models
# (--final), JSON (--json), the text form and the protocol (--proto); these notes say what differs.
NOTES = {"javascript": "ES modules with .d.ts declarations, the code of --typescript",
         "kotlin": "on the Java runtime",
         "csharp": "on Mono and .NET"}
# Options of the original compiler for languages we do not generate yet: accepted, not listed,
# and answered with what is planned (exit 2).
PLANNED: dict[str, str] = {}
NOT_SUPPORTED = {"swift": "not supported: fbec checks the code it generates by compiling and running it, "
                          "and it has no Swift compiler to do that with, so it generates no Swift"}
LANGUAGES = {**TARGETS, **PLANNED, "swift": "Swift"}

# --package-prefix: a dotted name of identifiers (each part escaped as the target escapes a domain's)
PACKAGE_PREFIX = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")

EXIT_OK, EXIT_ERRORS, EXIT_USAGE = 0, 1, 2
EXIT_PIPE_CLOSED = 141
"""The reader of our output went away (`fbec ... | head`): what a program stopped by SIGPIPE returns."""

EXIT_STATUS_HELP = ("Exit status: 0 success; 1 errors in the schema (diagnostics) or a failed check (malformed "
                    "data, an incompatible change, unformatted files); 2 usage errors (a missing or unknown "
                    "option, a file that does not exist, a language fbec does not generate).")

TOOL_NAMES = ("decode", "encode", "compat", "format", "fingerprint", "topic")


def _epilog() -> str:
    planned = ", ".join(f"{title} (--{lang})" for lang, title in PLANNED.items())
    paragraphs = [
        "Example: fbec --input=proto.fbe --output=gen --cpp --final --json --proto",
        "Tools: fbec decode|encode|compat|format|fingerprint|topic --help (docs/tools.md)",
        *([f"Planned languages, not available yet: {planned}."] if planned else []),
        f"Swift (--swift): {NOT_SUPPORTED['swift']}.",
        EXIT_STATUS_HELP,
        "Shell completion for bash: source <(fbec --completion bash)",
    ]
    return "\n\n".join(textwrap.fill(x, 79, break_on_hyphens=False) for x in paragraphs)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="fbec", description="Fast Binary Encoding schema compiler.",
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=_epilog())
    p.add_argument("-v", "--version", action="version", version=f"fbec {__version__}")
    p.add_argument("-i", "--input", metavar="FILE", help="schema file to compile")
    p.add_argument("-o", "--output", metavar="DIR", help="folder for generated files (default: .)")
    p.add_argument("-I", "--import", dest="imports", metavar="DIR", action="append", default=[],
                   help="also look for imported packages in DIR (repeatable; the input's folder comes first)")
    p.add_argument("-q", "--quiet", action="store_true", help="print errors only")
    p.add_argument("-n", "--indent", metavar="N", type=int, default=4, help="indent size (default 4)")
    p.add_argument("-t", "--tabs", action="store_true", help="indent with tabs")
    for lang, title in TARGETS.items():
        note = f" ({NOTES[lang]})" if lang in NOTES else ""
        p.add_argument(f"--{lang}", action="store_true", help=f"generate {title} code{note}")
    for lang in [*PLANNED, *NOT_SUPPORTED]:
        p.add_argument(f"--{lang}", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--final", action="store_true", help="also generate the final (compact) model")
    p.add_argument("--json", action="store_true", help="also generate JSON conversion")
    p.add_argument("--proto", action="store_true", help="also generate the protocol (Sender/Receiver/Client)")
    p.add_argument("--sender", dest="proto", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--package-prefix", metavar="PREFIX", default="",
                   help="put the Java and Kotlin packages under PREFIX (a dotted name: PREFIX.com.chronoxor.proto), "
                        "e.g. to hold the Java and the Kotlin code of one schema in one program")
    p.add_argument("--rust-serde", action="store_true",
                   help="the Rust types derive serde's Serialize and Deserialize when the crate's feature "
                        "`serde` is on (the crate declares it and forwards it to fbe/serde)")
    p.add_argument("--list-outputs", action="store_true",
                   help="print the path of every file the chosen targets would write, one per line, "
                        "and write nothing (for build systems)")
    p.add_argument("--ir", action="store_true",
                   help="write the resolved IR as JSON (to stdout, or DIR/<package>.ir.json with --output)")
    p.add_argument("--completion", choices=("bash",),
                   help="print a shell completion script and exit (bash: source <(fbec --completion bash))")
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
    try:
        return _main(sys.argv[1:] if argv is None else list(argv))
    except BrokenPipeError:
        # `fbec ... | head`: the reader has all it wants. Stop quietly, as Unix tools do, and keep
        # the interpreter's last flush from complaining about the closed pipe.
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError, AttributeError):
            pass
        return EXIT_PIPE_CLOSED
    except KeyboardInterrupt:
        return 130


def _usage(message: str) -> int:
    print(f"fbec: error: {message} (see fbec --help)", file=sys.stderr)
    return EXIT_USAGE


def _main(argv: list[str]) -> int:
    if argv and argv[0] in TOOL_NAMES:
        from .tools import run  # fbec decode|encode|compat|format ... (docs/tools.md)
        return run(argv[0], argv[1:])
    args = _parser().parse_args(argv)
    if args.completion:
        from .completion import bash_script
        sys.stdout.write(bash_script())
        return EXIT_OK
    if not args.input:
        return _usage("no input schema: use --input=FILE")
    if args.indent < 0:
        return _usage("-n/--indent must not be negative")
    chosen = [lang for lang in LANGUAGES if getattr(args, lang)]
    if not chosen and not args.ir:
        return _usage("choose what to generate: --ir or a language (" + ", ".join("--" + x for x in TARGETS) + ")")
    if args.package_prefix and not PACKAGE_PREFIX.fullmatch(args.package_prefix):
        return _usage(f"--package-prefix '{args.package_prefix}' is not a dotted name (letters, digits, _)")
    if args.rust_serde and not args.rust:
        return _usage("--rust-serde is an option of --rust")
    if args.package_prefix and not (args.java or args.kotlin):
        return _usage("--package-prefix is for the Java and Kotlin packages: add --java or --kotlin")
    if not os.path.isfile(args.input):
        return _usage(f"input file '{args.input}' does not exist")
    targets = []
    for lang in chosen:
        target = _target(lang)
        if target is None:
            return EXIT_USAGE
        targets.append(target)

    diag = Diagnostics()
    try:
        schema = compile_schema(args.input, args.imports, diag)
    except CompileError:
        diag.print(sys.stderr)
        return EXIT_ERRORS
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

    options = Options(final=args.final, json=args.json, proto=args.proto, indent=args.indent, tabs=args.tabs,
                      package_prefix=args.package_prefix, rust_serde=args.rust_serde)
    for lang, target in zip(chosen, targets):
        try:
            files = target.generate(schema, options)
        except NameClash as e:
            print(f"fbec: error: --{lang}: {e}", file=sys.stderr)
            return EXIT_ERRORS
        if args.list_outputs:
            for f in files:
                print(os.path.join(args.output or ".", f.path))
        else:
            _write(args.output or ".", files, args.quiet)
    return EXIT_OK


def _target(lang: str) -> ModuleType | None:
    """The target module of a language, or None after saying why there is none."""
    if lang in NOT_SUPPORTED:
        print(f"fbec: error: --{lang}: {NOT_SUPPORTED[lang]}", file=sys.stderr)
        return None
    try:
        return importlib.import_module(f"fbec.targets.{lang}")
    except ModuleNotFoundError as e:
        if not (e.name and e.name.startswith(f"fbec.targets.{lang}")):
            raise
    print(f"fbec: error: --{lang}: the {LANGUAGES[lang]} target is planned, not available yet; "
          "fbec generates " + " and ".join(f"{t} (--{x})" for x, t in TARGETS.items()), file=sys.stderr)
    return None
