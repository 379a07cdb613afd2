"""A quick, aggressive Mycenae player for the Discord tests: it goes for kings, burns now and then, asks to
load another player's pieces once and refuses the first request it is asked, so short seeded matches show every
kind of Mycenae action."""

import random


def make_policy(seed):
    rng = random.Random(seed)
    state_flags = {"refused": False, "requested": False}
    def choose(game, state, seat, moves):
        view = game.view(state, seat)
        kings = {p["square"] for p in view["board"] if p["type"] == "K" and p["owner"] != seat}
        if moves[0] in ("consent", "refuse"):
            if not state_flags["refused"]:
                state_flags["refused"] = True
                return "refuse"
            return "consent"
        own = {p["square"] for p in view["board"] if p["owner"] == seat}
        def target(m):
            if "x" in m and not m.startswith(("load", "unload", "burn", "cargo")):
                return m.split("x")[1][:2]
            return None
        hits = [m for m in moves if target(m) in kings]
        if hits: return rng.choice(hits)
        burns = [m for m in moves if m.startswith("burn")]
        if burns and rng.random() < 0.5: return rng.choice(burns)
        requests = [m for m in moves if m.startswith("load") and any(sq not in own for sq in m.split()[2:])]
        if requests and not state_flags["requested"]:
            state_flags["requested"] = True
            return rng.choice(requests)
        caps = [m for m in moves if "x" in m and not m.startswith(("load","unload","burn","cargo"))]
        if caps and rng.random() < 0.8: return rng.choice(caps)
        return rng.choice(moves)
    return choose
