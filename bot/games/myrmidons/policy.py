"""Myrmidons: the Commander, losses, threats and the race to the far rank.

The Commander has shield 1, so any enemy piece that can reach it kills it and ends the game; the evaluation
therefore looks one move ahead for the side to move: reaching the enemy Commander is as good as winning, and
every enemy piece it can beat on reach counts. Four losses lose too, and a piece that survives a turn on the
enemy home rank wins, so losses and the most advanced piece count as well.

Every value the evaluation reads is from the sampled state: the opponent's hidden values (and which of its
pieces is the Commander) are guesses drawn consistently with the view, averaged over several draws.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any, Sequence

from bot.games.myrmidons import TYPE_CODES
from bot.games.myrmidons import board as rules
from bot.games.myrmidons.rules import deployments, draft_moves
from bot.games.myrmidons.sampling import deployment_worth, draft_worth

from bot.ai.policy import Policy, Values, leader_values, ranked

_RANK_OF = tuple(sq // rules.FILES for sq in range(rules.CELLS))
_INDEX = {name: sq for sq, name in enumerate(rules.NAMES)}
_LAST = rules.RANKS - 1
# Four losses lose the game, so each loss costs more than the one before.
_LOSS_COST = (0.0, 1.0, 2.2, 3.8, 6.0, 6.0, 6.0)


def _deployment_worth(move: str) -> float:
    return deployment_worth(move[len("deploy "):].split(","))


_TYPE_WORTH = {code: draft_worth(code) for code in TYPE_CODES}


def _army_worth(move: str) -> float:
    return sum(map(_TYPE_WORTH.__getitem__, move[len("army "):].split(",")))


@lru_cache(maxsize=1)
def _armies_best_first() -> tuple[str, ...]:
    """Every draft army, best by `_army_worth` first: ranked once, not at every decision (there are thousands)."""
    return tuple(sorted(draft_moves(), key=lambda m: (-_army_worth(m), m)))


@lru_cache(maxsize=64)
def _deployments_best_first(army: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(sorted(deployments(army), key=lambda m: (-_deployment_worth(m), m)))


def _setup_best_first(state: Any, seat: int) -> tuple[str, ...]:
    """The seat's legal set-up moves (an army draft or a deployment), best by their heuristic first."""
    army = state.armies[seat]
    return _armies_best_first() if army is None else _deployments_best_first(tuple(army))


def _is_setup(moves: list[str]) -> bool:
    return bool(moves) and moves[0].startswith(("deploy ", "army "))


def _steps(move: str) -> list[tuple[int, int]]:
    """(from, to) squares of each piece a single move or an order moves."""
    items = move.split(" ")[2:] if move.startswith("order") else [move]
    return [(_INDEX[a], _INDEX[b]) for a, b in (item.split("-") for item in items)]


def _reach(state: Any, index: int) -> tuple[list[int], list[int]]:
    """Enemy pieces (by index) that the piece `index` can attack with one single move, and the squares of the
    enemy home rank it can move or attack onto (whether or not the fight there would be won)."""
    sq, kind = state.squares[index], state.pieces[index].kind
    owner = index // rules.PER_SEAT
    goal = _LAST if owner == 0 else 0
    found, home = [], []
    for ray in rules.RAYS[sq]:
        for square in ray[: kind.move]:
            other = state.board[square]
            if other == rules.EMPTY:
                if _RANK_OF[square] == goal:
                    home.append(square)
                continue
            if other // rules.PER_SEAT != owner:
                found.append(other)
                if _RANK_OF[square] == goal:
                    home.append(square)
            break
    return found, home


def _landings(state: Any, index: int, home: list[int]) -> list[int]:
    """Of the home-rank squares `home` that `_reach` found for the piece `index`, those it would end on: empty,
    or held by an enemy it beats."""
    sword = state.pieces[index].kind.sword
    return [square for square in home
            if state.board[square] == rules.EMPTY or sword >= state.pieces[state.board[square]].kind.shield]


def _covered(state: Any, square: int, seat: int, shield: int, moved_from: int) -> bool:
    """Whether a piece of `seat` could attack and beat a piece of `shield` standing on `square` (after it came
    from `moved_from`, which is then empty): looked for along the eight lines out of the square."""
    for ray in rules.RAYS[square]:
        for distance, other in enumerate(ray, start=1):
            index = state.board[other] if other != moved_from else rules.EMPTY
            if index == rules.EMPTY:
                continue
            kind = state.pieces[index].kind
            if index // rules.PER_SEAT == seat and kind.move >= distance and kind.sword >= shield:
                return True
            break
    return False


def _commander_suspects(state: Any, seat: int) -> list[int]:
    """The seat's pieces (by index) that its opponent cannot rule out as its Commander: face-down ones that never
    went further than one square in a move. Just the Commander once it has been shown."""
    commander = state.commander(seat)
    if state.revealed[commander]:
        return [commander]
    travelled = state.travelled or (0,) * len(state.pieces)
    first = seat * rules.PER_SEAT
    return [i for i in range(first, first + rules.PER_SEAT)
            if state.squares[i] != rules.EMPTY and not state.revealed[i] and travelled[i] <= 1]


def _commander_attacked(state: Any, seat: int) -> bool:
    """Whether an enemy piece could attack the seat's Commander with one single move."""
    commander = state.commander(seat)
    first = (1 - seat) * rules.PER_SEAT
    return any(state.squares[j] != rules.EMPTY and commander in _reach(state, j)[0]
               for j in range(first, first + rules.PER_SEAT))


class MyrmidonsPolicy(Policy):
    playout_depth = 0  # the evaluation already looks a move ahead; random plies after it only add noise
    max_candidates = 14
    easy_candidates = 24
    easy_noise = 0.3
    determinisations = 16
    # The pool holds the enemy Commander's possible squares in the guess's proportions (`pool_key`): a bet on a
    # face-down piece being it was once judged by 10 of 16 states where the guess gave it one chance in three.
    pool_oversampling = 8
    infers = True  # the normal and hard levels guess by what the opponent did with each piece (posterior.py)
    # The root's moves are re-judged over several samples: one sample alone may put the enemy Commander or a
    # sword where it is not.
    root_shortlist = 50
    root_samples = 10
    # Leaves are judged by a deterministic look-ahead, not noisy playouts, so less exploration is needed.
    exploration = 0.35
    normal_iterations = 1000
    hard_iterations = 4300
    # Work per move (units of about one engine call), from this game's slowest positions (benchmarks/computer.py).
    easy_work = 450
    normal_work = 6000
    hard_work = 22000
    setup_choices = 3  # drafts and deployments: how many of the best the seeded draw picks from
    defences = 8  # moves that take the Commander out of reach, added to the root's when it is in reach

    sharp = True  # the search's evaluation also weighs what the waiting side threatens
    runner_cost = 0.6  # what the search's evaluation charges for each enemy piece that can reach its home rank
    open_home_cost = 1.0  # and more for each that could land where nothing of the mover's can take it back
    fork_share = 0.6  # how much of a loss two of its pieces under attack at once cost the mover
    # How steeply the search's evaluation turns a score into a chance (the easy level's keeps 0.7). At 0.7 a
    # position a piece down, with a threat or two against it, read as one chance in four or five, so a bet that
    # won one time in three (attacking a face-down piece that could be the Commander, leaving its own Commander or
    # home rank open) looked better than playing on, and the hard level lost such games to easy. At 0.45 it plays
    # on: with standard armies it won 177 of 192 games against 168 (seeds 0–191).
    scale = 0.45

    # Where the decision inferred it (`posterior_seen`): for the opponent's pieces, the posterior chance that each
    # is its Commander, which the evaluation bets on instead of one chance in as many suspects.
    commander_odds: dict[int, float] | None = None
    odds_seat = -1  # whose Commander `commander_odds` guesses

    def posterior_seen(self, view: Any, draws: Sequence[Any], weights: Sequence[float]) -> None:
        """Keep each opponent piece's share of the draws' weight as its Commander."""
        enemy = 1 - view["viewer"]
        odds: dict[int, float] = {}
        for state, weight in zip(draws, weights):
            index = state.commander(enemy)
            if index != rules.EMPTY:
                odds[index] = odds.get(index, 0.0) + weight
        total = sum(odds.values())
        self.commander_odds = {i: w / total for i, w in odds.items()} if total > 0.0 else None
        self.odds_seat = enemy

    def _guess(self, state: Any, seat: int, target: int) -> float:
        """The chance that the face-down `target` is `seat`'s Commander, as the side attacking it can tell: the
        posterior's over the suspects still standing where the decision inferred it, else one in as many."""
        suspects = _commander_suspects(state, seat)
        odds = self.commander_odds
        if odds is not None and seat == self.odds_seat:
            total = sum(odds.get(i, 0.0) for i in suspects)
            if total > 0.0:
                return odds.get(target, 0.0) / total if target in suspects else 0.0
        return 1.0 / len(suspects)

    def sample(self, view: Any, rng: random.Random, level: str) -> Any:
        """The search levels guess the opponent's Commander and an unseen draft as players tend to choose them;
        the easy level guesses uniformly."""
        # ignore: the Myrmidons engine (or its metered proxy) takes players_habits, beyond the contract's two
        return self.game.sample_state(view, rng, players_habits=level != "easy")  # type: ignore[call-arg]

    def observation(self, state: Any) -> Any:
        """The fights of the last move: who fought whom, with what values, and who won. Everyone sees them."""
        report = state.report
        if not report:
            return ()
        return tuple((f["attacker"]["id"], f["attacker"]["code"], f["defender"]["id"], f["defender"]["code"],
                      f["result"]) for f in report.get("fights", ()))

    def pool_key(self, state: Any, seat: int) -> Any:
        """Where the sample puts the enemy Commander (None before the armies stand)."""
        index = state.commander(1 - seat)
        return None if index == rules.EMPTY else state.squares[index]

    def evaluate(self, state: Any, num_players: int) -> Values:
        """The search's judgement: the easy level's, plus what the waiting side threatens that the mover cannot
        simply take away — its Commander attacked, an intruder on its home rank that nothing can remove, a runner
        that could land there out of every piece's reach, two of its pieces attacked at once — and captures valued
        at what the loss costs."""
        if not self.sharp:
            return self.easy_evaluate(state, num_players)
        mover = state.turn
        if mover not in (0, 1):
            return self.easy_evaluate(state, num_players)
        waiting = 1 - mover
        score = self._base(state, 0.12)
        alive = [[i for i in range(s * rules.PER_SEAT, (s + 1) * rules.PER_SEAT) if state.squares[i] != rules.EMPTY]
                 for s in (0, 1)]
        lost = rules.PER_SEAT - len(alive[waiting])
        commanders = (state.commander(0), state.commander(1))
        best = 0.0
        capturable = set()
        base_gain = 0.9 * (_LOSS_COST[lost + 1] - _LOSS_COST[lost])
        # The mover cannot tell which face-down enemy is the Commander: a sample that says so must not make an
        # attack on it a sure win (the search would credit the mover with knowing), only one chance in as many
        # pieces as could be it by what everyone has seen.
        hidden = not state.revealed[commanders[waiting]]
        for i in alive[mover]:
            sword = state.pieces[i].kind.sword
            targets, home = _reach(state, i)
            if home:
                best = max(best, 2.0)
            for target in targets:
                wins = sword >= state.pieces[target].kind.shield
                rank = _RANK_OF[state.squares[target]]
                # Taking a piece also takes back the ground it had gained.
                gain = base_gain + 0.12 * (rank if waiting == 0 else _LAST - rank)
                if wins:
                    capturable.add(target)
                if state.revealed[target]:
                    if target == commanders[waiting]:
                        best = 5.0
                    elif wins:
                        best = max(best, 5.0 if lost == rules.LOSING_LOSSES - 1 else gain)
                else:
                    take = 5.0 if lost == rules.LOSING_LOSSES - 1 else gain
                    guess = self._guess(state, waiting, target) if hidden else 0.0
                    best = max(best, guess * 5.0 + (1.0 - guess) * (take if wins else 0.0))
        score[mover] += best
        if best < 5.0:
            home_rank = 0 if mover == 0 else _LAST
            attackers = runners = uncovered = 0
            threatened: set[int] = set()
            for j in alive[waiting]:
                if j in capturable:
                    continue
                if _RANK_OF[state.squares[j]] == home_rank:
                    score[mover] -= 5.0  # an intruder nothing can remove: the waiting side wins
                    break
                targets, home = _reach(state, j)
                if commanders[mover] in targets:
                    attackers += 1
                sword = state.pieces[j].kind.sword
                threatened.update(t for t in targets if sword >= state.pieces[t].kind.shield)
                landings = _landings(state, j, home)
                if landings:
                    runners += 1
                    # A landing that nothing of the mover's could take back wins the waiting side the game unless
                    # the mover stops it now: the hard level's losses to easy came this way.
                    shield = state.pieces[j].kind.shield
                    if not all(_covered(state, sq, mover, shield, state.squares[j]) for sq in landings):
                        uncovered += 1
            # The waiting side may not know which piece is the Commander either; still, a Commander in reach is
            # a risk the search should not run lightly, and none to take when nothing else could be it.
            weight = 1.0 if len(_commander_suspects(state, mover)) == 1 else 0.7
            score[mover] -= weight * (0.8 * attackers + (1.0 if attackers >= 2 else 0.0))
            # A piece that can step onto the mover's home rank next turn must then be taken at once, and two such
            # runners are more than one answer can stop: the losses of the benchmark's hard games came this way.
            score[mover] -= (self.runner_cost * runners + self.open_home_cost * uncovered
                             + (1.0 if runners >= 2 else 0.0))
            # Two pieces under attack: one move saves one of them at most (a fourth loss loses the game).
            threatened.discard(commanders[mover])
            if len(threatened) >= 2:
                lost_mover = rules.PER_SEAT - len(alive[mover])
                score[mover] -= self.fork_share * (_LOSS_COST[lost_mover + 1] - _LOSS_COST[lost_mover]
                                                   if lost_mover < rules.LOSING_LOSSES - 1 else 5.0)
        return leader_values(score, self.scale)

    @staticmethod
    def _base(state: Any, ahead_weight: float = 0.25) -> list[float]:
        """Losses and the most advanced piece of each seat."""
        score = [0.0, 0.0]
        for seat in (0, 1):
            furthest = 0
            alive = 0
            for i in range(seat * rules.PER_SEAT, (seat + 1) * rules.PER_SEAT):
                sq = state.squares[i]
                if sq == rules.EMPTY:
                    continue
                alive += 1
                rank = _RANK_OF[sq]
                furthest = max(furthest, rank if seat == 0 else _LAST - rank)
            score[seat] = (-_LOSS_COST[rules.PER_SEAT - alive] + ahead_weight * furthest
                           + (1.5 if furthest == _LAST else 0.0))
        return score

    def easy_evaluate(self, state: Any, num_players: int) -> Values:
        """The plainer judgement the easy level plays by: losses, the most advanced piece, the mover's best
        threat."""
        score = self._base(state)
        mover = state.turn
        if mover in (0, 1):
            score[mover] += self._threats(state, mover)
        return leader_values(score, 0.7)

    @staticmethod
    def _threats(state: Any, seat: int) -> float:
        """What the side to move can do next: taking the Commander or a fourth piece wins; stepping onto the enemy
        home rank nearly does (the opponent must remove the piece at once); taking a piece is worth most of one."""
        commander = state.commander(1 - seat)
        last_loss = state.losses(1 - seat) == rules.LOSING_LOSSES - 1
        best = 0.0
        for i in range(seat * rules.PER_SEAT, (seat + 1) * rules.PER_SEAT):
            if state.squares[i] == rules.EMPTY:
                continue
            sword = state.pieces[i].kind.sword
            targets, home = _reach(state, i)
            if home:
                best = max(best, 2.0)
            for target in targets:
                if target == commander:
                    return 5.0
                if sword >= state.pieces[target].kind.shield:
                    if last_loss:
                        return 5.0
                    best = max(best, 0.7)
        return best

    def prepare(self) -> None:
        _armies_best_first()  # the 11,628 draft armies ranked: ~45 ms, once per process

    def settled_move(self, state: Any, seat: int, moves: list[str], rng: random.Random) -> str | None:
        """Drafts and deployments: the search cannot tell them apart (nothing has moved yet, and a playout from a
        set-up judges nothing), and searching thousands of them is what once made a draft take minutes. One of
        the few best by the set-up heuristics, picked by the seeded draw so that the computer is not predictable."""
        if not _is_setup(moves):
            return None
        best = _setup_best_first(state, seat)
        return best[rng.randrange(min(self.setup_choices, len(best)))]

    def refine_root(self, pool: Sequence[Any], seat: int, moves: list[str], num_players: int) -> list[str]:
        """The root's best moves by one ply of look-ahead, and, while an enemy piece can reach the computer's
        Commander, the first few moves after which none can (fleeing, blocking the line, taking the attacker).
        The look-ahead judges a threat to a face-down Commander as the opponent sees it, one chance in as many
        pieces as could be it, so a defence looked no better than a quiet move and was left out; the search below,
        whose opponent plays as if it knew, then found every move it kept lost and picked one of them (benchmark
        games 41 and 260: the Commander stayed in reach and was taken the next move)."""
        kept = super().refine_root(pool, seat, moves, num_players)
        state = pool[0]
        if not _commander_attacked(state, seat):
            return kept
        defences: list[str] = []
        searched = set(kept)
        others = [m for m in moves if m not in searched]  # the shortlist's first: its order is the look-ahead's
        searched.update(others)
        others += [m for m in self.game.legal_moves(state, seat) if m not in searched]
        for move in others:
            if len(defences) == self.defences or self.meter.exhausted:
                break
            after, _ = self.game.apply(state, seat, move)
            if not _commander_attacked(after, seat):
                defences.append(move)
        return kept + defences

    def candidates(self, state: Any, seat: int, rng: random.Random, limit: int) -> list[str]:
        moves = self.game.legal_moves(state, seat)
        if _is_setup(moves):
            best = _setup_best_first(state, seat)
            # The best by the heuristic and a few random others, so that a bad heuristic hides nothing for good.
            wild = limit // 4
            return list(best[: limit - wild]) + rng.sample(best[limit - wild:], wild)
        commander = state.commander(1 - seat)
        forward = 1 if seat == 0 else -1
        goal = _LAST if seat == 0 else 0

        def key(move: str) -> float:
            # Attacks first (on the Commander above all, as far as this sample knows) and landings on the enemy
            # home rank (the opponent must answer them at once), then advances.
            value = 0.0
            for src, dst in _steps(move):
                target = state.board[dst]
                if target != rules.EMPTY:
                    value += 50.0 if target == commander else 10.0
                if _RANK_OF[dst] == goal:
                    value += 10.0
                value += forward * (_RANK_OF[dst] - _RANK_OF[src]) * 0.5
            return value

        # Inside the search (at most max_candidates) the list is kept nearly the same from sample to sample, so
        # that the visits of a node gather on its strongest replies instead of spreading over random extras.
        return ranked(moves, key, limit, rng, 0.05 if limit <= self.max_candidates else 0.25)
