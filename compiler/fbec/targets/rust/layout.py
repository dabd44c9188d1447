"""How rustfmt lays out the code fbec --rust writes, so that the output is rustfmt's already: its
widths, Rust string literals and calls (used by the module code and by json.py)."""

from __future__ import annotations

import re

from fbec.targets.base import CodeWriter, quoted

RUSTFMT_WIDTH = 100   # rustfmt's max_width: the generated code is what rustfmt makes of it
FN_CALL_WIDTH = 60     # rustfmt's fn_call_width: a call with longer arguments has one a line
STRUCT_LIT_WIDTH = 18  # rustfmt's struct_lit_width: a longer struct literal's fields go one per line
# rustfmt's short_array_element_width_threshold: a broken call of such simple arguments packs them
SHORT_ARG_WIDTH = 10


def rust_string(text: str) -> str:
    return quoted(text, lambda o: f"\\u{{{o:x}}}")


SIMPLE_ARG = re.compile(r'(&(mut )?)?[A-Za-z_]\w*(\.\w+)*(\[\w+\])?|"[^"]*"|\d+')


def call(w: CodeWriter, head: str, args: list[str], tail: str) -> None:
    """`head(args)tail` on one line, or as rustfmt breaks a call that does not fit: one argument a
    line, or, when every argument is simple and at most 10 wide (rustfmt's
    short_array_element_width_threshold), as many a line as fit."""
    line = f"{head}({', '.join(args)}){tail}"
    if len(", ".join(args)) <= FN_CALL_WIDTH and len(w.unit) * w.depth + len(line) <= RUSTFMT_WIDTH:
        w.line(line)
        return
    with w.block(f"{head}(", f"){tail}"):
        if len(args) > 1 and all(SIMPLE_ARG.fullmatch(a) and len(a) <= SHORT_ARG_WIDTH for a in args):
            rows: list[str] = []
            for a in args:
                if rows and len(w.unit) * w.depth + len(f"{rows[-1]} {a},") <= RUSTFMT_WIDTH:
                    rows[-1] += f" {a},"
                else:
                    rows.append(f"{a},")
            w.lines("\n".join(rows))
            return
        for a in args:
            w.line(f"{a},")
