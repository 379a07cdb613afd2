"""Imported first by the worker processes (the forkserver preloads it, bot/workers.py): every game with the tables
its engine and policy build on first use already built (Myriath's placement catalogue takes ~0.6 s), and its first
board pictures drawn (each board layer's palette takes 50-400 ms), so that a worker's first think or picture is as
quick as its later ones and every worker forked afterwards starts with them."""

from .registry import prepare_games, prepare_pictures

prepare_games()
prepare_pictures()
