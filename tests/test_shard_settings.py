"""Shard settings: each process runs a range of the bot's shards; a bad range stops the start with one line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot import app
from bot.settings import Settings

ROOT = Path(__file__).parent.parent


def start(tmp_path, **variables: str) -> subprocess.CompletedProcess:
    """`python -m bot` in an empty folder with a token and these settings (Discord is never reached: every case
    here stops before it)."""
    environ = {key: value for key, value in os.environ.items()
               if not key.startswith("STRATEGOS_") and key != "DISCORD_TOKEN"}
    environ.update(DISCORD_TOKEN="token", PYTHONPATH=str(ROOT), **variables)
    return subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=environ, capture_output=True, text=True,
                          timeout=60)


@pytest.mark.parametrize("variables, line", [
    ({"STRATEGOS_SHARD_COUNT": "2", "STRATEGOS_SHARDS": "0-2"},
     "STRATEGOS_SHARDS: the range 0-2 is outside the 2 shards of STRATEGOS_SHARD_COUNT (numbered 0 to 1)"),
    ({"STRATEGOS_SHARD_COUNT": "4", "STRATEGOS_SHARDS": "3-1"},
     "STRATEGOS_SHARDS: the range 3-1 is empty (it must run from the lower shard number to the higher)"),
    ({"STRATEGOS_SHARD_COUNT": "4", "STRATEGOS_SHARDS": "0-2,2-3"},
     "STRATEGOS_SHARDS: the ranges overlap (shard 2 is named twice)"),
    ({"STRATEGOS_SHARD_COUNT": "4", "STRATEGOS_SHARDS": "0..3"},
     "STRATEGOS_SHARDS must be shard numbers or ranges such as 0-3, separated by commas, not '0..3'"),
    ({"STRATEGOS_SHARD_COUNT": "4", "STRATEGOS_SHARDS": "0-1,"},
     "STRATEGOS_SHARDS must be shard numbers or ranges such as 0-3, separated by commas, not '0-1,'"),
    ({"STRATEGOS_SHARD_COUNT": "0"}, "STRATEGOS_SHARD_COUNT must be a whole number from 1 to 4096, not '0'"),
    ({"STRATEGOS_SHARD_COUNT": "two"}, "STRATEGOS_SHARD_COUNT must be a whole number from 1 to 4096, not 'two'"),
    ({"STRATEGOS_SHARDS": "0-1"},
     "STRATEGOS_SHARDS needs STRATEGOS_SHARD_COUNT, the number of shards of all processes together"),
    ({"STRATEGOS_SHARD_COUNT": "2", "STRATEGOS_SHARDS": "1"},
     "STRATEGOS_SHARDS=1 leaves the other shards to other processes, and several processes need PostgreSQL: set "
     "STRATEGOS_DATABASE to a postgresql:// URL, or run every shard in this process"),
])
def test_a_bad_shard_setting_stops_python_m_bot_with_one_line(tmp_path, variables, line):
    done = start(tmp_path, **variables)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [f"strategos: {line}"]
    assert not list(tmp_path.iterdir())  # refused before the database was created


def test_shard_ranges_name_this_process_s_shards():
    def shards(**variables):
        settings = Settings.load(environ=variables, dotenv=None)
        return settings.shard_count, settings.shard_ids, settings.runs_every_shard

    assert shards() == (None, None, True)  # the default: Discord's count of shards, all in this one process
    assert shards(STRATEGOS_SHARD_COUNT="3") == (3, None, True)
    assert shards(STRATEGOS_SHARD_COUNT="4", STRATEGOS_SHARDS="0-3") == (4, (0, 1, 2, 3), True)
    assert shards(STRATEGOS_SHARD_COUNT="4", STRATEGOS_SHARDS=" 2-3, 0 - 1 ") == (4, (0, 1, 2, 3), True)
    assert shards(STRATEGOS_SHARD_COUNT="1", STRATEGOS_SHARDS="0") == (1, (0,), True)


def test_the_bot_runs_the_shards_it_was_given(tmp_path):
    every = app.create_bot(Settings(database=tmp_path / "a.db"))
    assert every.shard_count is None and every.shard_ids is None  # Discord says how many; this process runs all
    two = app.create_bot(Settings(database=tmp_path / "b.db", shard_count=2, shard_ids=(0, 1)))
    assert two.shard_count == 2 and two.shard_ids == [0, 1]


def test_a_process_of_several_is_accepted_on_postgresql():
    settings = Settings.load(environ={"STRATEGOS_SHARD_COUNT": "2", "STRATEGOS_SHARDS": "1",
                                      "STRATEGOS_DATABASE": "postgresql://strategos@db/strategos"}, dotenv=None)
    assert settings.shard_ids == (1,) and not settings.runs_every_shard
