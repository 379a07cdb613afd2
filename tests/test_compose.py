"""compose.yaml: the bot beside a PostgreSQL 15 server, as docs/operating.md's "Running on PostgreSQL" describes it.

No YAML library is a dependency of Strategos, so compose.yaml keeps to the block subset of YAML read below
(mappings, lists, plain or quoted scalars, flow lists of quoted strings) and anything beyond it fails the test
rather than being guessed at."""

from __future__ import annotations

import http.server
import json
import os
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from bot.settings import Settings

ROOT = Path(__file__).parent.parent


def parse_block_yaml(text: str) -> dict:
    """The subset of YAML compose.yaml uses: `key: value`, `key:` opening a nested block, `- item` lists,
    `# comments`, values plain, "quoted" or a flow list ["a", "b"]. Raises ValueError on anything else."""
    lines = []
    for number, raw in enumerate(text.splitlines(), 1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        if "\t" in raw[: len(raw) - len(raw.lstrip())]:
            raise ValueError(f"line {number}: a tab in the indentation")
        lines.append((len(raw) - len(raw.lstrip(" ")), raw.strip(), number))

    def scalar(value: str, number: int):
        if value.startswith("["):
            return json.loads(value)  # a flow list of double-quoted strings is JSON
        if value.startswith('"'):
            return json.loads(value)
        if value.startswith(("'", "{", "&", "*", "!", "|", ">")) or " #" in value:
            raise ValueError(f"line {number}: {value!r} is beyond the subset this test reads")
        return value

    def block(start: int, indent: int) -> tuple[object, int]:
        if lines[start][1].startswith("- "):
            items = []
            i = start
            while i < len(lines) and lines[i][0] == indent and lines[i][1].startswith("- "):
                items.append(scalar(lines[i][1][2:].strip(), lines[i][2]))
                i += 1
            return items, i
        mapping: dict[str, object] = {}
        i = start
        while i < len(lines) and lines[i][0] == indent:
            _, content, number = lines[i]
            match = re.fullmatch(r"([A-Za-z0-9_.-]+):(?:\s+(.*))?", content)
            if not match:
                raise ValueError(f"line {number}: {content!r} is not `key: value`")
            key, value = match.group(1), match.group(2)
            if key in mapping:
                raise ValueError(f"line {number}: {key} appears twice")
            if value is not None:
                mapping[key], i = scalar(value, number), i + 1
            elif i + 1 < len(lines) and lines[i + 1][0] > indent:
                mapping[key], i = block(i + 1, lines[i + 1][0])
            else:
                mapping[key], i = None, i + 1
        return mapping, i

    parsed, end = block(0, 0)
    if end != len(lines):
        raise ValueError(f"line {lines[end][2]}: unexpected indentation")
    return parsed  # type: ignore[return-value]


@pytest.fixture(scope="module")
def compose() -> dict:
    return parse_block_yaml((ROOT / "compose.yaml").read_text(encoding="utf-8"))


def test_the_reader_refuses_what_it_does_not_understand():
    assert parse_block_yaml("a:\n  b: 1\n  c:\n    - x\n    - \"y\"\nd: [\"e\"]\n") == {
        "a": {"b": "1", "c": ["x", "y"]}, "d": ["e"]}
    for bad in ("a: &anchor 1\n", "a:\n  b: 1\n c: 2\n", "a: 1\na: 2\n", "a: x # note\n", "just text\n"):
        with pytest.raises(ValueError):
            parse_block_yaml(bad)


def test_postgresql_15_keeps_its_data_on_a_named_volume_and_says_when_it_is_ready(compose):
    db = compose["services"]["db"]
    assert db["image"] == "postgres:15"
    mounts = dict(volume.split(":", 1) for volume in db["volumes"])
    assert mounts == {"strategos-postgres": "/var/lib/postgresql/data"}  # where the image keeps its cluster
    assert "strategos-postgres" in compose["volumes"]  # named, declared: survives `docker compose down`
    check = db["healthcheck"]["test"]
    assert check[0] == "CMD" and check[1] == "pg_isready"
    # over TCP (the image's first-start server is socket-only), the user and database the bot uses
    assert "--host=127.0.0.1" in check and "--username=strategos" in check and "--dbname=strategos" in check
    assert db["environment"]["POSTGRES_USER"] == "strategos" and db["environment"]["POSTGRES_DB"] == "strategos"


def test_the_bot_waits_for_a_healthy_database_and_is_built_from_this_repository(compose):
    bot = compose["services"]["bot"]
    assert bot["depends_on"] == {"db": {"condition": "service_healthy"}}
    assert bot["build"] == "." and (ROOT / "Dockerfile").is_file()
    assert bot["env_file"] == [".env"]  # DISCORD_TOKEN and every other setting, as `docker run --env-file`


def test_the_database_url_comes_from_the_environment_and_no_password_is_committed(compose):
    password = compose["services"]["db"]["environment"]["POSTGRES_PASSWORD"]
    match = re.fullmatch(r"\$\{POSTGRES_PASSWORD:-([A-Za-z0-9-]+)\}", password)
    assert match, password  # from .env or the environment; the default only for a local try
    default = match.group(1)
    assert "local" in default
    url = compose["services"]["bot"]["environment"]["STRATEGOS_DATABASE"]
    assert url == ("${STRATEGOS_DATABASE:-postgresql://strategos:" + password + "@db:5432/strategos}")
    text = (ROOT / "compose.yaml").read_text(encoding="utf-8")
    assert text.count(default) == 2  # nowhere but in those two defaults
    operating = (ROOT / "docs" / "operating.md").read_text(encoding="utf-8")
    assert "POSTGRES_PASSWORD" in operating and default in operating  # the default is documented as local-only


def test_the_operating_guide_says_how_to_run_on_postgresql_and_the_readme_points_there():
    operating = (ROOT / "docs" / "operating.md").read_text(encoding="utf-8")
    section = operating.split("## Running on PostgreSQL", 1)[1].split("\n## ", 1)[0]
    assert "STRATEGOS_DATABASE=postgresql://" in section and "docker compose up" in section
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "STRATEGOS_DATABASE=postgresql://" in readme and "docker compose up" in readme
    assert "docs/operating.md#running-on-postgresql" in readme


def test_the_dockerfile_still_runs_the_bot_as_an_unprivileged_user_with_sqlite_by_default():
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert "STRATEGOS_DATABASE=/data/strategos.db" in dockerfile  # SQLite unless compose (or -e) says otherwise
    assert 'CMD ["python", "-m", "bot"]' in dockerfile and "USER strategos" in dockerfile
    assert "STOPSIGNAL SIGTERM" in dockerfile


def test_the_bot_serves_metrics_and_compose_checks_its_health_at_the_port_the_bot_takes(compose):
    bot = compose["services"]["bot"]
    assert bot["environment"]["STRATEGOS_METRICS_PORT"] == "${STRATEGOS_METRICS_PORT:-9101}"
    check = bot["healthcheck"]
    assert check["test"][:3] == ["CMD", "python", "-c"]  # the image's Python: no curl in a slim image
    assert "/health" in check["test"][3] and "$" not in check["test"][3]  # nothing for compose to interpolate
    assert check["retries"] == "3" and check["interval"] == "30s"
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert "STRATEGOS_METRICS_HOST=0.0.0.0" in dockerfile  # reachable from the compose network, not only inside


class _Health(http.server.BaseHTTPRequestHandler):
    answer = 200

    def do_GET(self):
        self.send_response(self.answer if self.path == "/health" else 404)
        self.end_headers()
        self.wfile.write(b"ok\n" if self.answer == 200 else b"not connected to Discord yet\n")

    def log_message(self, *args):
        pass


@pytest.mark.parametrize("shards", [None, "0-1", "2-3", "6-7,4"])
def test_the_healthcheck_passes_on_200_and_fails_on_503_at_the_port_of_the_process(compose, shards):
    """The healthcheck's command, run as compose runs it, against a server on the port the bot would take."""
    command = compose["services"]["bot"]["healthcheck"]["test"]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Health)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        lowest = 0 if shards is None else min(int(part.split("-")[0]) for part in shards.split(","))
        base = server.server_address[1] - lowest  # so that the process of these shards listens on the server's port
        environ = {"STRATEGOS_METRICS_PORT": str(base), "STRATEGOS_SHARD_COUNT": "8",
                   "STRATEGOS_DATABASE": "postgresql://strategos@db/strategos"}
        if shards is not None:
            environ["STRATEGOS_SHARDS"] = shards
        assert Settings.load(environ, dotenv=None).metrics_address[1] == server.server_address[1]  # the bot's rule
        for answer, healthy in ((200, True), (503, False)):
            _Health.answer = answer
            run = subprocess.run([sys.executable, *command[2:]], env={**os.environ, **environ}, capture_output=True)
            assert (run.returncode == 0) == healthy, run.stderr
    finally:
        server.shutdown()
        server.server_close()
