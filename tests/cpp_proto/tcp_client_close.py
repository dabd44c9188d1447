#!/usr/bin/env python3
"""tcp_client when the server closes the connection (issue 14 item 8): one end with --final, the
other without. The server drops the connection with one message naming the likely cause, and
tcp_client notices at once (long before its 5 s request timeout), says so in one line and exits 1.

    tcp_client_close.py SERVER CLIENT

What the server does to hostile clients is tested for every language's example by
tests/tcp_examples (docs/tcp-examples.md); this is the C++ client's side. Exit status 0 = pass.
"""

from __future__ import annotations

import subprocess
import sys
import time


def run(server_exe: str, client_exe: str, server_args: list[str], client_args: list[str]) -> str | None:
    """None when it went as it should, else what went wrong."""
    server = subprocess.Popen([server_exe, "--port", "0", "--once", *server_args],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        line = server.stdout.readline().strip()
        if not line.startswith("listening on "):
            return f"unexpected server output {line!r}"
        port = line.rsplit(":", 1)[1]
        start = time.monotonic()
        client = subprocess.run([client_exe, "--port", port, "--messages", "1000", *client_args],
                                capture_output=True, text=True, timeout=60, check=False)
        seconds = time.monotonic() - start
        print(f"  client: exit {client.returncode} after {seconds:.2f} s: {client.stderr.strip()}")
        if client.returncode != 1:
            return f"client exit {client.returncode}, expected 1"
        if seconds >= 3 or "Timeout" in client.stderr:
            return f"the client took {seconds:.1f} s to notice the close (waited for timeouts?)"
        if client.stderr.count("the server closed the connection") != 1:
            return f"the client did not report the close once: {client.stderr!r}"
        if server.wait(timeout=10) != 0:
            return "the --once server did not exit cleanly"
        errors = server.stderr.read().splitlines()  # type: ignore[union-attr]
        print("  server: " + "\n  server: ".join(errors))
        drops = [e for e in errors if "dropping the connection" in e]
        if len(drops) != 1 or len(errors) != 1 or "--final" not in drops[0]:
            return f"expected one server message naming --final, got {errors}"
        return None
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    server_exe, client_exe = sys.argv[1:]
    for server_args, client_args in (([], ["--final"]), (["--final"], [])):
        print(f"server {' '.join(server_args) or '(versioned)'}, client {' '.join(client_args) or '(versioned)'}")
        problem = run(server_exe, client_exe, server_args, client_args)
        if problem:
            print(f"FAILED: {problem}")
            return 1
    print("passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
