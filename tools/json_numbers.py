"""Random JSON number cases with the Python runtime's answers (runtime/python/fbe/jsonfmt.py), which
the Go and Java runtimes' tests compare their own answers with: the text of doubles and floats
(RapidJSON master's Grisu2 digits, docs/format.md 8.4), of double and float map keys, and decimal
text read and written back. A line per case: its kind, the input and the answer, tab-separated.
"""

from __future__ import annotations

import random
import struct

from fbe.jsonfmt import decimal_text, json_double, json_double_key, json_float_key, parse_decimal


def double(bits: int) -> float:
    return float(struct.unpack("<d", struct.pack("<Q", bits))[0])


def float32(bits: int) -> float:
    return float(struct.unpack("<f", struct.pack("<I", bits))[0])


def bits_of(value: float) -> int:
    return int(struct.unpack("<Q", struct.pack("<d", value))[0])


def random_decimal(rng: random.Random) -> str:
    """Decimal text of every shape: signs, long integer and fraction parts, exponents."""
    sign = rng.choice(["", "", "-", "+"])
    whole = "".join(rng.choice("0123456789") for _ in range(rng.choice([0, 1, 3, 15, 28, 29, 30, 35])))
    fraction = "".join(rng.choice("0123456789") for _ in range(rng.choice([0, 1, 6, 20, 28, 29, 31, 40])))
    text = sign + whole + ("." + fraction if fraction or rng.random() < 0.1 else "")
    if rng.random() < 0.3:
        text += rng.choice("eE") + rng.choice(["", "+", "-"]) + str(rng.choice([0, 1, 5, 28, 29, 40, 1234567]))
    return text


def number_cases(seed: int, doubles: int, floats: int, keys: int, decimals: int) -> list[str]:
    """`doubles` double texts, `floats` float texts, `keys` double and float key pairs and
    `decimals` decimal texts, drawn from `seed`."""
    rng = random.Random(seed)
    lines: list[str] = []
    for i in range(doubles):
        if i % 4 == 0:
            bits = bits_of(rng.uniform(-1e6, 1e6))           # the common range of prices and amounts
        elif i % 4 == 1:
            bits = bits_of(round(rng.uniform(-1e4, 1e4), rng.randrange(1, 9)))
        else:
            bits = rng.getrandbits(64)                        # every exponent, subnormals, NaN payloads
        lines.append(f"d\t{bits:x}\t{json_double(double(bits))}")
    for _ in range(floats):
        value = float32(rng.getrandbits(32))
        lines.append(f"d\t{bits_of(value):x}\t{json_double(value)}")
    for _ in range(keys):
        bits = rng.getrandbits(64) if rng.random() < 0.5 else bits_of(rng.uniform(-1e9, 1e9))
        lines.append(f"kd\t{bits:x}\t{json_double_key(double(bits))}")
        bits32 = rng.getrandbits(32)
        lines.append(f"kf\t{bits32:x}\t{json_float_key(float32(bits32))}")
    for _ in range(decimals):
        text = random_decimal(rng)
        try:
            want = decimal_text(parse_decimal(text))
        except ValueError:
            want = "error"
        lines.append(f"dec\t{text}\t{want}")
    return lines
