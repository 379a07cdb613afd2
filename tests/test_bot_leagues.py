"""Leagues through the real bot and a simulated Discord: sign-up on the announcement, a round robin played to its
champion, a Swiss over three rounds, 4-player Myriath tables, a restart between rounds, leaving and bad input."""

from __future__ import annotations

import io
import random

import discord
from PIL import Image

from bot.leagues import POINT
from bot_helpers import text_of, EPAMINONDAS_LIGHT_WINS, board_posts, buttons, play_moves, play_out, stored
from conftest import ON_BOTH


def organiser(world):
    role = world.guild.create_role("league mods", permissions=discord.Permissions(manage_guild=True))
    return world.guild.add_member(world.env.create_user("olga"), roles=[role])


def four_players(world):
    return [world.alice, world.bob, world.carol, world.guild.add_member(world.env.create_user("dave"))]


def announcement(world):
    return next(m for m in reversed(list(world.channel.history())) if text_of(m).startswith("🏆"))


def league_thread(world):
    return next(t for t in world.channel.threads if t.name.startswith("League:"))


def match_thread(world, match_id):
    return next(t for t in world.channel.threads if f"#{match_id}:" in t.name)


async def open_league(world, olga, members, name="Autumn", **options):
    options = {"game": "epaminondas", "format": "round_robin", **options}
    created = await olga.slash(world.channel, "league create", name=name, **options)
    assert created.ephemeral and created.response.content.startswith("✅"), created.response.content
    post = announcement(world)
    assert set(buttons(post)) == {"Join", "Leave"}
    for member in members:
        joined = await member.click(post, label="Join")
        assert joined.ephemeral and "You are in" in joined.response.content, joined.response.content
    return world.bot.leagues, (await world.bot.leagues.named(world.guild.id, name)).id


async def tables_of(world, league_id, round_=None):
    return await world.bot.leagues.store.tables(league_id, round_)


async def win_for(world, table, winner, by_id):
    """Finish a two-player league match with `winner` on top: a whole game when she plays Light, else the loser
    resigns through the board's buttons."""
    thread = match_thread(world, table.match_id)
    first, second = (by_id[p] for p in table.players)
    if winner is None:
        await first.click(board_posts(thread)[-1], label="Offer draw")
        await second.click(thread.last_message, label="Accept draw")
    elif winner is first:
        await play_moves(world, thread, table.match_id, EPAMINONDAS_LIGHT_WINS, [first, second])
    else:
        asked = await first.click(board_posts(thread)[-1], label="Resign")
        await first.click(asked.response, label="Yes, resign")


@ON_BOTH
async def test_round_robin_of_four_played_to_its_champion(world):
    olga = organiser(world)
    members = four_players(world)
    alice, bob, carol, dave = members
    by_id = {m.id: m for m in members}
    leagues, league_id = await open_league(world, olga, members)
    started = await olga.slash(world.channel, "league start", league="Autumn")
    assert started.ephemeral and "has started" in started.response.content
    tables = await tables_of(world, league_id)
    assert len(tables) == 6 and all(t.match_id for t in tables)
    pairs = {frozenset(t.players) for t in tables}
    assert len(pairs) == 6  # everyone meets everyone once
    firsts = [sum(t.players[0] == m.id for t in tables) for m in members]
    assert all(f in (1, 2) for f in firsts)  # each side equally often, ±1
    assert "Every match starts now" in text_of(league_thread(world).last_message)

    # alice beats everyone, bob beats carol and dave, carol and dave draw
    rank = {alice.id: 0, bob.id: 1, carol.id: 2, dave.id: 2}
    for table in tables:
        a, b = table.players
        winner = None if rank[a] == rank[b] else by_id[a] if rank[a] < rank[b] else by_id[b]
        await win_for(world, table, winner, by_id)
    league = await leagues.get(league_id)
    assert league.status == "finished"
    assert await rated_matches(world) == 6  # a rated league's matches count for ratings

    _, divisions, names = await leagues.standings_of(league_id)
    rows = divisions[0].rows
    assert [names[s.player] for s in rows[:2]] == ["alice", "bob"]
    assert [s.points for s in rows] == [3 * POINT, 2 * POINT, POINT // 2, POINT // 2]
    assert rows[2].rank == rows[3].rank == 3  # carol and dave: equal on every tie-break
    thread = league_thread(world)
    standings_posts = [m for m in thread.history() if m.attachments]
    assert len(standings_posts) == 6  # after each finished match, the last with the champion
    final = thread.last_message
    assert "Champion: **alice**" in text_of(final)
    picture = final.attachments[0]
    assert picture.filename == "standings.png"
    assert picture.description.startswith("Standings of Autumn") and "1. alice 3" in picture.description
    image = Image.open(io.BytesIO(await picture.read()))
    assert image.format == "PNG" and image.width == 800
    assert world.env.backend.get_channel(thread.id).thread_metadata.archived
    assert not buttons(stored(world, announcement(world)))  # no more Join / Leave
    late = await carol.slash(world.channel, "league join", league="Autumn")
    assert late.ephemeral and "has ended" in late.response.content


async def rated_matches(world) -> int:
    return await world.bot.repo.driver.fetchvalue("SELECT COUNT(DISTINCT match_id) FROM rating_changes")


async def test_swiss_of_seven_over_three_rounds_with_byes(world):
    olga = organiser(world)
    members = four_players(world) + [world.guild.add_member(world.env.create_user(n)) for n in ("erin", "finn", "gus")]
    by_id = {m.id: m for m in members}
    leagues, league_id = await open_league(world, olga, members, name="Swiss", format="swiss", rounds=3)
    await olga.slash(world.channel, "league start", league="Swiss")
    rng = random.Random(7)
    met: set[frozenset[int]] = set()
    byes = []
    for round_ in (1, 2, 3):
        league = await leagues.get(league_id)
        assert league.round == round_ and league.status == "running"
        tables = await tables_of(world, league_id, round_)
        assert len(tables) == 4 and sum(t.is_bye for t in tables) == 1
        byes += [t.players[0] for t in tables if t.is_bye]
        for table in tables:
            if table.is_bye:
                continue
            assert frozenset(table.players) not in met
            met.add(frozenset(table.players))
            await win_for(world, table, by_id[rng.choice(table.players)], by_id)
    assert len(set(byes)) == 3  # a bye at most once each
    league = await leagues.get(league_id)
    assert league.status == "finished"
    _, divisions, _ = await leagues.standings_of(league_id)
    assert sum(s.points for s in divisions[0].rows) == 3 * 4 * POINT  # 3 games and a bye a round
    assert "Champion" in text_of(league_thread(world).last_message)


async def test_myriath_league_of_four_player_tables(world):
    olga = organiser(world)
    members = four_players(world) + [world.guild.add_member(world.env.create_user("erin"))]
    by_id = {m.id: m for m in members}
    leagues, league_id = await open_league(world, olga, members, name="Tiles", game="myriath", players=4)
    await olga.slash(world.channel, "league start", league="Tiles")
    tables = await tables_of(world, league_id)
    assert all(len(t.players) == 4 for t in tables)
    covered = {frozenset((a, b)) for t in tables for a in t.players for b in t.players if a != b}
    assert len(covered) == 10  # every pair of the five shares a table
    rng = random.Random(3)
    for i, table in enumerate(tables):
        match = await world.bot.matches.get_match(table.match_id)
        assert [s.user_id for s in match.seats] == list(table.players)
        thread = match_thread(world, table.match_id)
        if i == 0:  # one table played to its end, the others decided by players resigning one after another
            await play_out(world, thread, table.match_id, [by_id[p] for p in table.players],
                           lambda g, s, seat, moves: rng.choice(moves))
            continue
        for quitter in table.players[:3]:
            asked = await by_id[quitter].click(board_posts(thread)[-1], label="Resign")
            await by_id[quitter].click(asked.response, label="Yes, resign")
    assert (await leagues.get(league_id)).status == "finished"
    _, divisions, _ = await leagues.standings_of(league_id)
    assert sum(s.points for s in divisions[0].rows) == len(tables) * 2 * POINT  # each table shares out 2 points
    last = await world.bot.matches.get_match(tables[-1].match_id)
    assert last.standings == [[3], [2], [1], [0]]  # resigned first is last; the one left in wins
    assert "Champion" in text_of(league_thread(world).last_message)


async def test_a_restart_between_two_rounds_creates_each_round_once(world):
    olga = organiser(world)
    members = four_players(world)
    erin = world.guild.add_member(world.env.create_user("erin"))
    by_id = {m.id: m for m in members + [erin]}
    leagues, league_id = await open_league(world, olga, members, name="Restart", format="swiss", rounds=2)
    await olga.slash(world.channel, "league start", league="Restart")
    first = await tables_of(world, league_id, 1)
    await win_for(world, first[0], by_id[first[0].players[0]], by_id)
    await world.restart()
    # the bot comes back with one match of round 1 still running: nothing new is paired
    leagues = world.bot.leagues
    assert (await leagues.get(league_id)).round == 1
    # the announcement's buttons work after the restart: a running Swiss takes a player for its next round
    late = await erin.click(announcement(world), label="Join")
    assert late.ephemeral and "paired from the next round" in late.response.content
    await win_for(world, first[1], by_id[first[1].players[1]], by_id)
    second = await tables_of(world, league_id, 2)
    assert len(second) == 3 and sum(t.is_bye for t in second) == 1  # five players: two games and a bye
    assert erin.id in {p for t in second for p in t.players}
    assert all(t.match_id for t in second if not t.is_bye)
    await world.restart()
    assert len(await tables_of(world, league_id, 2)) == 3
    challenges = [t.challenge_id for t in await tables_of(world, league_id) if not t.is_bye]
    assert len(challenges) == len(set(challenges)) == 4  # one challenge, so one match, per table
    assert sum(1 for t in world.channel.threads if "#" in t.name) == 4
    for table in second:
        if not table.is_bye:
            await win_for(world, table, by_id[table.players[0]], by_id)
    assert (await world.bot.leagues.get(league_id)).status == "finished"


@ON_BOTH
async def test_an_interrupted_round_is_finished_once_after_a_restart(world):
    """Tables written, one linked to a challenge that never started (the stop came between the two): start-up
    starts that match and creates the others, one each."""
    olga = organiser(world)
    members = four_players(world)
    leagues, league_id = await open_league(world, olga, members, name="Cut")
    league = await leagues.get(league_id)
    players = await leagues.players(league_id)
    await leagues.rounds.start(league, players)  # signup → running, as the start does before its first step
    await leagues.rounds._write_first_round(await leagues.get(league_id), await leagues.players(league_id))
    tables = await tables_of(world, league_id)
    names = {p.user_id: p.user_name for p in players}
    await leagues.store.link_challenge(tables[0], league, names, {}, 0.0)
    assert await leagues.store.link_challenge(tables[0], league, names, {}, 0.0) is None  # linked once
    await world.restart()
    tables = await tables_of(world, league_id)
    assert len(tables) == 6 and all(t.match_id for t in tables)
    matches = [t.match_id for t in tables]
    assert len(set(matches)) == 6
    assert sum(1 for t in world.channel.threads if "#" in t.name) == 6


async def test_leaving_after_the_start_resigns_unfinished_matches(world):
    olga = organiser(world)
    members = four_players(world)
    alice, bob, carol, dave = members
    leagues, league_id = await open_league(world, olga, members, name="Leave")
    await olga.slash(world.channel, "league start", league="Leave")
    left = await dave.slash(world.channel, "league leave", league="Leave")
    assert left.ephemeral and "resigned" in left.response.content
    tables = await tables_of(world, league_id)
    for table in tables:
        if dave.id in table.players:
            match = await world.bot.matches.get_match(table.match_id)
            assert not match.active and match.standings[0] == [1 - table.players.index(dave.id)]
    _, divisions, names = await leagues.standings_of(league_id)
    assert {names[s.player]: s.points for s in divisions[0].rows}["dave"] == 0
    again = await dave.click(announcement(world), label="Join")
    assert again.ephemeral and "round robin takes no new players" in again.response.content


async def test_a_timeout_counts_as_a_loss(world):
    olga = organiser(world)
    members = [world.alice, world.bob]
    leagues, league_id = await open_league(world, olga, members, name="Clocks", clock="1 day")
    await olga.slash(world.channel, "league start", league="Clocks")
    (table,) = await tables_of(world, league_id)
    await world.env.advance_time(25 * 3600)
    _, divisions, names = await leagues.standings_of(league_id)
    points = {names[s.player]: s.points for s in divisions[0].rows}
    first = names[table.players[0]]
    assert points[first] == 0 and sum(points.values()) == POINT  # Light did not move in time: Dark wins
    assert (await leagues.get(league_id)).status == "finished"


@ON_BOTH
async def test_monthly_league_opens_its_next_season_with_the_same_players(world):
    olga = organiser(world)
    members = [world.alice, world.bob]
    leagues, league_id = await open_league(world, olga, members, name="Monthly", repeat="monthly", rated=False)
    await olga.slash(world.channel, "league start", league="Monthly")
    (table,) = await tables_of(world, league_id)
    await win_for(world, table, {m.id: m for m in members}[table.players[0]], {m.id: m for m in members})
    assert await rated_matches(world) == 0  # an unrated league's matches are unrated
    following = await leagues.named(world.guild.id, "Monthly")
    assert following.season == 2 and following.status == "signup" and following.previous_id == league_id
    assert [p.user_name for p in await leagues.players(following.id)] == ["alice", "bob"]
    post = announcement(world)
    assert "Monthly (season 2)" in text_of(post) and set(buttons(post)) == {"Join", "Leave"}
    bye = await world.bob.click(post, label="Leave")
    assert bye.ephemeral and "You have left" in bye.response.content
    assert [p.user_name for p in await leagues.players(following.id)] == ["alice"]


async def test_bad_input_gets_one_private_answer_and_changes_nothing(world):
    olga = organiser(world)
    alice = world.alice
    denied = await alice.slash(world.channel, "league create", name="Mine", game="epaminondas", format="round_robin")
    assert denied.ephemeral and "Manage Server" in denied.response.content
    tables = await olga.slash(world.channel, "league create", name="Big", game="epaminondas", format="round_robin",
                              players=3)
    assert tables.ephemeral and "can't have 3" in tables.response.content
    swiss_tables = await olga.slash(world.channel, "league create", name="Big", game="myriath", format="swiss",
                                    players=3)
    assert swiss_tables.ephemeral and "round robin" in swiss_tables.response.content
    assert await world.bot.leagues.listing(world.guild.id) == []
    leagues, league_id = await open_league(world, olga, [alice], name="Solo")
    same = await olga.slash(world.channel, "league create", name="solo", game="archimedes", format="swiss")
    assert same.ephemeral and "already a league called" in same.response.content
    twice = await alice.click(announcement(world), label="Join")
    assert twice.ephemeral and "already in" in twice.response.content
    not_organiser = await alice.slash(world.channel, "league start", league="Solo")
    assert not_organiser.ephemeral and "Only the organiser" in not_organiser.response.content
    too_few = await olga.slash(world.channel, "league start", league="Solo")
    assert too_few.ephemeral and "at least 2 players" in too_few.response.content
    cancel = await alice.slash(world.channel, "league cancel", league="Solo")
    assert cancel.ephemeral and "Only the organiser" in cancel.response.content
    unknown = await alice.slash(world.channel, "league join", league="Nope")
    assert unknown.ephemeral and "no league called" in unknown.response.content
    assert (await leagues.get(league_id)).status == "signup"
    assert len(await leagues.players(league_id)) == 1
    await olga.slash(world.channel, "league cancel", league="Solo")
    ended = await world.bob.slash(world.channel, "league join", league="Solo")
    assert ended.ephemeral and "has ended" in ended.response.content
    gone = await alice.slash(world.channel, "league leave", league="Solo")
    assert gone.ephemeral and "has ended" in gone.response.content
    listing = await alice.slash(world.channel, "league list")
    assert listing.ephemeral and "Solo" in listing.response.content and "cancelled" in listing.response.content


async def test_tables_of_three_need_three_players_and_games_must_exist(world):
    olga = organiser(world)
    leagues, league_id = await open_league(world, olga, [world.alice, world.bob], name="Trio", game="mycenae",
                                           players=3)
    too_few = await olga.slash(world.channel, "league start", league="Trio")
    assert too_few.ephemeral and "at least 3 players" in too_few.response.content
    assert (await leagues.get(league_id)).status == "signup"
    try:
        await leagues.create(guild_id=world.guild.id, channel_id=world.channel.id, user_id=olga.id,
                             may_manage=True, name="Chess", game="chess", format="swiss")
    except Exception as exc:  # noqa: BLE001 - the message is what matters
        assert "can't be played here" in str(exc)
    else:
        raise AssertionError("a league of an unknown game was created")
    assert [(e.league.name, e.players) for e in await leagues.listing(world.guild.id)] == [("Trio", 2)]
    await world.carol.click(announcement(world), label="Join")
    assert [e.players for e in await leagues.listing(world.guild.id)] == [3]  # counted in the same one read
    started = await olga.slash(world.channel, "league start", league="Trio")
    assert started.ephemeral and "has started" in started.response.content
    (table,) = await tables_of(world, league_id)  # three players, one table of three: each pair shares it
    match = await world.bot.matches.get_match(table.match_id)
    assert match.active and len(match.seats) == 3 and match.options  # Mycenae's options, with their defaults


async def test_divisions_by_rating_each_a_round_robin_with_its_champion(world):
    olga = organiser(world)
    members = four_players(world) + [world.guild.add_member(world.env.create_user(n))
                                     for n in ("erin", "finn", "gus", "hal", "ida")]
    by_id = {m.id: m for m in members}
    for rank, member in enumerate(members):  # alice strongest … ida weakest
        await world.bot.repo.driver.db.execute(
            "INSERT INTO ratings (guild_id, game, member_id, name, mu, sigma, games, wins, draws, losses, streak,"
            " recent, provisional) VALUES (?, 'epaminondas', ?, ?, ?, 5, 10, 5, 0, 5, 1, 'W', 0)",
            (world.guild.id, member.id, f"m{rank}", 40.0 - rank))
    leagues, league_id = await open_league(world, olga, members, name="Big", division_size=4)
    await olga.slash(world.channel, "league start", league="Big")
    players = {p.user_id: p for p in await leagues.players(league_id)}
    assert [[m.id for m in members if players[m.id].division == d] for d in (1, 2, 3)] == [
        [m.id for m in members[:3]], [m.id for m in members[3:6]], [m.id for m in members[6:]]]
    assert players[members[0].id].rating > players[members[-1].id].rating
    tables = await tables_of(world, league_id)
    assert len(tables) == 9
    assert all(len({players[p].division for p in t.players}) == 1 for t in tables)
    round_text = "\n".join(text_of(m) for m in league_thread(world).history())
    assert "__Division 3__" in round_text
    for table in tables:  # the better-rated player wins every game
        winner = min(table.players, key=lambda p: [m.id for m in members].index(p))
        await win_for(world, table, by_id[winner], by_id)
    final = league_thread(world).last_message
    assert "Division 1: **alice**" in text_of(final) and "Division 2: **dave**" in text_of(final)
    assert "Division 3: **gus**" in text_of(final)
    assert "Division 2: 1. dave 2" in final.attachments[0].description


async def test_signup_end_starts_the_league_or_cancels_it_with_too_few(world):
    olga = organiser(world)
    leagues, league_id = await open_league(world, olga, [world.alice, world.bob], name="Timed", signup_hours=1)
    _, lonely_id = await open_league(world, olga, [world.carol], name="Lonely", signup_hours=1)
    await world.env.advance_time(3601)
    assert (await leagues.get(league_id)).status == "running"
    (table,) = await tables_of(world, league_id)
    assert table.match_id and table.match_status == "active"
    assert (await leagues.get(lonely_id)).status == "cancelled"
    thread = next(t for t in world.channel.threads if t.name == "League: Lonely")
    assert "only 1 signed up" in text_of(thread.last_message)

    listing = await world.alice.slash(world.channel, "league matches", league="Timed")
    assert listing.ephemeral and f"match #{table.match_id}" in listing.response.content
    standings = await world.carol.slash(world.channel, "league standings", league="Timed")
    assert standings.ephemeral
    assert [a.filename for a in standings.response.attachments] == ["standings.png"]


async def test_league_lookups_refuse_dms(world):
    leagues = world.bot.leagues
    for call in (leagues.named(None, "Autumn"), leagues.listing(None)):
        try:
            await call
        except Exception as exc:  # noqa: BLE001 - the exact class is checked below
            assert "not in DMs" in str(exc)
            assert type(exc).__name__ == "UserError"
        else:
            raise AssertionError("a league lookup from a DM was answered")


# --- the league organisers' role, chosen in /settings -------------------------------------------------------------

def settings_shown(world, member):
    return member.slash(world.channel, "settings")


async def test_the_organisers_role_creates_starts_and_cancels_leagues(world):
    manager = organiser(world)
    referees = world.guild.create_role("referees")
    rhea = world.guild.add_member(world.env.create_user("rhea"), roles=[referees])
    shown = await settings_shown(world, manager)
    assert shown.ephemeral and "**League organisers**: none" in shown.response.content
    refused = await rhea.slash(world.channel, "league create", name="Spring", game="epaminondas",
                               format="round_robin")
    assert refused.ephemeral and "Manage Server" in refused.response.content
    assert await world.bot.leagues.listing(world.guild.id) == []

    saved = await manager.slash(world.channel, "settings", setting="league_organiser_role", role=referees)
    assert saved.ephemeral and saved.response.content.startswith("Saved.")
    assert f"**League organisers**: <@&{referees.id}>" in saved.response.content
    leagues, league_id = await open_league(world, rhea, [world.alice, world.bob], name="Spring")
    assert (await leagues.get(league_id)).organiser_id == rhea.id
    started = await rhea.slash(world.channel, "league start", league="Spring")
    assert started.ephemeral and "has started" in started.response.content, started.response.content
    assert (await leagues.get(league_id)).status == "running"
    assert len(await tables_of(world, league_id)) == 1

    # another holder of the role, not the league's creator, may cancel it too
    rufus = world.guild.add_member(world.env.create_user("rufus"), roles=[referees])
    await open_league(world, rhea, [world.carol], name="Summer")
    cancelled = await rufus.slash(world.channel, "league cancel", league="Summer")
    assert cancelled.ephemeral and "is cancelled" in cancelled.response.content, cancelled.response.content


async def test_without_the_role_or_manage_server_leagues_are_refused_and_nothing_changes(world):
    manager = organiser(world)
    referees = world.guild.create_role("referees")
    await manager.slash(world.channel, "settings", role=referees)  # a role alone sets the organisers' role
    leagues, league_id = await open_league(world, manager, [world.alice, world.bob], name="Spring")
    alice = world.alice
    denied = await alice.slash(world.channel, "league create", name="Mine", game="epaminondas", format="round_robin")
    assert denied.ephemeral and denied.response.content == (
        f"Only members with the **Manage Server** permission or the <@&{referees.id}> role can create leagues.")
    for command in ("league start", "league cancel"):
        refused = await alice.slash(world.channel, command, league="Spring")
        assert refused.ephemeral and "Only the organiser" in refused.response.content
        assert f"<@&{referees.id}>" in refused.response.content
    assert [e.league.name for e in await leagues.listing(world.guild.id)] == ["Spring"]
    assert (await leagues.get(league_id)).status == "signup"


async def test_only_manage_server_sets_the_organisers_role_and_clearing_it_works(world):
    manager = organiser(world)
    referees = world.guild.create_role("referees")
    rhea = world.guild.add_member(world.env.create_user("rhea"), roles=[referees])
    command = int(world.env.backend.find_command("settings", world.guild.id, type=1)["id"])
    world.guild.set_command_permissions(command, {rhea: True})  # she sees the command; the bot still checks
    refused = await rhea.slash(world.channel, "settings", setting="league_organiser_role", role=referees)
    assert refused.ephemeral and "Manage Server" in refused.response.content
    assert await world.bot.matches.server_settings.get(world.guild.id, "league_organiser_role") is None

    everyone = await manager.slash(world.channel, "settings", role=world.guild.default_role)
    assert everyone.ephemeral and "can't be @everyone" in everyone.response.content
    wrong = await manager.slash(world.channel, "settings", setting="default_clock", role=referees)
    assert wrong.ephemeral and "takes no role" in wrong.response.content
    empty = await manager.slash(world.channel, "settings", setting="league_organiser_role")
    assert empty.ephemeral and "takes a role" in empty.response.content
    assert await world.bot.matches.server_settings.get(world.guild.id, "league_organiser_role") is None

    await manager.slash(world.channel, "settings", setting="league_organiser_role", role=referees)
    await open_league(world, rhea, [], name="Spring")
    cleared = await manager.slash(world.channel, "settings", setting="league_organiser_role", value="none")
    assert cleared.ephemeral and "**League organisers**: none" in cleared.response.content
    denied = await rhea.slash(world.channel, "league create", name="Summer", game="epaminondas",
                              format="round_robin")
    assert denied.ephemeral and denied.response.content == (
        "Only members with the **Manage Server** permission can create leagues.")
    assert [e.league.name for e in await world.bot.leagues.listing(world.guild.id)] == ["Spring"]
