"""The limits of every reader (docs/limits.md): one options object, the same defaults in every language."""

from __future__ import annotations

from dataclasses import dataclass

MAX_DEPTH = 128
"""Deepest struct nesting a reader accepts and a writer writes (the root struct is level 1)."""

BUDGET_FACTOR = 8
"""A decode may materialize this many bytes (counted in final-model minimum sizes) per input byte..."""

BUDGET_SLACK = 4096
"""... plus this many."""

MAX_FRAME_SIZE = 64 << 20
"""The largest protocol frame a Receiver accepts (64 MiB)."""


@dataclass(frozen=True)
class Limits:
    """Options of one reader, as FlatBuffers' ``Verifier`` options (docs/limits.md, section 5).

    ``Account.from_fbe(data, limits=fbe.Limits(budget_factor=32))``,
    ``AccountModel(limits=...)``, ``Receiver(limits=...)``.
    """

    max_depth: int = MAX_DEPTH
    budget_factor: int = BUDGET_FACTOR
    budget_slack: int = BUDGET_SLACK
    max_frame_size: int = MAX_FRAME_SIZE

    def budget(self, input_size: int) -> int:
        """The decode budget in bytes of an input of ``input_size`` bytes."""
        return self.budget_factor * input_size + self.budget_slack


DEFAULT_LIMITS = Limits()
