"""Fixtures of the Python Kafka tests (fbe.kafka over confluent-kafka, docs/kafka.md): the trade
schema's generated module and fingerprint, and the broker make test-kafka started.

make test-kafka runs these with -qq and counts the closing line `kafka-python: N passed, N failed,
N skipped` (tools/run_suites.py)."""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from fbec.model.fingerprint import fingerprint
from fbec.model.resolve import compile_schema
from fbec.syntax.diagnostics import Diagnostics
from fbec.targets.base import Options
from fbec.targets.python import generate

REPO = Path(__file__).resolve().parents[3]
TRADE = REPO / "schemas" / "trade.fbe"


@pytest.fixture(scope="session")
def proto(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    """fbec --python --final of schemas/trade.fbe, imported."""
    out = tmp_path_factory.mktemp("trade")
    for f in generate(compile_schema(str(TRADE), [], Diagnostics()), Options(final=True)):
        (out / f.path).write_text(f.text, encoding="utf-8")
    sys.path.insert(0, str(out))
    try:
        sys.modules.pop("proto", None)
        return importlib.import_module("proto")
    finally:
        sys.path.remove(str(out))


@pytest.fixture(scope="session")
def evolved(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    """fbec --python --final of the evolution case's newer schema (schemas/trade.fbe with
    Account.note appended, version 1.1: FBE_KAFKA_EVOLVED, made by mk/kafka.mk), imported as the
    module evolved_proto (its package is proto too)."""
    path = os.environ.get("FBE_KAFKA_EVOLVED")
    if not path:
        pytest.fail("FBE_KAFKA_EVOLVED is not set (make kafka-python passes the evolved schema mk/kafka.mk makes)")
    out = tmp_path_factory.mktemp("evolved")
    for f in generate(compile_schema(path, [], Diagnostics()), Options(final=True)):
        (out / f.path).write_text(f.text, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("evolved_proto", out / "proto.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def topic_record_accepts() -> tuple[list[str], list[str]]:
    """The lists `fbec topic accept` printed for the two schemas of the evolution case's topic
    record, schemas/trade.fbe's and the evolved schema's (make kafka-python passes them
    comma-separated in FBE_KAFKA_ACCEPT and FBE_KAFKA_ACCEPT_EVOLVED)."""
    lists = []
    for env in ("FBE_KAFKA_ACCEPT", "FBE_KAFKA_ACCEPT_EVOLVED"):
        fingerprints = os.environ.get(env, "").split(",")
        if len(fingerprints) != 2:
            pytest.fail(f"{env} is {os.environ.get(env)!r}, not two fingerprints (make kafka-python passes "
                        "fbec topic accept's lists)")
        lists.append(fingerprints)
    return lists[0], lists[1]


@pytest.fixture(scope="session")
def account(proto: ModuleType) -> Callable[[int], Any]:
    """account(id): the Account the Java, Go and JS Kafka tests send (same fields, same values)."""

    def make(id: int) -> Any:
        orders = [proto.Order(id=id * 10 + i, symbol="EURUSD",
                              side=proto.OrderSide.buy if i % 2 == 0 else proto.OrderSide.sell,
                              type=proto.OrderType.limit, price=1.23456 + i, volume=1000.0 * i) for i in range(3)]
        return proto.Account(id=id, name=f"Account {id} \u00e9\u20ac", wallet=proto.Balance("USD", 1000.5 + id),
                             asset=proto.Balance("EUR", 10.0), orders=orders)

    return make


@pytest.fixture(scope="session")
def trade_fingerprint() -> str:
    """What `fbec fingerprint schemas/trade.fbe` prints for package proto."""
    return fingerprint(compile_schema(str(TRADE), [], Diagnostics()), "proto")


@pytest.fixture(scope="session")
def bootstrap() -> str:
    """The broker of make test-kafka (tests/kafka/broker.py run sets FBE_KAFKA_BOOTSTRAP)."""
    address = os.environ.get("FBE_KAFKA_BOOTSTRAP")
    if not address:
        pytest.fail("no broker: FBE_KAFKA_BOOTSTRAP is not set (make test-kafka starts one: "
                    "python tests/kafka/broker.py run -- pytest tests/kafka/python)")
    return address


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    stats = terminalreporter.stats
    passed = len(stats.get("passed", [])) + len(stats.get("xpassed", []))
    failed = len(stats.get("failed", [])) + len(stats.get("error", []))
    skipped = len(stats.get("skipped", [])) + len(stats.get("xfailed", []))
    terminalreporter.write_line(f"kafka-python: {passed} passed, {failed} failed, {skipped} skipped")
