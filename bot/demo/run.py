"""The demo's lifetime: bind the address, start the world, print where to go, stop cleanly on Ctrl+C."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import sys
import tempfile
import threading
import webbrowser
from pathlib import Path

from bot.app import check_database, configure_logging

from .server import DemoServer, PortInUse
from .world import DemoWorld

PORTS_TO_TRY = 20  # without --port, the next free ports after a taken default


async def run(*, port: int | None, default_port: int, database: Path | None, open_browser: bool) -> int:
    """Serve the demo until Ctrl+C (or SIGTERM): 0 after a clean stop, 2 with one line on bad input."""
    configure_logging("WARNING")
    temporary = Path(tempfile.mkdtemp(prefix="strategos-demo-")) if database is None else None
    try:
        # ignore: `temporary` is made whenever no database is given
        return await _serve(port, default_port, database or temporary / "strategos.db",  # type: ignore[operator]
                            temporary, open_browser)
    finally:
        if temporary is not None:
            shutil.rmtree(temporary, ignore_errors=True)


async def _serve(port, default_port, database: Path, temporary: Path | None, open_browser: bool) -> int:
    problem = await check_database(database)
    if problem:
        print(f"strategos demo: {problem.replace('STRATEGOS_DATABASE', '--database')}", file=sys.stderr)
        return 2
    world = DemoWorld(database)
    server = DemoServer(world)
    try:
        await bind_port(server, port, default_port)
    except PortInUse as exc:
        print(f"strategos demo: {exc.args[0]} on 127.0.0.1 is in use by another program; choose another with "
              "--port (--port 0 takes any free port).", file=sys.stderr)
        return 2
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        await world.start()
        kept = "a temporary file, removed when the demo stops" if temporary else "kept when the demo stops"
        print(f"Strategos demo: the real bot in a simulated Discord; nothing leaves this computer.\n"
              f"Database: {database} ({kept})\n"
              f"Open {server.url}\n"
              "The address holds a secret: whoever has it can play as you. Ctrl+C stops the demo.", flush=True)
        if open_browser:
            _open_browser(server.url)
        await stop.wait()
    finally:
        print("Stopping the demo…", flush=True)
        await world.close()
        await server.close()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)
    if temporary is not None:
        shutil.rmtree(temporary, ignore_errors=True)
    print("Stopped." + (" The temporary database is removed." if temporary else ""), flush=True)
    return 0


async def bind_port(server: DemoServer, port: int | None, default_port: int) -> None:
    """The port asked for, or without one the default or the next free port after it (said)."""
    if port is not None:
        try:
            await server.bind(port)
        except PortInUse:
            raise PortInUse(f"port {port}") from None
        return
    for candidate in range(default_port, default_port + PORTS_TO_TRY):
        try:
            await server.bind(candidate)
        except PortInUse:
            continue
        if candidate != default_port:
            print(f"Port {default_port} is in use; the demo takes port {candidate} instead.", flush=True)
        return
    raise PortInUse(f"every port from {default_port} to {default_port + PORTS_TO_TRY - 1}")


def _open_browser(url: str) -> None:
    """Open the page where a graphical browser is at hand; on a machine without a display, printing is enough."""
    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return  # a text browser would take over this terminal
    threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()
