"""fbec.targets.jvm: what the Java and Kotlin targets share (issue 22 item 3): one JVM generator.

Both languages run on one runtime (`io.github.fbetoolkit.fbe`, runtime/java), so their generated
code makes the same decisions: the same runtime calls in the same order at the plan's offsets,
the same checks, the same locals. The walkers here (models.py: both binary models and verify;
jsonc.py: JSON; text.py: the text form) make those decisions once, over the plan
(fbec.model.plan), and ask the file's context (context.Context, subclassed by
fbec.targets.java.syntax and fbec.targets.kotlin.syntax) for the text of each construct: a local,
a loop, a try/catch, a value crossing to the runtime's type. The language packages keep what is
only theirs: the declarations of classes, enums and members, and their documentation.

This package is not a target of its own (fbec has no --jvm): it has no `generate`.
"""
