"""The ratings store (bot/storage/rating_store.py) and the rating of finishes (bot/matches/rating_service.py)
against a real SQLite file and a real PostgreSQL database: recording, leaderboards, profiles, rebuild."""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager

import pytest
import pytest_asyncio

from bot import rebuild_ratings as cli
from bot.games.engines import GAMES
from bot.ratings import MatchResult, RatingError, UnknownGame, replay
from bot.matches.rating_service import Ratings
from bot.storage.opening import open_repository
from bot.storage.rating_rows import CHANGE_COLUMNS, change_row
from bot.storage.rating_store import FinishedResult
from bot.storage.sql import Step, postgres_sql

@pytest_asyncio.fixture
async def repo(store_database):
    """On SQLite and on PostgreSQL (tests/conftest.py)."""
    repo = await open_repository(store_database)
    try:
        yield repo
    finally:
        await repo.close()


@pytest.fixture
def store(repo):
    return repo.ratings


@pytest.fixture
def ratings(repo):
    return Ratings(repo)


class Matches:
    """Finished matches written the way the match service stores them."""

    def __init__(self, repo):
        self.repo = repo
        self.next_id = 1

    async def finish(self, game, members, standings, *, guild=1, rated=True, finished_at=None, status="finished",
                     with_standings=True):
        match_id = self.next_id
        self.next_id += 1
        finished_at = float(match_id * 100) if finished_at is None else finished_at
        await self.repo.ratings.add_finished([FinishedResult(
            match_id, guild, game, members, standings, finished_at, rated=rated, status=status,
            kept_standings=with_standings, reason="test")])
        return match_id


@pytest.fixture
def matches(repo):
    return Matches(repo)


async def finish_and_rate(store, matches, *args, **kwargs):
    match_id = await matches.finish(*args, **kwargs)
    return match_id, await Ratings(matches.repo).record_finished(match_id)


async def table(repo, name):
    return [tuple(row) for row in await repo.driver.fetch(f"SELECT * FROM {name} ORDER BY 1, 2, 3")]


# --- recording -----------------------------------------------------------------------------------------------


async def test_recording_a_finished_match_stores_its_changes_and_ratings(store, matches):
    match_id, changes = await finish_and_rate(store, matches, "mycenae", [10, 20, 30], [[1], [0, 2]])
    expected = replay([MatchResult.of(match_id, 1, "mycenae", [10, 20, 30], [[1], [0, 2]], 100.0)])
    assert changes == expected.changes
    assert await store.changes_for_match(match_id) == changes
    winner = await store.rating(1, "mycenae", 20)
    assert (winner.mu, winner.sigma, winner.games, winner.wins, winner.name) == (
        changes[1].mu_after, changes[1].sigma_after, 1, 1, "member20")


async def test_recording_is_idempotent(store, matches, repo, ratings):
    match_id, first = await finish_and_rate(store, matches, "epaminondas", [10, 20], [[0], [1]])
    before = await table(repo, "ratings"), await table(repo, "rating_changes")
    assert await ratings.record_finished(match_id) == first
    assert await ratings.record_match(MatchResult.of(match_id, 1, "epaminondas", [10, 20], [[0], [1]], 100.0)) == first
    assert (await table(repo, "ratings"), await table(repo, "rating_changes")) == before
    assert (await store.rating(1, "epaminondas", 10)).games == 1


async def test_recording_the_same_match_concurrently_rates_it_once(store, matches, ratings):
    match_id = await matches.finish("epaminondas", [10, 20], [[0], [1]])
    first, second = await asyncio.gather(ratings.record_finished(match_id), ratings.record_finished(match_id))
    assert first == second
    assert (await store.rating(1, "epaminondas", 10)).games == 1


@asynccontextmanager
async def another_writer(repo):
    """`execute(sql, *params)` in another writer's transaction, committed when the block ends: on SQLite it holds
    the database's one writer meanwhile, on PostgreSQL a connection of its own."""
    if repo.dialect == "sqlite":
        async with repo.driver.transaction():
            yield lambda sql, *params: repo.driver.db.execute(sql, params)
        return
    conn = await repo.driver.acquire()
    try:
        async with conn.transaction():
            yield lambda sql, *params: conn.execute(postgres_sql(sql), *params)
    finally:
        await repo.driver.release(conn)


async def test_a_match_another_writer_rates_while_it_is_recorded_keeps_the_other_s_changes(store, matches, repo,
                                                                                         ratings, monkeypatch):
    """Another process (or a rebuild) writes the match's changes after this recording found none and commits while
    it writes them too: the recording writes nothing of its own and returns the stored changes."""
    match_id = await matches.finish("epaminondas", [10, 20], [[0], [1]])
    theirs = replay([MatchResult.of(match_id, 1, "epaminondas", [10, 20], [[0], [1]], 100.0)]).changes
    writing, record_ratings = asyncio.Event(), repo.record_ratings

    async def started(write):
        writing.set()
        return await record_ratings(write)

    monkeypatch.setattr(repo, "record_ratings", started)
    async with another_writer(repo) as execute:
        for change in theirs:
            await execute(f"INSERT INTO rating_changes ({CHANGE_COLUMNS}) VALUES ({', '.join('?' * 13)})",
                          *change_row(change))
        recording = asyncio.create_task(ratings.record_finished(match_id))
        await writing.wait()
        # On PostgreSQL the recording's check saw no changes (the other's are not committed yet) and its insert
        # now waits for the other writer; on SQLite the whole unit waits for the writer.
        while repo.dialect == "postgresql" and not await repo.driver.fetchvalue(
                "SELECT COUNT(*) FROM pg_locks WHERE NOT granted"):
            await asyncio.sleep(0.01)
    assert await recording == theirs
    assert await store.changes_for_match(match_id) == theirs and await table(repo, "ratings") == []


async def test_unrated_and_unfinished_matches_change_nothing(store, matches, repo, ratings):
    unrated = await matches.finish("epaminondas", [10, 20], [[0], [1]], rated=False)
    running = await matches.finish("epaminondas", [10, 20], [[0], [1]], status="active")
    assert await ratings.record_finished(unrated) == []
    assert await ratings.record_finished(running) == []
    assert await ratings.record_finished(999) == []  # no such match
    assert await table(repo, "ratings") == [] and await table(repo, "rating_changes") == []
    assert (await ratings.rebuild()).matches == 0


async def test_a_match_without_standings_is_rated_from_its_winners(store, matches):
    _, changes = await finish_and_rate(store, matches, "archimedes", [10, 20], [[1], [0]], with_standings=False)
    assert [c.outcome for c in changes] == ["L", "W"]
    _, drawn = await finish_and_rate(store, matches, "archimedes", [10, 20], [[0, 1]], with_standings=False)
    assert [c.outcome for c in drawn] == ["D", "D"]


async def test_a_match_of_an_unknown_game_is_a_clear_error(store, matches, ratings):
    match_id = await matches.finish("chess", [10, 20], [[0], [1]])
    with pytest.raises(RatingError, match=f"match {match_id}: unknown game 'chess'"):
        await ratings.record_finished(match_id)


# --- leaderboard ---------------------------------------------------------------------------------------------


async def test_leaderboard_pages_rank_settled_members_first_and_find_my_own_line(store, matches):
    # Member 1 beats everyone five times (settled); 2..8 play one game each (provisional).
    for opponent in range(2, 7):
        await finish_and_rate(store, matches, "epaminondas", [1, opponent], [[0], [1]])
    for winner, loser in ((7, 8),):
        await finish_and_rate(store, matches, "epaminondas", [winner, loser], [[0], [1]])

    page = await store.leaderboard(1, "epaminondas", offset=0, limit=3, member_id=8)
    assert page.total == 8 and page.has_more
    assert [e.rank for e in page.entries] == [1, 2, 3]
    top = page.entries[0].rating
    assert top.member_id == 1 and not top.provisional and top.label == str(top.display)
    # Member 7 won her only game: the best provisional rating comes right after the settled member.
    assert page.entries[1].rating.member_id == 7 and page.entries[1].rating.label.endswith("?")
    assert page.me.rating.member_id == 8 and page.me.rank == 8

    everyone = await store.leaderboard(1, "epaminondas", limit=100)
    ranks = {e.rating.member_id: e.rank for e in everyone.entries}
    for member, rank in ranks.items():
        mine = await store.leaderboard(1, "epaminondas", offset=0, limit=1, member_id=member)
        assert mine.me.rank == rank  # the SQL count agrees with the page order
    assert [e.rank for e in everyone.entries] == list(range(1, 9)) and not everyone.has_more

    last = await store.leaderboard(1, "epaminondas", offset=6, limit=5, member_id=1)
    assert [e.rank for e in last.entries] == [7, 8] and last.me.rank == 1


async def test_leaderboard_of_a_game_nobody_played_is_empty(store):
    page = await store.leaderboard(1, "myriath", member_id=10)
    assert (page.total, page.entries, page.me) == (0, [], None)


async def test_leaderboard_refuses_bad_input(store):
    with pytest.raises(UnknownGame, match="unknown game 'chess'"):
        await store.leaderboard(1, "chess")
    with pytest.raises(ValueError):
        await store.leaderboard(1, "epaminondas", offset=-1)
    with pytest.raises(ValueError):
        await store.leaderboard(1, "epaminondas", limit=0)


async def test_two_servers_never_see_each_other(store, matches):
    await finish_and_rate(store, matches, "epaminondas", [10, 20], [[0], [1]], guild=1)
    await finish_and_rate(store, matches, "epaminondas", [10, 30], [[1], [0]], guild=2)
    one = await store.leaderboard(1, "epaminondas", member_id=30)
    two = await store.leaderboard(2, "epaminondas", member_id=20)
    assert {e.rating.member_id for e in one.entries} == {10, 20} and one.me is None
    assert {e.rating.member_id for e in two.entries} == {10, 30} and two.me is None
    assert (await store.rating(1, "epaminondas", 10)).wins == 1
    assert (await store.rating(2, "epaminondas", 10)).losses == 1
    assert [c.match_id for c in (await store.profile(2, "epaminondas", 10)).history] == [2]
    assert [r.guild_id for r in await store.member_ratings(2, 10)] == [2]


# --- profile -------------------------------------------------------------------------------------------------


async def test_profile_has_rating_rank_results_and_chart_points(store, matches):
    for standings in ([[0], [1]], [[0], [1]], [[1], [0]], [[0, 1]]):
        await finish_and_rate(store, matches, "archimedes", [10, 20], standings)
    await finish_and_rate(store, matches, "myriath", [10, 20, 30], [[0], [1], [2]])
    profile = await store.profile(1, "archimedes", 10)
    rating = profile.rating
    assert (rating.games, rating.wins, rating.draws, rating.losses) == (4, 2, 1, 1)
    assert (rating.recent, rating.streak_text, rating.label.endswith("?")) == ("WWLD", "D1", True)
    assert (profile.rank, profile.total) == (1, 2)
    assert [c.match_id for c in profile.history] == [1, 2, 3, 4]
    points = profile.chart_points()
    assert points[0] == (100.0, 1500) and len(points) == 5
    assert points[-1] == (400.0, rating.display)
    assert [r.game for r in await store.member_ratings(1, 10)] == ["archimedes", "myriath"]


async def test_profile_of_a_member_with_no_games_is_none(store, matches):
    await finish_and_rate(store, matches, "archimedes", [10, 20], [[0], [1]])
    assert await store.profile(1, "archimedes", 99) is None
    assert await store.profile(1, "epaminondas", 10) is None
    assert await store.member_ratings(1, 99) == []
    with pytest.raises(UnknownGame):
        await store.profile(1, "chess", 10)


# --- rebuild -------------------------------------------------------------------------------------------------


async def test_rebuild_reproduces_the_stored_ratings_exactly(store, matches, repo, ratings):
    plays = [
        ("epaminondas", [10, 20], [[0], [1]], 1),
        ("mycenae", [10, 20, 30], [[2], [0, 1]], 1),
        ("myriath", [30, 40, 10, 20], [[3], [1], [0], [2]], 1),
        ("epaminondas", [20, 10], [[0, 1]], 1),
        ("epaminondas", [10, 20], [[1], [0]], 2),
        ("archimedes", [30, 10], [[0], [1]], 1),
        ("epaminondas", [30, 10], [[1], [0]], 1),
    ] * 3
    for game, members, standings, guild in plays:
        await finish_and_rate(store, matches, game, members, standings, guild=guild)
    await matches.finish("epaminondas", [10, 20], [[0], [1]], rated=False)
    live = await table(repo, "ratings"), await table(repo, "rating_changes")

    summary = await ratings.rebuild()
    assert (summary.matches, summary.skipped) == (len(plays), [])
    assert summary.members == len(live[0])
    assert (await table(repo, "ratings"), await table(repo, "rating_changes")) == live
    assert "21 rated matches" in summary.line()


async def test_rebuild_replays_in_finish_order_whatever_order_matches_were_recorded(store, matches, repo, ratings):
    late = await matches.finish("epaminondas", [10, 20], [[0], [1]], finished_at=500.0)
    early = await matches.finish("epaminondas", [10, 20], [[1], [0]], finished_at=200.0)
    await ratings.record_finished(late)  # recorded first although it finished last
    await ratings.record_finished(early)
    await ratings.rebuild()
    expected = replay([
        MatchResult.of(early, 1, "epaminondas", [10, 20], [[1], [0]], 200.0),
        MatchResult.of(late, 1, "epaminondas", [10, 20], [[0], [1]], 500.0),
    ])
    stored, replayed = await store.rating(1, "epaminondas", 10), expected.ratings[(1, "epaminondas", 10)]
    assert (stored.mu, stored.sigma, stored.recent) == (replayed.mu, replayed.sigma, "LW")


async def test_rebuild_skips_what_cannot_be_rated_and_says_why(store, matches, ratings):
    await matches.finish("epaminondas", [10, 20], [[0], [1]])
    bad = await matches.finish("chess", [10, 20], [[0], [1]])
    summary = await ratings.rebuild()
    assert summary.matches == 1 and summary.skipped == [(bad, f"match {bad}: unknown game 'chess'; known: "
                                                             f"{', '.join(GAMES)}")]
    assert "1 matches skipped" in summary.line()


async def test_rebuild_redoes_the_replay_when_a_match_finished_after_its_snapshot(store, matches, repo, ratings,
                                                                                  monkeypatch):
    await matches.finish("epaminondas", [10, 20], [[0], [1]])
    converge = store.converge

    async def finished_meanwhile(changes, rows):  # the snapshot (one match) is read and replayed; then one finishes
        monkeypatch.setattr(store, "converge", converge)
        await repo.driver.write_statements([
            ("INSERT INTO matches (id, guild_id, channel_id, game, seed, status, state, result, created_at, updated_at,"
             " rated, standings, finished_at) VALUES (50, 1, 5, 'epaminondas', 7, 'finished', '{}', '{}', 1, 999, 1,"
             " '[[1], [0]]', 999)", ()),
            Step("INSERT INTO match_seats (match_id, seat, user_id, user_name) VALUES (50, ?, ?, 'x')",
                 [(0, 10), (1, 30)], many=True),
        ])
        return await converge(changes, rows)

    monkeypatch.setattr(store, "converge", finished_meanwhile)
    summary = await ratings.rebuild()
    assert summary.matches == 2
    assert (await store.rating(1, "epaminondas", 10)).recent == "WL"
    assert [c.match_id for c in await store.changes_for_match(50)] == [50, 50]


async def test_rebuild_waits_for_a_match_being_recorded_and_stays_consistent(store, matches, repo, ratings):
    ids = [await matches.finish("epaminondas", [10, 20 + i % 3], [[i % 2], [1 - i % 2]]) for i in range(12)]
    # Rebuilds and live recordings interleave on one connection; each is one transaction, so none sees half of
    # another, and the end state equals a clean rebuild.
    await asyncio.gather(*(ratings.record_finished(i) for i in ids[:6]), ratings.rebuild(),
                         *(ratings.record_finished(i) for i in ids[6:]), ratings.rebuild())
    settled = await table(repo, "ratings"), await table(repo, "rating_changes")
    await ratings.rebuild()
    assert (await table(repo, "ratings"), await table(repo, "rating_changes")) == settled
    assert (await store.rating(1, "epaminondas", 10)).games == 12


# --- python -m bot ratings --rebuild -------------------------------------------------------------------------


def test_the_rebuild_command_rebuilds_the_settings_database(store_database, tmp_path, monkeypatch, capsys):
    path = store_database

    async def prepare():
        repo = await open_repository(path)
        played = Matches(repo)
        await played.finish("epaminondas", [10, 20], [[0], [1]])
        await played.finish("mycenae", [10, 20, 30], [[0], [1], [2]])
        await played.finish("chess", [10, 20], [[0], [1]])
        await repo.close()

    asyncio.run(prepare())
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("STRATEGOS_DATABASE", str(path))
    assert cli.main(["--rebuild"]) == 0
    out, err = capsys.readouterr()
    assert out == "rebuilt ratings: 2 rated matches, 5 ratings, 1 matches skipped (match 3: unknown game 'chess'" \
                  f"; known: {', '.join(GAMES)})\n"
    assert "skipped match 3" in err

    assert cli.main([]) == 2
    assert cli.main(["--rebuild", "--database", str(tmp_path / "typo.db")]) == 1
    assert "no database" in capsys.readouterr().err


async def test_rebuild_writes_in_short_transactions_between_which_others_write(store, matches, repo, ratings,
                                                                               monkeypatch):
    """A rebuild beside a running bot must not hold the writer for the whole replacement: it writes a bounded
    number of rows per transaction, and another writer gets in between them."""
    from bot.storage import rating_store

    monkeypatch.setattr(rating_store, "REBUILD_CHUNK", 4)
    for i in range(10):
        await matches.finish("epaminondas", [10, 20 + i % 3], [[i % 2], [1 - i % 2]])
    await repo.driver.write_statements([("DELETE FROM rating_changes", ())])  # e.g. a model change: all rows again
    per_transaction, real = [], repo.driver.write_statements  # each call is one unit of work, all or nothing
    writes_between = []

    async def counted(steps):
        done = await real(steps)
        if any("rating" in step.sql for step in steps):  # the rebuild's, not the other writer's
            per_transaction.append(sum(each.rowcount for each in done))
        return done

    monkeypatch.setattr(repo.driver, "write_statements", counted)

    async def other_writer():
        while not per_transaction:
            await asyncio.sleep(0)
        await repo.set_timer("probe", 1, 1.0)  # a running bot's write, waiting for no more than a chunk
        writes_between.append(len(per_transaction))

    summary, _ = await asyncio.gather(ratings.rebuild(), other_writer())
    assert summary.matches == 10
    assert per_transaction and max(per_transaction) <= 4 and len(per_transaction) >= 6
    assert writes_between and writes_between[0] < len(per_transaction) - 1  # it got in while the rebuild went on
    assert len(await table(repo, "rating_changes")) == 20
