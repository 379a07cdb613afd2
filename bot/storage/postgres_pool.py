"""Reaching PostgreSQL: the asyncpg pool opened and migrated at start-up, and a lost connection while running.

Start-up failures become one DatabaseError line that says what is wrong and what to do (server unreachable, wrong
password, missing database, a database of a newer Strategos), naming the server without the URL's password.

While the bot runs, PostgreSQL may restart under it. asyncpg's pool then throws away every connection it finds
closed and opens a new one on the next acquire; what is lost is the statement in flight on the old one. That
surfaces as DatabaseUnavailable, which the bot answers with a "try again" (bot/views/common.py), whichever of
asyncpg's errors said it (LOST_CONNECTION). A unit of work is one transaction, so a unit cut off before its COMMIT
left nothing behind.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import asyncpg

from bot.storage.database import DatabaseError, NewerDatabase
from bot.storage.postgres_schema import migrate

log = logging.getLogger(__name__)

CONNECT_TIMEOUT = 10.0  # seconds for one connection attempt: a server that never answers is reported, not waited on


class DatabaseUnavailable(DatabaseError):
    """The connection to the database was lost (or can't be made) just now: the action may be tried again."""


# What asyncpg raises when the server goes away under a connection, or refuses new ones while it stops or starts:
# a broken socket (ConnectionDoesNotExistError and the rest of SQLSTATE class 08, an OSError), the server's own
# "terminating connection due to administrator command" / "crash of another server process" / "the database system
# is starting up" (57P01-57P03), or a connect that got no answer. A connection whose server went away can also be
# met before asyncpg has seen its end: it read the server's last words ("terminating connection …") but not yet
# the close, and the next statement finds it mid-way ("cannot switch to state 12; another operation is in
# progress": an InternalClientError) or says it is closed (an InterfaceError).
LOST_CONNECTION = (
    asyncpg.exceptions.PostgresConnectionError,
    asyncpg.exceptions.AdminShutdownError,
    asyncpg.exceptions.CrashShutdownError,
    asyncpg.exceptions.CannotConnectNowError,
    asyncpg.exceptions.InterfaceError,
    asyncpg.exceptions.InternalClientError,
    OSError,
    asyncio.TimeoutError,
)
# Arguments asyncpg cannot send (a value of the wrong type) or a URL it cannot read are a mistake, not a lost
# connection: trying again would fail the same way.
CALLERS_MISTAKE = (asyncpg.exceptions.DataError, asyncpg.exceptions.ClientConfigurationError)


def is_lost_connection(exc: BaseException) -> bool:
    return isinstance(exc, LOST_CONNECTION) and not isinstance(exc, CALLERS_MISTAKE)


class PooledConnection(asyncpg.Connection):
    """A pooled connection whose goodbye never fails. asyncpg's pool closes a connection it expired in a task of its
    own that nobody awaits (on the next acquire): a connection whose server went away fails to say goodbye
    (BrokenPipeError), which asyncio could only report as "Task exception was never retrieved". The connection is
    aborted all the same (asyncpg does that when a close fails), so nothing is left to do."""

    async def close(self, *, timeout: float | None = None) -> None:
        try:
            await super().close(timeout=timeout)
        except Exception as exc:
            if not is_lost_connection(exc):
                raise
            log.debug("a PostgreSQL connection ended without its goodbye: %s: %s", exc.__class__.__name__, exc)


@contextlib.asynccontextmanager
async def lost_connection_is_unavailable(pool: asyncpg.Pool) -> AsyncIterator[None]:
    """Around a unit of work on `pool`: a lost connection becomes DatabaseUnavailable. The unit's transaction did
    not commit (unless COMMIT itself was cut off, when the server decided): either way the unit is whole or absent.

    The pool drops a connection it finds closed, but its other idle connections broke with the same restart and
    would each cost one more action its "try again": they are all expired at the first loss, so the next
    actions run on new connections."""
    try:
        yield
    except Exception as exc:
        if not is_lost_connection(exc):
            raise
        log.warning("lost the connection to PostgreSQL: %s: %s", exc.__class__.__name__, exc)
        await pool.expire_connections()
        raise DatabaseUnavailable(f"the connection to PostgreSQL was lost ({exc.__class__.__name__})") from exc


def describe_dsn(dsn: str) -> str:
    """`user@host:port/database` of a postgresql:// URL, never its password, for messages and logs."""
    parts = urlsplit(dsn)
    query = parse_qs(parts.query)
    host = parts.hostname or (query.get("host") or ["localhost"])[0]
    try:
        port = parts.port or (query.get("port") or ["5432"])[0]
    except ValueError:  # not a number: asyncpg says so when it reads the URL
        port = "?"
    user = unquote(parts.username) if parts.username else (query.get("user") or ["(default user)"])[0]
    database = unquote(parts.path.lstrip("/")) or (query.get("dbname") or [user])[0]
    where = host if host.startswith("/") else f"{host}:{port}"
    return f"{user}@{where}/{database}"


async def open_pool(dsn: str, *, min_size: int = 1, max_size: int = 10,
                    before_migrating: Callable[[Any], Awaitable[None]] | None = None, **options: Any) -> asyncpg.Pool:
    """A pool of connections to the database at `dsn`, migrated to this Strategos's schema. Raises DatabaseError
    with one line when the server can't be reached, refuses the user or password, has no such database, or holds
    a database written by a newer Strategos. `before_migrating` looks at the database first, on a connection of
    the pool, and may refuse it by raising. `options` go to asyncpg.create_pool."""
    target = describe_dsn(dsn)
    try:
        pool = await asyncpg.create_pool(dsn, min_size=min_size, max_size=max_size, timeout=CONNECT_TIMEOUT,
                                         connection_class=PooledConnection, **options)
    except asyncpg.InvalidPasswordError:
        raise DatabaseError(f"PostgreSQL refused the password for {target}: check the password in "
                            "STRATEGOS_DATABASE") from None
    except asyncpg.InvalidAuthorizationSpecificationError as exc:  # no such role, or pg_hba.conf has no line for it
        raise DatabaseError(f"PostgreSQL refused the connection to {target} ({exc}): check the user in "
                            "STRATEGOS_DATABASE and the server's pg_hba.conf") from None
    except asyncpg.InvalidCatalogNameError:
        raise DatabaseError(f"PostgreSQL at {target} has no database of that name: create it (createdb) or fix "
                            "the database name in STRATEGOS_DATABASE") from None
    except (asyncpg.exceptions.ClientConfigurationError, ValueError) as exc:  # a URL asyncpg can't read
        password = urlsplit(dsn).password
        reason = str(exc).replace(password, "***") if password else str(exc)
        raise DatabaseError(f"STRATEGOS_DATABASE is not a PostgreSQL URL Strategos can use ({reason}): write it "
                            "as postgresql://USER:PASSWORD@HOST:PORT/DATABASE") from None
    except LOST_CONNECTION as exc:
        reason = str(exc).splitlines()[0] if str(exc) else exc.__class__.__name__
        raise DatabaseError(f"cannot reach PostgreSQL at {target} ({reason}): check that the server runs and "
                            "the host and port in STRATEGOS_DATABASE") from None
    except asyncpg.PostgresError as exc:
        raise DatabaseError(f"PostgreSQL at {target} refused the connection ({exc})") from None
    try:
        async with pool.acquire() as conn:
            if before_migrating is not None:
                await before_migrating(conn)
            await migrate(conn)
    except NewerDatabase as exc:
        await pool.close()
        raise NewerDatabase(f"{exc} (PostgreSQL at {target})") from None
    except BaseException:
        pool.terminate()
        raise
    return pool
