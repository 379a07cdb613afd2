"""A test of the stores' and the match service's files that reaches a database runs on both databases, or fails
(tests/both_databases.py)."""

from __future__ import annotations

import sys
from pathlib import Path

TESTS = Path(__file__).parent


def test_a_test_of_those_files_that_reaches_one_database_only_fails(pytester, monkeypatch):
    pytester.syspathinsert(TESTS)
    pytester.makeconftest('''
        import pytest
        from both_databases import pytest_runtest_setup

        @pytest.fixture(params=["sqlite", "postgres"])
        def store_database(request):
            return request.param

        @pytest.fixture
        def database(tmp_path):
            return tmp_path / "strategos.db"
    ''')
    files = {
        "test_service": '''
            def test_on_both(store_database): pass
            def test_no_database(): pass
            def test_own_file(tmp_path): pass
            def test_the_bot_s_on_sqlite(database): pass
        ''',
        "test_elsewhere": "def test_own_file_elsewhere(tmp_path): pass",  # not one of those files
    }
    pytester.makepyfile(**files)
    monkeypatch.delitem(sys.modules, "test_service", raising=False)  # the real one's, when it ran here before
    result = pytester.runpytest_inprocess("-p", "no:asyncio", "--import-mode=importlib")
    result.assert_outcomes(passed=4, errors=2)  # test_on_both twice, test_no_database, test_own_file_elsewhere
    refused = sorted(line.split("::")[1].split(" ")[0] for line in result.outlines if line.startswith("ERROR"))
    assert refused == ["test_own_file", "test_the_bot_s_on_sqlite"]
    assert "test_own_file reaches a database but runs on one only" in result.stdout.str()
