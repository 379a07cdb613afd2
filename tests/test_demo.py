"""`python -m bot demo`: the real bot in a simulated Discord, played in a real browser (Debian's chromium,
headless), and its bad input: a taken port, Ctrl+C, a visitor without the address's secret."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

import bot.demo
from bot.demo.run import bind_port
from bot.demo.server import DemoServer, PortInUse

ROOT = Path(__file__).resolve().parent.parent
BROWSERS = ("chromium", "chromium-browser", "google-chrome")


class Demo:
    """A `python -m bot demo` process, started with any free port and no browser."""

    def __init__(self, *args: str):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bot", "demo", "--no-browser", *args], cwd=ROOT,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"},
            start_new_session=True)  # its own process group, which Ctrl+C in its terminal would reach whole
        self.lines: list[str] = []
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                break
            self.lines.append(line.rstrip("\n"))
            if line.startswith("Open "):
                break
        output = "\n".join(self.lines)
        match = re.search(r"Open (http://127\.0\.0\.1:(\d+)/#(\S+))", output)
        assert match, f"the demo printed no address:\n{output}"
        self.url, self.port, self.secret = match.group(1), int(match.group(2)), match.group(3)
        self.database = Path(re.search(r"Database: (\S+)", output).group(1))

    def stop(self) -> tuple[int, str]:
        """Ctrl+C, as a person would press it (the terminal signals every process of the demo, the computer's worker
        too); the exit status and what the demo printed meanwhile."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGINT)
        try:
            rest, _ = self.process.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            rest, _ = self.process.communicate()
        return self.process.returncode, rest

    def request(self, path: str, *, headers: dict[str, str] | None = None, body: dict | None = None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=data, headers={
            **({"Content-Type": "application/json"} if data else {}), **(headers or {})})
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()


@pytest.fixture(scope="module")
def demo():
    running = Demo()
    yield running
    running.stop()


def test_the_page_refuses_anyone_without_the_addresss_secret(demo):
    assert demo.request("/demo/state")[0] == 401
    assert demo.request("/demo/state", headers={"X-Strategos-Demo": "guess"})[0] == 401
    status, body = demo.request("/demo/state", headers={"X-Strategos-Demo": demo.secret})
    assert status == 200 and json.loads(body)["channels"][0]["name"] == "games"
    # SimCord's own requests (the page's data) need the same secret: the demo relays it as the preview's capability.
    assert demo.request("/api/pages", headers={"X-Simcord-Capability": "guess"}, body={})[0] == 401
    assert demo.request("/api/pages", body={})[0] == 401
    assert demo.request("/api/pages", headers={"X-Simcord-Capability": demo.secret}, body={})[0] == 200
    # Another page in the same browser cannot use it either, nor a name other than this machine's own.
    assert demo.request("/demo/state", headers={"X-Strategos-Demo": demo.secret,
                                                "Origin": "http://example.test"})[0] == 403
    assert demo.request("/demo/state", headers={"X-Strategos-Demo": demo.secret,
                                                "Host": "rebound.example.test"})[0] == 403


def test_either_member_opens_any_channel_and_their_own_dms(demo):
    secret = {"X-Strategos-Demo": demo.secret}
    state = json.loads(demo.request("/demo/state", headers=secret)[1])
    visitor, friend = (member["id"] for member in state["members"])
    games = state["channels"][0]["id"]
    status, body = demo.request("/demo/open", headers=secret, body={"channel": "dm", "member": friend})
    as_friend = json.loads(body)
    assert status == 200 and as_friend["member"] == friend
    assert as_friend["channel"] == next(c["id"] for c in as_friend["channels"] if c["kind"] == "dm")
    assert as_friend["channel"] != next(c["id"] for c in state["channels"] if c["kind"] == "dm")  # not the visitor's
    assert demo.request("/demo/open", headers=secret, body={"channel": "1", "member": visitor})[0] == 404
    assert demo.request("/demo/open", headers=secret, body={"channel": games, "member": "2"})[0] == 400
    assert demo.request("/demo/open", headers={"X-Strategos-Demo": "guess"},
                        body={"channel": games, "member": visitor})[0] == 401
    status, body = demo.request("/demo/open", headers=secret, body={"channel": games, "member": visitor})
    assert status == 200 and json.loads(body)["channel"] == games


def diagnostic_codes(value) -> set[str]:
    """Every diagnostic code anywhere in SimCord's page data."""
    if isinstance(value, dict):
        codes = {value["code"]} if isinstance(value.get("code"), str) else set()
        return codes.union(*(diagnostic_codes(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(diagnostic_codes(v) for v in value))
    return set()


def test_the_page_warns_of_nothing_from_its_first_second(demo):
    # The commands are synced everywhere (as an owner's "@Strategos sync" does), so no "not synced" warning.
    status, body = demo.request("/api/pages", headers={"X-Simcord-Capability": demo.secret}, body={})
    assert status == 200
    assert "commands-unsynced" not in diagnostic_codes(json.loads(body))


def find_browser() -> str | None:
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    return None


def test_a_match_against_the_computer_in_a_real_browser():
    browser_path = find_browser()
    if browser_path is None:
        message = "no chromium here (.ci/run installs Debian's chromium with apt)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    demo = Demo()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=browser_path, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.set_default_timeout(60_000)
            page.goto(demo.url)
            discord = page.frame_locator("#preview")
            # /play game:epaminondas computer:easy, typed in the channel's message box as on Discord.
            composer = discord.locator("#channel-composer-input")
            composer.click()
            composer.type("/play")
            discord.locator('.command-entry[data-entry-key$=":play"]').click()
            discord.locator('.command-suggestion[data-value="epaminondas"]').click()
            discord.locator(".command-ghost").click()
            discord.locator('.command-suggestion[data-value="computer"]').click()
            discord.locator('.command-suggestion[data-value="easy"]').click()
            discord.locator("#send-message").click()
            expect(discord.locator(".channel-message", has_text="the match has started")).to_be_visible()
            # The page's own "Viewing as" names only the member the channel list plays as.
            expect(discord.locator("#viewer-picker option")).to_have_text(["visitor"])
            # The match's thread, from the link /games gives (a discord.com address, opened here in the demo).
            links = discord.locator(".channel-message a[href*='discord.com/channels/']")
            links_before = links.count()
            composer.click()
            composer.type("/games")
            discord.locator('.command-entry[data-entry-key$=":games"]').click()
            discord.locator("#send-message").click()
            expect(links).not_to_have_count(links_before)  # /games has answered (a link clicked before may go stale)
            links.last.click()
            expect(page.locator("#channels button.thread").first).to_have_attribute("aria-current", "true")
            assert len(page.context.pages) == 1  # no new tab
            boards = discord.locator('.channel-message:has(img[alt^="Epaminondas board, match #"])')  # a board picture, by its alt text
            expect(boards).to_have_count(1)
            first_board = boards.first.get_attribute("data-message-id")
            boards.first.get_by_role("button", name="Move").click()
            # The private picker: the first offer of each step, until the move is complete.
            picker = discord.locator(".channel-message", has_text="Your move").last
            complete_the_move(page, picker)
            # The move is played: a new board picture, at move 1 (the computer's reply follows).
            click_until_accepted(picker.get_by_role("button", name="Confirm"))
            expect(boards).not_to_have_count(1, timeout=60_000)
            expect(discord.locator(".channel-message", has_text="move 1")).not_to_have_count(0)
            assert boards.last.get_attribute("data-message-id") != first_board
            picture = boards.last.locator('img[alt^="Epaminondas board, match #"]')
            expect(picture).to_have_attribute("src", re.compile(r"^blob:"))  # the PNG, fetched through the page
            assert picture.evaluate("image => image.decode().then(() => image.naturalWidth)") > 500
            # The sides' app emojis in the board's words, drawn (SimCord keeps no uploaded image: the demo gives them).
            emoji = boards.last.locator('img.custom-emoji[alt="sg_epaminondas_light"]').first
            assert emoji.evaluate("image => image.decode().then(() => image.naturalWidth)") == 128
            # The computer answers on its own (thinking in its worker process); the page shows it unasked.
            expect(discord.locator(".channel-message", has_text="move 2")).not_to_have_count(0, timeout=60_000)
        finally:
            browser.close()
            status, printed = demo.stop()
    # Ctrl+C with the computer's worker running stops everything without a trace.
    assert status == 0 and printed.endswith("Stopped. The temporary database is removed.\n"), printed
    assert "Traceback" not in printed and "KeyboardInterrupt" not in printed, printed


def click_until_accepted(button) -> None:
    """Click until the page takes the click (the button goes with the answer): a click that lands while the page
    is being redrawn, or that SimCord refuses because the bot changed the page that instant, is made again, as a
    person would."""
    from playwright.sync_api import Error as PlaywrightError

    for _ in range(10):
        try:
            button.click(timeout=5_000)
            expect(button).to_have_count(0, timeout=2_000)
            return
        except (PlaywrightError, AssertionError):
            if button.count() == 0:
                return
    raise AssertionError("the page never took the click")


def complete_the_move(page, picker) -> None:
    """Take the first offer of each of the picker's steps until the move is ready to confirm.

    With the keyboard, as the page's listbox offers (a mouse would scroll the conversation to reach the open menu,
    and scrolling closes it). The page redraws when the bot's answer arrives; a step cut off by that is retried.
    """
    from playwright.sync_api import Error as PlaywrightError

    step = picker.locator(".text-display").first  # the picker's words: the first text of its layout
    expect(step).to_contain_text("chosen: nothing yet")
    for _ in range(12):
        text = step.inner_text()
        if "Ready to play" in text:
            return
        try:
            trigger = picker.locator(".select-trigger").first
            trigger.scroll_into_view_if_needed(timeout=5_000)
            trigger.focus(timeout=5_000)
            page.keyboard.press("Enter")  # opens the menu, its first offer highlighted
            page.keyboard.press("Enter")  # takes it
            expect(step).not_to_have_text(text, timeout=2_000)  # the next step, or the move ready to confirm
        except (PlaywrightError, AssertionError):
            page.keyboard.press("Escape")
    raise AssertionError(f"the picker never offered a complete move: {step.inner_text()!r}")


def test_ctrl_c_stops_the_demo_cleanly_and_removes_its_temporary_database():
    running = Demo()
    assert running.database.is_file()
    status, printed = running.stop()
    assert status == 0, printed
    assert "Stopped. The temporary database is removed." in printed and "Traceback" not in printed
    assert not running.database.exists() and not running.database.parent.exists()


def test_a_given_database_is_kept(tmp_path):
    database = tmp_path / "demo.db"
    running = Demo("--database", str(database))
    status, printed = running.stop()
    assert status == 0 and database.is_file(), printed


def taken_port() -> socket.socket:
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen()
    return holder


def test_a_port_in_use_gets_one_clear_line():
    with taken_port() as holder:
        port = holder.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "bot", "demo", "--no-browser", "--port", str(port)], cwd=ROOT,
                              capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"strategos demo: port {port} on 127.0.0.1 is in use by another program; choose another with --port "
        "(--port 0 takes any free port)."]


def test_without_a_port_a_taken_default_is_said_and_the_next_free_one_taken(capsys):
    async def bind_beside(port: int) -> int:
        server = DemoServer(world=None)
        try:
            await bind_port(server, None, default_port=port)
            return server.port
        finally:
            await server.close()

    with taken_port() as holder:
        port = holder.getsockname()[1]
        chosen = asyncio.run(bind_beside(port))
    assert chosen > port
    assert capsys.readouterr().out == f"Port {port} is in use; the demo takes port {chosen} instead.\n"


def test_a_port_out_of_range_is_refused_by_the_command_line():
    done = subprocess.run([sys.executable, "-m", "bot", "demo", "--port", "70000"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--port must be between 0 and 65535" in done.stderr


def test_bind_reports_a_taken_port():
    async def bind(port: int) -> None:
        server = DemoServer(world=None)
        try:
            await server.bind(port)
        finally:
            await server.close()

    with taken_port() as holder, pytest.raises(PortInUse):
        asyncio.run(bind(holder.getsockname()[1]))


def test_without_the_demo_extra_one_line_says_how_to_install_it(monkeypatch, capsys):
    real = bot.demo.importlib.util.find_spec
    monkeypatch.setattr(bot.demo.importlib.util, "find_spec",
                        lambda name, *args: None if name == "simcord" else real(name, *args))
    assert bot.demo.main(["--no-browser"]) == 2
    assert capsys.readouterr().err == ('strategos demo: the demo needs its extra: pip install -e ".[demo]" '
                                       "(missing: simcord)\n")


def test_a_database_that_cannot_be_written_gets_one_line(tmp_path, capsys):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    assert bot.demo.main(["--no-browser", "--port", "0", "--database", str(blocker / "demo.db")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"strategos demo: cannot open the database at {blocker / 'demo.db'}") and "--database" in err
    assert err.count("\n") == 1


async def test_a_request_while_the_page_changes_channel_is_told_to_wait():
    # Picking another channel closes the old preview while the page may still ask it for something: the relay
    # answers 503 ("reload"), never a traceback.
    from aiohttp import web
    from aiohttp.test_utils import make_mocked_request
    from simcord import SetupError

    class Closing:
        @property
        def url(self):
            raise SetupError("Preview is not entered")

    class World:
        preview = Closing()

    server = DemoServer(world=World())
    server.port = 8750
    for preview in (Closing(), None):
        World.preview = preview
        request = make_mocked_request("GET", "/preview", headers={"Host": "127.0.0.1:8750"})
        with pytest.raises(web.HTTPServiceUnavailable):
            await server._relay(request)
