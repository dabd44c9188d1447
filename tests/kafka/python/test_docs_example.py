"""The Python producer and consumer of docs/kafka.md run as written, through the broker of make
test-kafka: a record without headers is refused by the except branch, then the producer's record
is handled."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import uuid
from pathlib import Path

from fbec.model.resolve import compile_schema
from fbec.syntax.diagnostics import Diagnostics
from fbec.targets.base import Options
from fbec.targets.python import generate

REPO = Path(__file__).resolve().parents[3]

PRELUDE = """
import logging
from confluent_kafka import Producer
import proto

logging.basicConfig(level=logging.WARNING, format="%(message)s")
log = logging.getLogger("example")
servers, topic = {servers!r}, {topic!r}
account = proto.Account(id=1, name="Alice", wallet=proto.Balance("USD", 100.0))
running = True
plain = Producer({{"bootstrap.servers": servers}})
plain.produce(topic, value=account.to_fbe())  # no headers: refused
plain.flush()


def handle(value):
    global running
    print("handled", value.name, value == account)
    running = False
"""


def example() -> str:
    text = (REPO / "docs" / "kafka.md").read_text(encoding="utf-8")
    blocks: list[str] = re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL)
    return next(b for b in blocks if "SerializingProducer" in b)


def test_the_producer_and_consumer_of_the_docs_run(tmp_path: Path, bootstrap: str) -> None:
    for f in generate(compile_schema(str(REPO / "schemas" / "trade.fbe"), [], Diagnostics()), Options(final=True)):
        (tmp_path / f.path).write_text(f.text, encoding="utf-8")
    topic = f"python-docs-{uuid.uuid4().hex[:8]}"
    code = PRELUDE.format(servers=bootstrap, topic=topic) + example().replace(
        '"accounts"', "topic").replace('"billing"', "topic")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), str(REPO / "runtime" / "python")]))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env, check=False)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "handled Alice True\n", r.stdout + r.stderr
    assert r.stderr.startswith("refused record at 0: a record this consumer of proto 1.0 (versioned, "), r.stderr
