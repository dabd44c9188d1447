"""Java's syntax of what the JVM walkers write (fbec.targets.jvm): the JVM default (jvm/context.py's
Context spells every construct, type and literal as Java does), with Java's identifiers."""

from __future__ import annotations

from fbec.targets.java.names import Idents
from fbec.targets.jvm import context


class Context(context.Context):
    """What one generated Java file needs: jvm.context.Context, whose spelling is Java's."""

    IDENTS = Idents
