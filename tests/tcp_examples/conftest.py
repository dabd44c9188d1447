"""Options of the TCP examples' hostile-client tests (test_tcp_hostile.py): which example server
to attack. Each language's suite runs them against its own example (docs/tcp-examples.md):

    pytest tests/tcp_examples --server "build/cpp_proto/tcp/tcp_server" --memory-bounds
    pytest tests/tcp_examples --server "node examples/js/out/src/main.js serve"

Without --server every test is skipped."""

from __future__ import annotations

import shlex

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("tcp examples")
    group.addoption("--server", default=None,
                    help="the example server's command line (shell words); the tests add --port 0 and their limits")
    group.addoption("--memory-bounds", action="store_true",
                    help="the server's resident and virtual size follow what it allocates (C++): check them, "
                         "and run the cases that need an address-space limit")
    group.addoption("--sanitized", action="store_true",
                    help="an ASan build: no memory figures, no address-space limits")


@pytest.fixture(scope="session")
def server_command(request: pytest.FixtureRequest) -> list[str]:
    command = request.config.getoption("--server")
    if not command:
        pytest.skip("no --server given: these tests attack an example server (docs/tcp-examples.md)")
    return shlex.split(command)


@pytest.fixture(scope="session")
def memory_bounds(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--memory-bounds")) and not request.config.getoption("--sanitized")
