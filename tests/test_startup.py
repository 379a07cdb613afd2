"""Settings and start-up: clear one-line answers instead of tracebacks."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import asyncpg
import pytest

from bot import app
from bot.settings import Settings, SettingsError, read_dotenv
from bot.storage.database import migration_files
from bot.storage.postgres_schema import schema_version


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
    for days in ("-1", "367", "a month"):
        with pytest.raises(SettingsError, match="STRATEGOS_VACATION_DAYS must be a whole number of days from 0"):
            Settings.load(environ={"STRATEGOS_VACATION_DAYS": days}, dotenv=None)


def test_vacation_days_default_to_thirty_a_year():
    assert Settings.load(environ={}, dotenv=None).vacation_days == 30
    assert Settings.load(environ={"STRATEGOS_VACATION_DAYS": "0"}, dotenv=None).vacation_days == 0


def test_missing_token_is_one_clear_line(monkeypatch, capsys, tmp_path):
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert app.main() == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["strategos: DISCORD_TOKEN is not set. Put it in .env (see .env.example) or the environment; "
                   "to try Strategos without one: python -m bot demo"]


@pytest.mark.parametrize("url", ["mysql://root@localhost/strategos", "sqlite:///data/strategos.db",
                                 "SQLITE://strategos.db", "redis://localhost"])
def test_a_database_url_of_another_kind_is_refused_in_one_line(url):
    # Read as a path, "mysql://x" became a folder "mysql:" that did not exist: a puzzling answer to a clear mistake.
    with pytest.raises(SettingsError) as refused:
        Settings.load(environ={"STRATEGOS_DATABASE": url}, dotenv=None)
    message = str(refused.value)
    assert "\n" not in message and "not supported" in message
    assert "SQLite file path" in message and "postgresql://" in message


@pytest.mark.parametrize("database", ["strategos.db", "/data/strategos.db", "./a:b.db", "postgres://u@h/db",
                                      "POSTGRESQL://u@h/db"])
def test_paths_and_postgresql_urls_are_still_accepted(database):
    assert str(Settings.load(environ={"STRATEGOS_DATABASE": database}, dotenv=None).database) in (database,
                                                                                                   database[2:])


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


# --- a first deployment: everything the bot needs locally is checked before Discord is contacted -----------------

@pytest.fixture
def offline(monkeypatch, tmp_path):
    """main() with a token, in an empty folder, recording whether it went on to contact Discord."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "token")
    for key in ("STRATEGOS_DATABASE", "STRATEGOS_LOG_LEVEL", "STRATEGOS_DEV_GUILD", "STRATEGOS_CHALLENGE_HOURS"):
        monkeypatch.delenv(key, raising=False)
    contacted = []

    async def connect(bot, token):
        contacted.append(token)

    monkeypatch.setattr(app, "_run", connect)
    return contacted


def one_line(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert "could not reach Discord" not in err[0]
    return err[0]


def test_env_example_leaves_the_database_to_the_default_or_the_image():
    example = read_dotenv(Path(__file__).parent.parent / ".env.example")
    assert "DISCORD_TOKEN" in example and "STRATEGOS_DATABASE" not in example


def test_a_loud_log_level_is_refused_before_anything_else(offline, monkeypatch, capsys):
    monkeypatch.setenv("STRATEGOS_LOG_LEVEL", "LOUD")
    assert app.main() == 2
    line = one_line(capsys)
    assert line.startswith("strategos: STRATEGOS_LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR")
    assert not offline


def test_a_missing_folder_is_refused_in_one_clear_line_not_created(offline, monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("STRATEGOS_DATABASE", str(tmp_path / "typo" / "strategos.db"))
    assert app.main() == 2
    line = one_line(capsys)
    assert line.startswith(f"strategos: cannot open the database at {tmp_path}/typo/strategos.db (the folder "
                           f"{tmp_path}/typo does not exist; create it first)")
    assert "STRATEGOS_DATABASE" in line and not offline and not (tmp_path / "typo").exists()


def test_a_database_path_under_a_file_is_one_clear_line(offline, monkeypatch, capsys, tmp_path):
    (tmp_path / "notes.txt").write_text("a file, not a folder")
    monkeypatch.setenv("STRATEGOS_DATABASE", str(tmp_path / "notes.txt" / "strategos.db"))
    assert app.main() == 2
    line = one_line(capsys)
    assert line.startswith(f"strategos: cannot open the database at {tmp_path}/notes.txt/strategos.db")
    assert "STRATEGOS_DATABASE" in line and not offline


@pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")
def test_a_read_only_database_is_one_clear_line_and_exits(offline, monkeypatch, capsys, tmp_path):
    from bot.storage import database

    async def read_only(db):  # what SQLite says when the file or its folder is not writable
        raise sqlite3.OperationalError("attempt to write a readonly database")

    monkeypatch.setattr(database, "migrate", read_only)
    threads = set(threading.enumerate())
    assert app.main() == 2
    line = one_line(capsys)
    assert line.startswith(f"strategos: cannot open the database at strategos.db (attempt to write a readonly")
    assert "STRATEGOS_DATABASE" in line and not offline
    # the half-opened connection was closed: its worker thread would otherwise keep the process from exiting
    for thread in set(threading.enumerate()) - threads:
        thread.join(timeout=1)
        assert not thread.is_alive(), thread


def test_a_good_database_goes_on_to_discord(offline, capsys, tmp_path):
    assert app.main() == 0
    assert offline == ["token"] and (tmp_path / "strategos.db").exists()


def test_readme_set_up_is_two_commands_in_a_fresh_venv_and_ci_runs_the_second():
    """A fresh Debian/Ubuntu refuses `pip install` outside a virtual environment (PEP 668)."""
    root = Path(__file__).parent.parent
    readme = (root / "README.md").read_text(encoding="utf-8")
    set_up = readme.split("## Set-up", 1)[1].split("\n## ", 1)[0]
    commands = [line.strip() for line in set_up.splitlines() if line.startswith("    ")]
    venv = "python3 -m venv .venv && . .venv/bin/activate && "
    assert commands == [venv + "pip install -e . && python -m bot",
                        venv + 'pip install -e ".[test]" && python -m pytest']
    ci = subprocess.run([str(root / ".ci" / "run"), "--print"], capture_output=True, text=True, check=True)
    assert ci.stdout.strip() == commands[1]
    assert "rm -rf .venv" in (root / ".ci" / "run").read_text()


# --- the caller's shell and .env files -------------------------------------------------------------------------

def test_tests_do_not_depend_on_settings_exported_in_the_callers_shell():
    """Tests that read the environment pass with bad settings exported (conftest.py clears them for each test)."""
    root = Path(__file__).parent.parent
    env = {**os.environ, "STRATEGOS_CHALLENGE_HOURS": "nan", "STRATEGOS_LOG_LEVEL": "LOUD",
           "STRATEGOS_DATABASE": "/nonexistent/folder/strategos.db", "DISCORD_TOKEN": "from-the-shell"}
    tests = ["tests/test_startup.py::test_missing_token_is_one_clear_line",
             "tests/test_startup.py::test_rejected_token_is_one_clear_line",
             "tests/test_ratings_store.py::test_the_rebuild_command_rebuilds_the_settings_database[sqlite]"]
    run = subprocess.run([sys.executable, "-m", "pytest", "-n", "0", "-q", "-p", "no:cacheprovider", *tests],
                         cwd=root, env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout[-2000:]
    assert "3 passed" in run.stdout


def test_no_strategos_variable_reaches_a_test():
    assert not [key for key in os.environ if key.startswith("STRATEGOS_") or key == "DISCORD_TOKEN"]


@pytest.mark.parametrize("hours", ["nan", "NaN", "inf", "-inf", "1e400", "-1", "0", "0.0", "721", "1e9", "soon"])
def test_a_challenge_lifetime_that_is_not_a_sane_number_of_hours_stops_the_start(offline, capsys, monkeypatch,
                                                                                  hours):
    monkeypatch.setenv("STRATEGOS_CHALLENGE_HOURS", hours)
    assert app.main() == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"strategos: STRATEGOS_CHALLENGE_HOURS must be a number of hours above 0 and at most 720, "
                   f"not {hours!r}"]
    assert not offline  # Discord was never contacted


@pytest.mark.parametrize("hours", ["0.5", "24", "720"])
def test_sane_challenge_lifetimes_are_accepted(hours):
    assert Settings.load(environ={"STRATEGOS_CHALLENGE_HOURS": hours}, dotenv=None).challenge_ttl_hours == \
        float(hours)


def test_dotenv_with_a_byte_order_mark_inline_comments_and_quotes(tmp_path):
    dotenv = tmp_path / ".env"
    dotenv.write_bytes(
        "\ufeffDISCORD_TOKEN=abc.def  # the bot's token\n"
        "STRATEGOS_CHALLENGE_HOURS=12 # half a day\n"
        "export STRATEGOS_LOG_LEVEL='warning'\n"
        'STRATEGOS_DATABASE="/data/with # hash.db"\n'
        "STRATEGOS_DEV_GUILD=\n".encode("utf-8"))
    settings = Settings.load(environ={}, dotenv=dotenv)
    assert settings.token == "abc.def" and settings.challenge_ttl_hours == 12
    assert settings.log_level == "WARNING" and str(settings.database) == "/data/with # hash.db"
    assert settings.dev_guild is None
    environment = Settings.load(environ={"STRATEGOS_CHALLENGE_HOURS": "3", "DISCORD_TOKEN": "env"}, dotenv=dotenv)
    assert environment.challenge_ttl_hours == 3 and environment.token == "env"  # the environment still wins


def test_a_dotenv_that_is_not_utf8_is_one_clear_line(offline, capsys):
    Path(".env").write_bytes("DISCORD_TOKEN=caf\xe9\n".encode("latin-1"))
    assert app.main() == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["strategos: .env is not UTF-8 text; save it as UTF-8"] and not offline


@pytest.mark.parametrize("url", ["postgresql://strategos:secret@127.0.0.1:9/strategos", "postgres://127.0.0.1:9/db"])
def test_a_postgresql_url_names_a_postgresql_database_not_a_file(offline, monkeypatch, capsys, tmp_path, url):
    # Nothing listens on port 9: the start stops before Discord, in one line without the URL's password, and
    # no SQLite file of that name appears (read as a path, the URL would be "a missing folder", password and all).
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("STRATEGOS_DATABASE", url)
    assert Settings.load(dotenv=None).database == url
    assert app.main() == 2
    line = one_line(capsys)
    assert line.startswith("strategos: cannot reach PostgreSQL at ") and "127.0.0.1:9/" in line
    assert "secret" not in line and not offline and not list(tmp_path.iterdir())


async def test_the_bot_starts_on_postgresql_with_its_schema_migrated(postgres_dsn):
    assert await app.check_database(postgres_dsn) is None  # an empty database: migrated at the start
    conn = await asyncpg.connect(postgres_dsn)
    try:
        assert await schema_version(conn) == migration_files("postgresql")[-1][0]
    finally:
        await conn.close()


# --- a database the bot may read but not write: one line saying so, not "not a SQLite database" ----------------

def start_bot(database, *, read_only_mount):
    """`python -m bot` with a token and `database`, with `read_only_mount` (folder, view) bound read-only in a mount
    namespace of the process's own (the tests run as root)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("STRATEGOS_", "DISCORD_"))}
    env.update(DISCORD_TOKEN="token", STRATEGOS_DATABASE=str(database))
    command = ["unshare", "--mount", "sh", "-c", 'mount --bind -o ro "$1" "$2" && shift 2 && exec "$@"', "sh",
               *map(str, read_only_mount), sys.executable, "-m", "bot"]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=60, cwd="/")


def check_as(uid, database):
    """What the start-up check says of `database` to a process of user `uid` (a fork of this one: the Python
    this runs on lies in root's home, where another user may not reach)."""
    import asyncio

    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child reports through the pipe
        try:
            os.setgroups([]), os.setgid(uid), os.setuid(uid)
            os.write(write, (asyncio.run(app.check_database(database)) or "None").encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read) as said:
        line = said.read()
    os.waitpid(child, 0)
    return line


def migrated(path):
    """A database as the bot leaves it: migrated, in WAL mode, closed (no -wal or -shm file left)."""
    import asyncio

    from bot.storage import open_database

    async def make():
        await (await open_database(path)).close()

    asyncio.run(make())
    return path


@pytest.mark.parametrize("kind", ["a database of the bot", "a new file"])
def test_a_read_only_mount_is_one_line_saying_so(tmp_path, kind):
    # Finding 6: the Docker image with /data mounted read-only said "the file is not a SQLite database".
    data, view = tmp_path / "data", tmp_path / "view"
    data.mkdir(), view.mkdir()
    if kind == "a database of the bot":
        migrated(data / "strategos.db")
    result = start_bot(view / "strategos.db", read_only_mount=(data, view))
    assert result.returncode == 2, result.stderr
    assert result.stderr.strip().splitlines() == [
        f"strategos: cannot write the database at {view}/strategos.db: the folder {view} is mounted read-only. "
        "Mount it read-write, or give the file and its folder to the user the bot runs as (the Docker image's is "
        "uid 10001)."]


@pytest.fixture
def shared_folder():
    """A folder another user can reach (pytest's own are root's alone), removed afterwards."""
    import shutil
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="strategos-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder)


NOBODY = 65534


def test_a_database_file_of_another_user_is_one_line_saying_so(shared_folder):
    path = migrated(shared_folder / "strategos.db")  # root's, 0644; the folder is anybody's to write in
    shared_folder.chmod(0o777)
    assert check_as(NOBODY, path) == (
        f"cannot write the database at {path}: this user (uid {NOBODY}) may not write the file {path}. "
        "Mount it read-write, or give the file and its folder to the user the bot runs as (the Docker image's is "
        "uid 10001).")
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == migration_files()[-1][0]


def test_a_database_folder_of_another_user_is_one_line_saying_so(shared_folder):
    path = migrated(shared_folder / "strategos.db")
    os.chown(path, NOBODY, NOBODY)  # the file is the bot's; the folder, where the -wal file goes, is root's
    assert check_as(NOBODY, path) == (
        f"cannot write the database at {path}: this user (uid {NOBODY}) may not write in the folder "
        f"{shared_folder}, where SQLite keeps the -wal and -shm files. Mount it read-write, or give the file and its "
        "folder to the user the bot runs as (the Docker image's is uid 10001).")


def test_what_sqlite_says_is_told_apart(tmp_path):
    """Each error SQLite raises at the start, as it raises it: a read-only file is not "not a database"."""
    from bot.storage.database import DatabaseError, UnwritableDatabase, _classified

    path = migrated(tmp_path / "strategos.db")
    with pytest.raises(sqlite3.OperationalError) as read_only:
        sqlite3.connect(f"file:{path}?mode=ro", uri=True).execute("CREATE TABLE t (x)")
    said = _classified(read_only.value, path)
    assert isinstance(said, UnwritableDatabase) and "attempt to write a readonly database" in str(said)
    with pytest.raises(sqlite3.OperationalError) as cannot_open:
        sqlite3.connect(f"file:{tmp_path}/missing.db?mode=ro", uri=True).execute("PRAGMA schema_version")
    assert isinstance(_classified(cannot_open.value, path), UnwritableDatabase)
    notes = tmp_path / "notes.db"
    notes.write_text("my notes " * 100)
    with pytest.raises(sqlite3.DatabaseError) as foreign:
        sqlite3.connect(notes).execute("PRAGMA schema_version")
    said = _classified(foreign.value, notes)
    assert type(said) is DatabaseError and str(said) == "the file is not a SQLite database (file is not a database)"
    with pytest.raises(sqlite3.OperationalError) as other:
        sqlite3.connect(path).execute("SELECT nothing FROM nowhere")
    assert _classified(other.value, path) is None  # a mistake of ours stays what it is
