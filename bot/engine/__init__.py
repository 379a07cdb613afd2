"""The engine contract every game implements (`base.py`) and the tools engines share: square names on a grid
(`grid.py`) and seeded random games (`playout.py`). Pure: no Discord, no images, no I/O, no game of its own."""
