"""Imported first by the computer's worker processes (the forkserver preloads it, bot/matches/computer.py): every
game with the tables its engine and policy build on first use already built (Myriath's placement catalogue takes
~0.6 s), so that a worker's first think is as quick as its later ones and every worker forked afterwards starts
with them."""

from .registry import prepare_games

prepare_games()
