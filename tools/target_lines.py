#!/usr/bin/env python3
"""Lines of code of each fbec target: the non-blank lines of its Python files that are not
comments or docstrings (docs/targets.md's before/after table, issue 22).

    python tools/target_lines.py [--markdown] [ROOT]
    python tools/target_lines.py --identical java kotlin [ROOT]

ROOT is a checkout (default: this one); `git worktree add /tmp/old <commit>` gives an older
one to compare. The shared toolkit (targets/base.py) and the model (compiler/fbec/model) are
counted on rows of their own. `--identical A B` counts instead the lines two targets share in
order (issue 22 item 3 asks Java~Kotlin below 100): over each pair of files of the same name,
the lines of difflib's matching blocks, each line stripped, blank and comment lines left out.
Standard library only.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import io
import sys
import tokenize
from pathlib import Path


def code_lines(source: str) -> int:
    """Non-blank lines holding something besides comments and docstrings."""
    docstrings: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                docstrings.update(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    lines: set[int] = set()
    skip = (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
            tokenize.ENDMARKER, tokenize.ENCODING)
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type in skip:
            continue
        lines.update(n for n in range(tok.start[0], tok.end[0] + 1) if n not in docstrings)
    return len(lines)


def count(root: Path) -> dict[str, int]:
    targets = root / "compiler" / "fbec" / "targets"
    out: dict[str, int] = {}
    for folder in sorted(p for p in targets.iterdir() if p.is_dir() and (p / "__init__.py").exists()):
        out[folder.name] = sum(code_lines(f.read_text()) for f in sorted(folder.rglob("*.py")))
    out["(targets/base.py)"] = code_lines((targets / "base.py").read_text())
    model = root / "compiler" / "fbec" / "model"
    out["(model)"] = sum(code_lines(f.read_text()) for f in sorted(model.glob("*.py")))
    return out


def _stripped(source: str) -> list[str]:
    """The lines that are neither blank nor a comment, stripped (indentation and layout aside)."""
    return [s for s in (line.strip() for line in source.splitlines()) if s and not s.startswith("#")]


def identical(root: Path, a: str, b: str) -> dict[str, int]:
    """File name -> lines that targets a and b hold identically in order, for each file both have."""
    targets = root / "compiler" / "fbec" / "targets"
    out: dict[str, int] = {}
    for left in sorted((targets / a).glob("*.py")):
        right = targets / b / left.name
        if right.exists():
            matcher = difflib.SequenceMatcher(None, _stripped(left.read_text()), _stripped(right.read_text()),
                                              autojunk=False)
            out[left.name] = sum(block.size for block in matcher.get_matching_blocks())
    return out


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("root", nargs="?", default=str(Path(__file__).resolve().parents[1]))
    p.add_argument("--markdown", action="store_true", help="a Markdown table")
    p.add_argument("--identical", nargs=2, metavar=("A", "B"),
                   help="the lines targets A and B hold identically in order, per file and in all")
    args = p.parse_args(argv)
    if args.identical:
        same = identical(Path(args.root), *args.identical)
        for name, n in same.items():
            print(f"{name:20} {n:6}")
        print(f"{'(total)':20} {sum(same.values()):6}")
        return 0
    counts = count(Path(args.root))
    if args.markdown:
        print("| target | lines |\n|---|---:|")
        for name, n in counts.items():
            print(f"| {name} | {n:,} |")
    else:
        for name, n in counts.items():
            print(f"{name:20} {n:6}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
