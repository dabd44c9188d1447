"""A user's program on the installed `fbe` package and the code `fbec --python` generated into gen/.

    python app.py write OUT         writes the sample shop.Order (versioned model) to OUT
    python app.py roundtrip IN OUT  reads a shop.Order from IN and writes it back to OUT
"""

import sys
import uuid
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "gen"))
import shop  # noqa: E402  (generated)


def sample() -> shop.Order:
    return shop.Order(
        cart=shop.Cart(
            id=uuid.UUID("123e4567-e89b-12d3-a456-426655440000"),
            color=shop.Color.blue,
            perm=shop.Perm.read | shop.Perm.write,
            note=-7,
            memo=None,
            lines=[shop.Line(sku="A-1", qty=2), shop.Line(sku="Ünï", qty=-3)],
            prices={"A-1": Decimal("19.99"), "B-2": Decimal("-0.000001"), "C": Decimal("79228162514264337593543950335")},
            at=1_700_000_000_123_456_789,
        )
    )


def main(argv: list[str]) -> None:
    if argv[0] == "write":
        Path(argv[1]).write_bytes(sample().to_fbe())
    else:
        Path(argv[2]).write_bytes(shop.Order.from_fbe(Path(argv[1]).read_bytes()).to_fbe())


if __name__ == "__main__":
    main(sys.argv[1:])
