"""Repeating round robins with divisions: the next season promotes the top of each division and relegates the
bottom, drops who left, puts new sign-ups in the lowest division; standings show the zones. Swiss leagues keep
their seasons as they were."""

from __future__ import annotations

import io

from PIL import Image

from bot.domain import League
from bot.leagues import standings
from bot.leagues.seasons import movers, next_divisions
from bot.presenters.leagues import zones
from bot.matches.league_events import SEASON_SECONDS, DivisionTable
from bot_helpers import text_of, board_posts
from conftest import ON_BOTH
from renderers.common import SKY_BLUE, VERMILLION
from renderers.league import HEADING_HEIGHT, PAD, ROW, TITLE_HEIGHT, Division, Row, standings_picture
from test_bot_leagues import announcement, league_thread, match_thread, open_league, organiser, tables_of


def members(world, count):
    return [world.guild.add_member(world.env.create_user(f"p{i}")) for i in range(1, count + 1)]


async def divisions_of(leagues, league_id):
    found: dict[int, set[int]] = {}
    for p in await leagues.players(league_id):
        found.setdefault(p.division, set()).add(p.user_id)
    return [found[d] for d in sorted(found)]


async def decide(world, tables, stronger, by_id):
    """Every table's weaker player resigns: the stronger (a higher `stronger` value) wins."""
    for table in tables:
        thread = match_thread(world, table.match_id)
        loser = by_id[min(table.players, key=stronger)]
        asked = await loser.click(board_posts(thread)[-1], label="Resign")
        await loser.click(asked.response, label="Yes, resign")


@ON_BOTH
async def test_a_season_promotes_and_relegates_across_a_restart(world):
    olga = organiser(world)
    players = members(world, 8)
    leagues, league_id = await open_league(world, olga, players, name="Ladder", repeat="monthly", rated=False,
                                           division_size=4)
    await olga.slash(world.channel, "league start", league="Ladder")
    first, second = await divisions_of(leagues, league_id)
    assert len(first) == len(second) == 4
    # The higher id wins every game: each division finishes in order of ids, the highest first.
    by_id = {m.id: m for m in players}
    await decide(world, await tables_of(world, league_id), lambda uid: uid, by_id)
    assert (await leagues.get(league_id)).status == "finished"
    final = league_thread(world).last_message
    assert "⬆ The top 2 of each division go up and ⬇ the bottom 2 go down" in text_of(final)
    description = final.attachments[0].description
    assert description.count("⬆") == 3 and description.count("⬇") == 3  # two each way, and the legend's own

    await world.restart()
    following = await leagues.named(world.guild.id, "Ladder")
    assert following.season == 2 and following.promotion == 2
    promoted, relegated = sorted(second)[-2:], sorted(first)[:2]
    gone = by_id[relegated[0]]
    left = await gone.click(announcement(world), label="Leave")
    assert "You have left" in left.response.content
    newcomer = world.guild.add_member(world.env.create_user("newbie"))
    joined = await newcomer.click(announcement(world), label="Join")
    assert "You are in" in joined.response.content
    await world.env.advance_time(SEASON_SECONDS + 3600)
    leagues = world.bot.leagues
    assert (await leagues.get(following.id)).status == "running"
    top, bottom = await divisions_of(leagues, following.id)
    assert top == set(sorted(first)[2:]) | set(promoted)
    assert bottom == {relegated[1], newcomer.id} | set(sorted(second)[:2])
    assert len(await tables_of(world, following.id)) == 12  # both divisions play their round robin


async def test_promotion_is_only_for_round_robins_that_repeat(world):
    olga = organiser(world)
    once = await olga.slash(world.channel, "league create", name="Once", game="epaminondas", format="round_robin",
                            promotion=2)
    assert once.ephemeral and "round robins that repeat" in once.response.content
    swiss = await olga.slash(world.channel, "league create", name="Swiss", game="epaminondas", format="swiss",
                             repeat="monthly", promotion=1)
    assert swiss.ephemeral and "round robins that repeat" in swiss.response.content
    many = await olga.slash(world.channel, "league create", name="Many", game="epaminondas", format="round_robin",
                            repeat="monthly", division_size=6, promotion=4)
    assert many.ephemeral and "from 1 to 3 players" in many.response.content
    assert await world.bot.leagues.listing(world.guild.id) == []
    made = await olga.slash(world.channel, "league create", name="Ok", game="epaminondas", format="round_robin",
                            repeat="monthly", promotion=1)
    assert made.response.content.startswith("✅"), made.response.content
    assert (await world.bot.leagues.named(world.guild.id, "Ok")).promotion == 1


# --- the rule, pure --------------------------------------------------------------------------------------------


def test_the_top_go_up_and_the_bottom_go_down():
    previous = [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10], [11, 12, 13, 14, 15]]
    everyone = list(range(1, 16))
    assert next_divisions(previous, everyone, promotion=2, division_size=5, least=4) == [
        [1, 2, 3, 6, 7], [4, 5, 8, 11, 12], [9, 10, 13, 14, 15]]
    assert next_divisions(previous, everyone, promotion=1, division_size=5, least=4) == [
        [1, 2, 3, 4, 6], [5, 7, 8, 9, 11], [10, 12, 13, 14, 15]]


def test_leavers_are_dropped_and_new_players_enter_the_lowest_division():
    previous = [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]]
    stay = [1, 2, 3, 5, 6, 7, 8, 9, 10, 20, 21]  # 4 left; 20 and 21 are new, 20 the stronger
    assert next_divisions(previous, stay, promotion=2, division_size=6, least=4) == [
        [1, 2, 3, 6, 7], [5, 8, 9, 10, 20, 21]]
    # a full lowest division: the new players who do not fit open one below it, if they are enough for one
    many = stay + [22, 23, 24, 25]
    assert next_divisions(previous, many, promotion=2, division_size=6, least=4) == [
        [1, 2, 3, 6, 7], [5, 8, 9, 10, 20, 21], [22, 23, 24, 25]]


def test_a_division_too_small_is_merged_into_the_one_above():
    previous = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]
    stay = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]  # 11 and 12 left: the last division would keep 2 of 4
    assert next_divisions(previous, stay, promotion=1, division_size=4, least=4) == [
        [1, 2, 3, 5], [4, 6, 7, 9, 8, 10]]
    # the first division too small takes in the second
    assert next_divisions([[1, 2, 3, 4], [5, 6, 7, 8]], [5, 6, 7, 8, 1], promotion=1, division_size=4,
                          least=4) == [[1, 5, 6, 7, 8]]


def test_a_small_division_moves_at_most_half_each_way_and_the_ends_move_one_way():
    assert movers(3, 2, first=False, last=False) == (1, 1)
    assert movers(10, 2, first=True, last=False) == (0, 2)
    assert movers(10, 2, first=False, last=True) == (2, 0)
    assert next_divisions([[1, 2, 3, 4]], [1, 2, 3, 4], promotion=2, division_size=10, least=4) == [[1, 2, 3, 4]]


def test_the_standings_picture_marks_the_zones_by_shape_and_colour():
    def picture(zone):
        row = Row(1, "alice", "3", "1.5", 3, 3, 1500, False, zone)
        return Image.open(io.BytesIO(standings_picture("Ladder", "Epaminondas", "points", [Division(None, [row])])))

    plain, up, down = picture(None), picture("up"), picture("down")
    assert plain.tobytes() != up.tobytes() != down.tobytes() != plain.tobytes()
    middle = TITLE_HEIGHT + HEADING_HEIGHT + ROW // 2
    assert up.convert("RGB").getpixel((PAD // 2 + 12, middle + 3)) == SKY_BLUE
    assert down.convert("RGB").getpixel((PAD // 2 + 12, middle - 3)) == VERMILLION
    assert plain.convert("RGB").getpixel((PAD // 2 + 12, middle)) not in (SKY_BLUE, VERMILLION)


def test_only_a_repeating_round_robin_of_several_divisions_shows_zones():
    fields = dict(id=1, guild_id=1, channel_id=1, name="L", season=1, previous_id=None, game="epaminondas",
                  format="round_robin", rounds=None, total_rounds=1, table_size=2, clock_seconds=None, rated=False,
                  division_size=4, signup_hours=1.0, repeat="monthly", organiser_id=1, status="running",
                  signup_ends_at=0.0, created_at=0.0, started_at=0.0, finished_at=None, round=1, results_shown=0,
                  message_id=None, thread_id=None, promotion=1)
    rows = [standings(list(group), {}, []) for group in ([1, 2, 3, 4], [5, 6, 7, 8])]
    tables = [DivisionTable(d + 1, table) for d, table in enumerate(rows)]
    ladder = League(**fields)
    marked = zones(ladder, tables, {8})  # 8 left: the zone counts those still in
    assert marked == {tables[0].rows[-1].player: "down", tables[1].rows[0].player: "up"}
    assert zones(League(**{**fields, "format": "swiss"}), tables, set()) == {}
    assert zones(League(**{**fields, "repeat": "none"}), tables, set()) == {}
    assert zones(ladder, tables[:1], set()) == {}
