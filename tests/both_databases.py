"""The files of the stores and the match service run every test that reaches a database on each of the two
(tests/conftest.py's DATABASES, through `store_database`: `store`, `service` and there `database` take it). A test
of them that reaches a database some other way would run on one only: it fails, saying so."""

from __future__ import annotations

import pytest

ON_BOTH_FILES = frozenset({"test_analysis_store.py", "test_clocks.py", "test_conversation_store.py", "test_ratings_store.py",
                           "test_rating_order.py", "test_service.py", "test_service_events.py",
                           "test_service_shards.py"})
# How a test reaches a database: the bot's or the store's, a server's, or a SQLite file in a folder of its own.
REACHING_A_DATABASE = frozenset({"database", "store_database", "postgres_server", "postgres_dsn",
                                 "migrated_postgres_dsn", "tmp_path"})
PER_DATABASE = frozenset({"database", "store_database"})  # the fixtures whose parameter is the database


def on_one_database_only(item: pytest.Item) -> bool:
    """A test of ON_BOTH_FILES that reaches a database and is not one of the per-database variants."""
    if item.path.name not in ON_BOTH_FILES or not REACHING_A_DATABASE & set(getattr(item, "fixturenames", ())):
        return False
    callspec = getattr(item, "callspec", None)
    return not PER_DATABASE & (callspec.params.keys() if callspec else set())


def pytest_runtest_setup(item: pytest.Item) -> None:
    if on_one_database_only(item):
        pytest.fail(f"{item.name} reaches a database but runs on one only: the tests of {item.path.name} run on "
                    "both, through `store_database` (or `store`, `service`, or a `database` fixture taking it)",
                    pytrace=False)
