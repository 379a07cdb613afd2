"""The store on its own: cancellation around a commit, what it refuses to open, the indexes its searches use."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from bot.storage import database, open_database
from bot.storage.repository import _finish


# --- a cancellation never gets lost around a commit ----------------------------------------------------------------

async def test_a_cancellation_arriving_as_the_commit_finishes_is_raised_after_it():
    """The caller is cancelled in the very step in which the commit completes: the commit stands, and the caller
    still learns it was cancelled instead of going on as if nothing happened."""
    caller = None
    committed = []

    async def commit():
        caller.cancel()  # the cancellation and the end of the commit reach the caller together
        committed.append(True)

    async def run():
        await _finish(commit())
        return "went on"

    caller = asyncio.ensure_future(run())
    with pytest.raises(asyncio.CancelledError):
        await caller
    assert committed == [True]


async def test_a_cancellation_during_the_commit_waits_for_it_and_is_raised():
    started, release = asyncio.Event(), asyncio.Event()
    committed = []

    async def commit():
        started.set()
        await release.wait()
        committed.append(True)

    caller = asyncio.ensure_future(_finish(commit()))
    await started.wait()
    caller.cancel()
    await asyncio.sleep(0)
    assert not caller.done()  # still finishing the commit
    release.set()
    with pytest.raises(asyncio.CancelledError):
        await caller
    assert committed == [True]
