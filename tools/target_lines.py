#!/usr/bin/env python3
"""Lines of code of each fbec target: the non-blank lines of its Python files that are not
comments or docstrings (docs/targets.md's before/after table, issue 22).

    python tools/target_lines.py [--markdown] [ROOT]

ROOT is a checkout (default: this one); `git worktree add /tmp/old <commit>` gives an older
one to compare. The shared toolkit (targets/base.py) and the model (compiler/fbec/model) are
counted on rows of their own. Standard library only.
"""

from __future__ import annotations

import argparse
import ast
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


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("root", nargs="?", default=str(Path(__file__).resolve().parents[1]))
    p.add_argument("--markdown", action="store_true", help="a Markdown table")
    args = p.parse_args(argv)
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
