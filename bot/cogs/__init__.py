"""Slash commands, one cog per area. They read like a table of contents; the work happens in bot.matches."""
