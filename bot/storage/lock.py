"""The lock on a SQLite database: `<file>.lock` beside it, held with flock while the database is in use.

Whatever opens the store on the file (the bot at start-up, `ratings --rebuild`) holds it shared: several may, as
SQLite allows several connections. `migrate` holds it exclusive: it copies the database elsewhere and must not
race a bot that keeps writing to it. The kernel lets go of a process's lock when the process ends, however it
ends, so a lock is never left held by a dead process. What the file says is the process that took it first
(for the line that names who still runs); the last holder to let go removes it. A file found when the lock is free
was left by a process that stopped without letting go (killed, or its machine went down): the next to take the
lock says it took it over.
"""

from __future__ import annotations

import errno
import fcntl
import os
from dataclasses import dataclass
from pathlib import Path

from .database import DatabaseError, UnwritableDatabase


class DatabaseInUse(DatabaseError):
    """Another process holds the database's lock in a way that excludes this one."""


def lock_path(database: Path | str) -> Path:
    return Path(f"{database}.lock")


@dataclass
class DatabaseLock:
    path: Path
    descriptor: int | None
    stale_pid: int | None  # the process named by a lock left behind, which this one took over

    @classmethod
    def take(cls, database: Path | str, *, exclusive: bool) -> DatabaseLock:
        """Take the lock (shared, or `exclusive`) without waiting; raises DatabaseInUse when another holds it."""
        path = lock_path(database)
        while True:
            try:
                descriptor = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
            except PermissionError:  # left by another user (a tool run as root): the database's own check passed
                raise UnwritableDatabase(f"this user (uid {os.getuid()}) may not write the lock file {path}; give it "
                                         "to the user the bot runs as, or delete it while nothing runs") from None
            try:
                stale = _take(path, descriptor, exclusive)
                if _same_file(path, descriptor):
                    return cls(path, descriptor, stale)
            except BaseException:
                os.close(descriptor)
                raise
            os.close(descriptor)  # the last holder removed the file between its opening and its locking here

    def taken_over(self) -> str | None:
        """The line that says a lock left behind was taken over; None when none was."""
        if self.stale_pid is None:
            return None
        return (f"took over the lock {self.path} left by process {self.stale_pid}, which stopped without letting go "
                "of it")

    def release(self) -> None:
        """Let go; the last holder removes the file, so that none is left beside a database nobody uses."""
        if self.descriptor is None:
            return
        try:
            if _try(self.descriptor, fcntl.LOCK_EX):
                self.path.unlink(missing_ok=True)
        finally:
            os.close(self.descriptor)  # and with it the lock
            self.descriptor = None


def _same_file(path: Path, descriptor: int) -> bool:
    try:
        return os.stat(path).st_ino == os.fstat(descriptor).st_ino
    except FileNotFoundError:
        return False


def _take(path: Path, descriptor: int, exclusive: bool) -> int | None:
    if _try(descriptor, fcntl.LOCK_EX):  # nobody holds it: whoever the file names stopped without letting go
        stale = _named(descriptor)
        os.ftruncate(descriptor, 0)
        os.pwrite(descriptor, f"{os.getpid()}\n".encode(), 0)
        # From exclusive to shared is not atomic: a migration may take the lock in between, and then it is its.
        if exclusive or _try(descriptor, fcntl.LOCK_SH):
            return stale
    elif not exclusive and _try(descriptor, fcntl.LOCK_SH):
        return None  # another shares it: it wrote the file
    holder = _named(descriptor)
    who = f"process {holder}" if holder is not None and _alive(holder) else "another process"
    if exclusive:
        raise DatabaseInUse(f"{who} is using the database (a bot still running?): stop it first ({path} is "
                            "its lock)")
    raise DatabaseInUse(f"{who} holds the database alone (python -m bot migrate copying it?): wait until it is "
                        f"done ({path} is its lock)")


def _try(descriptor: int, mode: int) -> bool:
    try:
        fcntl.flock(descriptor, mode | fcntl.LOCK_NB)
    except OSError as exc:
        if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN):
            return False
        raise
    return True


def _named(descriptor: int) -> int | None:
    text = os.pread(descriptor, 64, 0).decode("ascii", "replace").strip()
    return int(text) if text.isdigit() else None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True
