"""The computer opponent: `decide(policy, view, level=..., seed=...)` picks a move for the seat whose view it is.

It decides from that view alone — hidden values and cargo it may not know are sampled (`Game.sample_state`) —
so it can never play on a secret. Pure and synchronous. Each game's knowledge is its policy (a `Policy` in
bot/games/<game>/policy.py); the registry's `choose_move(view, level=..., seed=...)` finds it by the view's game
and is what the match layer runs in a worker process.

    from bot.ai import decide
    move = decide(policy, game.view(state, seat), level="normal", seed=match_seed)
"""

from __future__ import annotations

from bot.engine.base import JSON, seeded_rng

from .mcts import Budget, Search, greedy
from .policy import Meter, Policy

LEVELS = ("easy", "normal", "hard")


def decide(policy: Policy, view: JSON, *, level: str = "normal", seed: int = 0) -> str:
    """A legal move, in canonical notation, for `view["viewer"]`, who must be one of the seats to act.

    The same view, level and seed always give the same move. Raises ValueError for an unknown level, a public
    view or a seat that may not act now.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; known: {', '.join(LEVELS)}")
    seat = view.get("viewer")
    if seat is None or seat not in view.get("to_act", ()):
        raise ValueError("the computer needs the private view of a seat that is to act")
    num_players = view["num_players"]
    policy = policy.metered(policy.work(level, num_players))
    game = policy.game  # every engine call below is charged to the decision's meter
    # Salted with the ply so that one match seed does not make the same random choices every turn.
    rng = seeded_rng(seed, "ai", level, view.get("ply"), seat)
    state = policy.sample(view, rng, level)
    moves = game.legal_moves(state, seat)
    if not moves:
        raise ValueError("no legal move for that seat")
    if len(moves) == 1:
        return moves[0]
    if level == "easy":
        candidates = policy.candidates(state, seat, rng, policy.easy_candidates)
        return greedy(policy, state, seat, candidates, num_players, rng, policy.easy_noise)
    settled = policy.settled_move(state, seat, moves, rng)
    if settled is not None:
        return settled
    budget = Budget(policy.iterations(level, num_players), policy.determinisations, policy.exploration)
    pool = [state] if policy.determinisations == 1 else policy.sample_pool(view, rng, level, policy.determinisations)
    root_moves = policy.root_candidates(pool[0], seat, rng, num_players)
    root_moves = policy.refine_root(pool, seat, root_moves, num_players)
    return Search(policy, num_players, budget, rng).run(pool, seat, root_moves)

def judge(policy: Policy, view: JSON, played: str, *, level: str = "hard",
          seed: int = 0) -> tuple[str, float, float] | None:
    """How a level (hard, for the analysis) judges the move `played` from `view` (the mover's own view, before
    it): (the move it prefers, that move's value, the played move's value), values the chance to win (0 to 1) as
    its search found them, the played move searched beside its own candidates. None where the level does not
    search: a single legal move, a move its heuristics settle (a deployment, a draft), a view whose seat may not
    act, the easy level (it does not search)."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; known: {', '.join(LEVELS)}")
    seat = view.get("viewer")
    if seat is None or seat not in view.get("to_act", ()) or level == "easy":
        return None
    num_players = view["num_players"]
    policy = policy.metered(policy.work(level, num_players))
    game = policy.game
    rng = seeded_rng(seed, "judge", view.get("ply"), seat)
    state = policy.sample(view, rng, level)
    moves = game.legal_moves(state, seat)
    if len(moves) < 2 or played not in moves or policy.settled_move(state, seat, moves, rng) is not None:
        return None
    budget = Budget(policy.iterations(level, num_players), policy.determinisations, policy.exploration)
    pool = [state] if policy.determinisations == 1 else policy.sample_pool(view, rng, level, policy.determinisations)
    root_moves = policy.refine_root(pool, seat, policy.root_candidates(pool[0], seat, rng, num_players), num_players)
    if played not in root_moves:
        root_moves = [*root_moves, played]
    values = Search(policy, num_players, budget, rng).values(pool, seat, root_moves)
    preferred = max(root_moves, key=lambda m: values[m])
    return preferred, values[preferred][1], values[played][1]


__all__ = ["decide", "judge", "LEVELS", "Meter", "Policy"]
