"""A throwaway PostgreSQL 15 server for the tests: its own data folder and unix socket in a temporary folder, no TCP,
no fsync (or, `durable`, fsync and synchronous_commit on, as a production server commits), stopped and deleted at the
end.

    python tests/postgres_server.py --durable    # a durable one for the benchmark: prints its DSN, Ctrl+C stops it
 PostgreSQL refuses to run as root, so as root its programs run as the
`postgres` user (through runuser); as anyone else they run as that user."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

BIN = Path("/usr/lib/postgresql/15/bin")


def binaries_present() -> bool:
    return all((BIN / name).is_file() for name in ("initdb", "pg_ctl", "postgres"))


def start_or_skip(name: str, required: bool) -> PostgresServer:
    """Start a server; where its programs are missing, skip the test, or fail it when a server is `required`."""
    if not binaries_present():
        message = f"no PostgreSQL 15 server binaries in {BIN}"
        if required:
            pytest.fail(f"{message}, and STRATEGOS_TEST_POSTGRES=require")
        pytest.skip(message)
    return PostgresServer.start(name)


class PostgresServer:
    """One server; `dsn()` names a database on it (over the unix socket, user postgres, no password)."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.data = folder / "data"
        self.socket_dir = folder / "socket"
        self.log = folder / "server.log"
        self._as_root = os.geteuid() == 0

    def _run(self, *args: str) -> None:
        prefix = ["runuser", "-u", "postgres", "--"] if self._as_root else []
        done = subprocess.run(prefix + list(args), capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            log = self.log.read_text(errors="replace") if self.log.exists() else ""
            raise RuntimeError(f"{' '.join(args)} failed ({done.returncode}):\n{done.stdout}{done.stderr}{log}")

    @classmethod
    def start(cls, name: str, *, durable: bool = False) -> PostgresServer:
        folder = Path(tempfile.mkdtemp(prefix=f"strategos-pg-{name}-"))
        server = cls(folder)
        try:
            server.socket_dir.mkdir()
            if server._as_root:
                shutil.chown(folder, "postgres", "postgres")
                shutil.chown(server.socket_dir, "postgres", "postgres")
            server._run(str(BIN / "initdb"), "-D", str(server.data), "-U", "postgres", "--auth=trust",
                        "--encoding=UTF8", "--locale=C", "--no-sync")
            flush = "-c fsync=on -c synchronous_commit=on" if durable else "-c fsync=off"
            options = f"{flush} -c listen_addresses='' -k {server.socket_dir}"
            server._run(str(BIN / "pg_ctl"), "-D", str(server.data), "-l", str(server.log), "-o", options,
                        "-w", "-t", "60", "start")
        except BaseException:
            server.stop()
            raise
        return server

    def dsn(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@/{database}?host={self.socket_dir}"

    def stop(self) -> None:
        """Stop the server (when it runs) and delete its folder."""
        try:
            if (self.data / "postmaster.pid").exists():
                self._run(str(BIN / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)


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
