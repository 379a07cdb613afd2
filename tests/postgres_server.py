"""A throwaway PostgreSQL 15 server for the tests: its own data folder and unix socket in a temporary folder, no fsync
(or, `durable`, fsync and synchronous_commit on, as a production server commits), stopped and deleted at the end.
No TCP unless asked for (`tcp=True`): then it also listens on 127.0.0.1 on a free port, where every connection must
give its role's password (scram-sha-256), as a deployment asks.

    python tests/postgres_server.py --durable    # a durable one for the benchmark: prints its DSN, Ctrl+C stops it

PostgreSQL refuses to run as root, so as root its programs run as the `postgres` user (through runuser); as anyone
else they run as that user."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import pytest

BIN = Path("/usr/lib/postgresql/15/bin")


def binaries_present() -> bool:
    return all((BIN / name).is_file() for name in ("initdb", "pg_ctl", "postgres"))


def start_or_skip(name: str, required: bool, *, tcp: bool = False) -> PostgresServer:
    """Start a server; where its programs are missing, skip the test, or fail it when a server is `required`."""
    if not binaries_present():
        message = f"no PostgreSQL 15 server binaries in {BIN}"
        if required:
            pytest.fail(f"{message}, and STRATEGOS_TEST_POSTGRES=require")
        pytest.skip(message)
    return PostgresServer.start(name, tcp=tcp)


class PostgresServer:
    """One server; `dsn()` names a database on it (over the unix socket, user postgres, no password)."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.data = folder / "data"
        self.socket_dir = folder / "socket"
        self.log = folder / "server.log"
        self.port: int | None = None  # TCP on 127.0.0.1, when started with tcp=True
        self.flush = "-c fsync=off"
        self._as_root = os.geteuid() == 0

    def _run(self, *args: str) -> None:
        prefix = ["runuser", "-u", "postgres", "--"] if self._as_root else []
        done = subprocess.run(prefix + list(args), capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            log = self.log.read_text(errors="replace") if self.log.exists() else ""
            raise RuntimeError(f"{' '.join(args)} failed ({done.returncode}):\n{done.stdout}{done.stderr}{log}")

    @classmethod
    def start(cls, name: str, *, tcp: bool = False, durable: bool = False) -> PostgresServer:
        folder = Path(tempfile.mkdtemp(prefix=f"strategos-pg-{name}-"))
        server = cls(folder)
        try:
            server.socket_dir.mkdir()
            if server._as_root:
                shutil.chown(folder, "postgres", "postgres")
                shutil.chown(server.socket_dir, "postgres", "postgres")
            # The unix socket trusts its users; TCP (only with tcp=True) asks for a password.
            server._run(str(BIN / "initdb"), "-D", str(server.data), "-U", "postgres", "--auth-local=trust",
                        "--auth-host=scram-sha-256", "--encoding=UTF8", "--locale=C", "--no-sync")
            server.port = free_port() if tcp else None
            server.flush = "-c fsync=on -c synchronous_commit=on" if durable else "-c fsync=off"
            server.start_again()
        except BaseException:
            server.stop()
            raise
        return server

    def start_again(self) -> None:
        """Start the server (after stop_only): the same data, socket and port."""
        listen = f"-c listen_addresses=127.0.0.1 -p {self.port}" if self.port else "-c listen_addresses=''"
        options = f"{self.flush} {listen} -k {self.socket_dir}"
        self._run(str(BIN / "pg_ctl"), "-D", str(self.data), "-l", str(self.log), "-o", options,
                  "-w", "-t", "60", "start")

    def stop_only(self, mode: str = "fast") -> None:
        """Stop the server and keep its data, as an administrator's restart does (`fast`: open connections are
        cut off, transactions in flight roll back)."""
        self._run(str(BIN / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop")

    def dsn(self, database: str = "postgres") -> str:
        port = f"&port={self.port}" if self.port else ""  # the socket file is named after the port
        return f"postgresql://postgres@/{database}?host={self.socket_dir}{port}"

    def tcp_dsn(self, user: str, password: str, database: str) -> str:
        """A database over TCP with a password, as a deployment names it (needs tcp=True)."""
        return f"postgresql://{user}:{password}@127.0.0.1:{self.port}/{database}"

    def stop(self) -> None:
        """Stop the server (when it runs) and delete its folder."""
        try:
            if (self.data / "postmaster.pid").exists():
                self._run(str(BIN / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


if __name__ == "__main__":
    import signal
    import sys

    server = PostgresServer.start("bench", durable="--durable" in sys.argv)
    try:
        print(server.dsn(), flush=True)
        stop = {signal.SIGINT, signal.SIGTERM}
        signal.pthread_sigmask(signal.SIG_BLOCK, stop)  # delivered to sigwait, not to a handler
        signal.sigwait(stop)
    finally:
        server.stop()
