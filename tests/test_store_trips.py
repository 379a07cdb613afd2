"""What one /move costs the database, pinned: one read, one unit of work, then the board post's own read and
record, and the statement that forgets the move's outbox row once it was presented. Before the store was built around units, the same /move ran 31 statements: the match was read five times
and the move, its clocks and the board post landed in four transactions."""

from __future__ import annotations

from conftest import ON_BOTH

from bot.composition import build_match_service
from bot_helpers import board_posts, move, start_match, text_of


class Trace:
    """Every SQL statement the bot's connection runs while recording."""

    def __init__(self):
        self.statements: list[str] = []
        self.recording = False

    def __call__(self, sql: str) -> None:
        if self.recording:
            self.statements.append(" ".join(sql.split()))

    def round_trips(self) -> list[str]:
        """Reads one by one, and each transaction as "unit: its statements" (a group of units runs on the
        writer's thread in one trip; the savepoints around each unit are left out)."""
        trips, unit = [], None
        for sql in self.statements:
            word = sql.split()[0].upper()
            if word == "BEGIN":
                unit = []
            elif word in ("COMMIT", "ROLLBACK"):
                trips.append("unit: " + "; ".join(unit))
                unit = None
            elif word in ("SAVEPOINT", "RELEASE"):
                continue
            elif unit is not None:
                unit.append(" ".join(sql.split()[:3]))
            else:
                trips.append(" ".join(sql.split()[:2]))
        return trips


async def trace_repository(repo) -> Trace:
    trace = Trace()
    if repo.dialect == "sqlite":
        driver = repo.driver
        for connection in {id(c): c for c in (driver.db, driver.reader)}.values():  # the writer's and the readers'
            await connection._execute(connection._conn.set_trace_callback, trace)  # sqlite3's hook, on its thread
    else:
        trace_postgres(repo.driver, trace)
    return trace


def trace_postgres(driver, trace: Trace) -> None:
    """On PostgreSQL every statement goes through the driver's doors: `fetch` (a read on a pooled connection),
    `write` (a unit: one transaction on one, each statement a step of its generator) and `_one_statement` (a unit
    of one statement, behind `write_statements`)."""
    fetch, write = driver.fetch, driver.write

    async def traced_fetch(sql, params=()):
        trace(sql)
        return await fetch(sql, params)

    def recorded(steps):
        # Kept together: reads on other pooled connections (the timer dispatcher's) may run meanwhile.
        unit = ["BEGIN"]
        try:
            step = next(steps)
            while True:
                unit.append(step.sql)
                step = steps.send((yield step))
        except StopIteration as stop:
            for sql in unit + ["COMMIT"]:
                trace(sql)
            return stop.value

    async def traced_write(steps):
        return await write(recorded(steps))

    one_statement = driver._one_statement

    async def traced_one_statement(step):  # a unit of one statement: atomic without BEGIN and COMMIT
        done = await one_statement(step)
        for sql in ("BEGIN", step.sql, "COMMIT"):
            trace(sql)
        return done

    driver.fetch, driver.write, driver._one_statement = traced_fetch, traced_write, traced_one_statement


async def traced(world) -> Trace:
    return await trace_repository(world.bot.repo)


@ON_BOTH
async def test_one_move_costs_one_read_one_write_unit_and_the_board_record(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    trace = await traced(world)
    trace.recording = True
    result = await move(world.alice, thread, match_id, "a1-a3")
    await world.bot.matches.outbox.idle()
    trace.recording = False
    assert result.response.content.startswith("✅"), result.response.content
    sqlite = world.bot.repo.dialect == "sqlite"
    assert trace.round_trips() == [
        "SELECT m.*,",  # the move's load: match, seats, deadlines, members' choices
        # The move, its clocks and what it announces (the outbox): on PostgreSQL the same statements in one call
        # of a server function.
        "unit: UPDATE matches SET; INSERT INTO moves; DELETE FROM timers; INSERT INTO timers; INSERT INTO outbox"
        if sqlite else "unit: SELECT strategos_commit_move(?, ?,",
        "unit: UPDATE matches SET",  # the board post's record, with the version it announced (nothing read back)
        "unit: DELETE FROM outbox",  # presented: the move's outbox row is forgotten
    ]
    assert len([s for s in trace.statements if not s.startswith(("SAVEPOINT", "RELEASE"))]) == (14 if sqlite else 10)


async def test_a_rated_finish_is_written_in_the_move_unit(store):
    service = build_match_service(store, clock=lambda: 1_000_000.0, seed_source=lambda: 7)
    try:
        challenge = await service.create_challenge(guild_id=9, channel_id=8, challenger_id=1, challenger_name="u1",
                                                   game_key="epaminondas", invited=[2])
        challenge = await service.accept_challenge(challenge.id, 2, "u2")
        trace = await trace_repository(service.repo)
        trace.recording = True
        report = await service.resign(challenge.match_id, 2)
        await service.outbox.idle()
        trace.recording = False
        units = [trip for trip in trace.round_trips() if trip.startswith("unit")]
        rating_changes = "INSERT INTO rating_changes"  # one statement for every seat's row, on both databases
        assert units == ["unit: UPDATE matches SET; INSERT INTO moves; DELETE FROM timers; SELECT member_id, games;"
                         f" {rating_changes}; INSERT INTO ratings; INSERT INTO ratings; INSERT INTO outbox",
                         "unit: DELETE FROM outbox"]
        assert [c.member_id for c in await service.ratings.changes_of(report.match)] == [1, 2]
    finally:
        await service.drain()


@ON_BOTH
async def test_the_move_button_reads_the_match_once_before_the_picker_shows(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    await world.bot.matches.bus.idle()
    trace = await traced(world)
    trace.recording = True
    opened = await world.alice.click(board_posts(thread)[-1], label="Move")
    trace.recording = False
    assert "Which piece" in text_of(opened.response), text_of(opened.response)  # the picker's first step
    # The click's checks (a player, her turn, the newest board) and the picker's first step share one read.
    assert trace.round_trips() == ["SELECT m.*,"]
