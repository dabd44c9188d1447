#!/usr/bin/env python3
"""Starts tcp_server on an ephemeral port of 127.0.0.1, runs tcp_client
against it and checks that both exit cleanly within a bounded time.

    run_loopback.py SERVER CLIENT [client options...]   (--final goes to both)
"""
import subprocess
import sys
import time


def main() -> int:
    server_exe, client_exe, *client_args = sys.argv[1:]
    # --final is a property of the stream: both ends get it.
    server_args = ["--final"] if "--final" in client_args else []
    server = subprocess.Popen([server_exe, "--port", "0", "--once", *server_args], stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline().strip()
        if not line.startswith("listening on "):
            print(f"run_loopback: unexpected server output {line!r}", file=sys.stderr)
            return 1
        port = line.rsplit(":", 1)[1]
        print(f"run_loopback: server {line}")
        start = time.monotonic()
        client = subprocess.run([client_exe, "--port", port, *client_args], check=False, timeout=30)
        print(f"run_loopback: client exit {client.returncode} after {time.monotonic() - start:.2f} s")
        # The server exits by itself once its client has gone.
        rest, _ = server.communicate(timeout=10)
        sys.stdout.write(rest)
        print(f"run_loopback: server exit {server.returncode}")
        return 0 if client.returncode == 0 and server.returncode == 0 else 1
    except subprocess.TimeoutExpired as ex:
        print(f"run_loopback: timeout: {ex}", file=sys.stderr)
        return 1
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()


if __name__ == "__main__":
    sys.exit(main())
