"""Which servers' matches one bot process looks after at start-up, when several processes share the database.

Discord sends all of a server's events to one shard, `(server id >> 22) % shard count`, and DMs to shard 0; each
process runs a range of the shards (settings). Anything may be presented by any process (posts go through the REST
API by id), but the start-up repair of boards a stop cut off is done by the process whose shard holds the server,
so two processes starting together never repair the same board.
"""

from __future__ import annotations

from dataclasses import dataclass

REPAIR_AFTER = 60.0  # a board younger than this may be being posted by a live process right now


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """Discord's shard of a server; a match without a server (played in DMs) belongs to shard 0."""
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


@dataclass(frozen=True)
class ProcessScope:
    shard_ids: tuple[int, ...] | None = None  # None: every shard
    shard_count: int | None = None

    def owns(self, guild_id: int | None) -> bool:
        if self.shard_ids is None or self.shard_count is None:
            return True
        return shard_of(guild_id, self.shard_count) in self.shard_ids
