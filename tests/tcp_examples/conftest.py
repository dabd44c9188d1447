"""Options of the TCP examples' hostile-client tests (test_tcp_hostile.py): which example server
to attack. Each language's suite runs them against its own example (docs/tcp-examples.md):

    pytest tests/tcp_examples --server "build/cpp_proto/tcp/tcp_server" --memory-bounds
    pytest tests/tcp_examples --server "node examples/js/out/src/main.js serve"

Without --server the run fails: a run that attacked no server is no pass."""

from __future__ import annotations

import shlex

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("tcp examples")
    group.addoption("--server", default=None,
                    help="the example server's command line (shell words); the tests add --port 0 and their limits")
    group.addoption("--client", default=None,
                    help="the example client's command line (shell words, {address} for HOST:PORT, {port} for "
                         "PORT; the tests add --final for the final model): its cases run against the --server")
    group.addoption("--memory-bounds", action="store_true",
                    help="the server's resident and virtual size follow what it allocates (C++): check them, "
                         "and run the cases that need an address-space limit")
    group.addoption("--sanitized", action="store_true",
                    help="an ASan build: no memory figures, no address-space limits")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "memory_bounds: a case that needs --memory-bounds (deselected without)")
    config.addinivalue_line("markers", "client: a case of the example's client (deselected without --client)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A case that needs an address-space limit is no test of a server without memory bounds (Go, an
    ASan build), and a case of the client none of a run without --client: deselected, not skipped."""
    def needs(item: pytest.Item) -> bool:
        if item.get_closest_marker("client"):
            return not config.getoption("--client")
        if item.get_closest_marker("memory_bounds"):
            return not config.getoption("--memory-bounds") or bool(config.getoption("--sanitized"))
        return False

    needing = [item for item in items if needs(item)]
    if needing:
        config.hook.pytest_deselected(items=needing)
        items[:] = [item for item in items if item not in needing]


@pytest.fixture(scope="session")
def server_command(request: pytest.FixtureRequest) -> list[str]:
    command = request.config.getoption("--server")
    if not command:
        raise pytest.UsageError("no --server given: these tests attack an example server (docs/tcp-examples.md)")
    return shlex.split(command)


@pytest.fixture(scope="session")
def client_command(request: pytest.FixtureRequest) -> list[str]:
    return shlex.split(request.config.getoption("--client"))


@pytest.fixture(scope="session")
def memory_bounds(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--memory-bounds")) and not request.config.getoption("--sanitized")
