"""Settings and start-up: clear one-line answers instead of tracebacks."""

from __future__ import annotations

import pytest

from bot import app
from bot.settings import Settings, SettingsError, read_dotenv


def test_settings_from_dotenv_and_environment(tmp_path):
    dotenv = tmp_path / ".env"
    dotenv.write_text('# comment\nDISCORD_TOKEN="abc"\nSTRATEGOS_DATABASE=/data/x.db\nSTRATEGOS_DEV_GUILD=123\n')
    settings = Settings.load(environ={"STRATEGOS_LOG_LEVEL": "debug"}, dotenv=dotenv)
    assert settings.token == "abc" and str(settings.database) == "/data/x.db" and settings.dev_guild == 123
    assert settings.log_level == "DEBUG" and settings.challenge_ttl_hours == 24
    assert Settings.load(environ={"DISCORD_TOKEN": "env"}, dotenv=dotenv).token == "env"  # environment wins
    assert read_dotenv(tmp_path / "missing") == {}


def test_bad_settings_say_what_is_wrong(tmp_path):
    with pytest.raises(SettingsError, match="STRATEGOS_DEV_GUILD"):
        Settings.load(environ={"STRATEGOS_DEV_GUILD": "my server"}, dotenv=None)
    with pytest.raises(SettingsError, match="STRATEGOS_CHALLENGE_HOURS"):
        Settings.load(environ={"STRATEGOS_CHALLENGE_HOURS": "soon"}, dotenv=None)


def test_missing_token_is_one_clear_line(monkeypatch, capsys, tmp_path):
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert app.main() == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["strategos: DISCORD_TOKEN is not set. Put it in .env (see .env.example) or the environment."]


def test_rejected_token_is_one_clear_line(monkeypatch, capsys, tmp_path):
    import discord

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "wrong")

    async def refuse(bot, token):
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setattr(app, "_run", refuse)
    assert app.main() == 2
    assert capsys.readouterr().err.strip() == (
        "strategos: Discord rejected DISCORD_TOKEN. Copy the token again from the Developer Portal "
        "(Bot → Reset Token)."
    )


def test_create_bot_builds_without_connecting(tmp_path):
    bot = app.create_bot(Settings(database=tmp_path / "s.db"))
    assert bot.settings.database == tmp_path / "s.db"
    assert not bot.is_ready()
