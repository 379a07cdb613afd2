"""Tic-tac-toe with a hidden draw for the first move: a game that exists only for the tests. It is laid out as every
game of bot/games is (engine, renderer, policy, guide, declaration) and registered by the tests alone, to show that
a game package and its registration are all a new game needs."""
