"""The ``kibitz serve`` command: play in the browser.

Starlette and uvicorn are imported only when the command runs, so the rest of
the command line starts as fast as before.
"""

from __future__ import annotations

import argparse
import os
import socket
import sys
import threading
import webbrowser
from pathlib import Path

from typing import TYPE_CHECKING

from kibitz.errors import KibitzError
from kibitz.printable import printable

if TYPE_CHECKING:
    from kibitz.web.guard import HostPolicy

DEFAULT_PORT = 8765
DEFAULT_HOST = "127.0.0.1"
DEFAULT_KEEP_DAYS = 30.0
WILDCARD_HOSTS = ("0.0.0.0", "::", "")

SERVE_EPILOG = f"""\
kibitz serve runs a small web server on this computer and opens the player in
your browser. The server referees every move; games in progress are saved as
you play, so closing the browser or the server loses nothing.

Games and statistics are kept in an SQLite file in the data directory: the
--data-dir given, else $KIBITZ_DATA_DIR, else ~/.local/share/kibitz (on macOS
~/Library/Application Support/kibitz, on Windows %LOCALAPPDATA%\\kibitz).
--data-dir wins over $KIBITZ_DATA_DIR. A finished game can be reopened for
--keep-finished days after its last move (default {DEFAULT_KEEP_DAYS:g}); its
result stays in the statistics for good.

By default the server listens on {DEFAULT_HOST} and answers only this computer,
under the names localhost, 127.0.0.1 and [::1]. --host 0.0.0.0 (or ::) lets
any computer that can reach this one play, with no password: only on a
network you trust. It then answers to this computer's name and to any IP
address; --allow-host adds another name. Pages of other sites can never
play: the server refuses requests a browser sends from them.

examples:
  kibitz serve
  kibitz serve --port 9000 --no-browser
  kibitz serve --data-dir ~/kibitz-games"""


class ServeError(KibitzError):
    """The server cannot start (port taken, data directory unusable)."""


def default_data_dir() -> Path:
    """The platform's per-user data directory for kibitz."""
    home = Path.home()
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA")
        return (Path(base) if base else home / "AppData" / "Local") / "kibitz"
    if sys.platform == "darwin":
        return home / "Library" / "Application Support" / "kibitz"
    xdg = os.environ.get("XDG_DATA_HOME")
    return (Path(xdg) if xdg and Path(xdg).is_absolute() else home / ".local" / "share") / "kibitz"


def data_dir(option: str | None) -> Path:
    """Where the player's games are kept: ``--data-dir``, else ``$KIBITZ_DATA_DIR``, else the default."""
    if option:
        return Path(option).expanduser()
    env = os.environ.get("KIBITZ_DATA_DIR")
    if env:
        return Path(env).expanduser()
    return default_data_dir()


def port_number(text: str) -> int:
    if not text.isdigit() or not 0 < int(text) < 65536:
        raise argparse.ArgumentTypeError(f"port {text!r}: must be a number from 1 to 65535")
    return int(text)


def days(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 100_000:
        raise argparse.ArgumentTypeError(f"{printable(text)!r} days: must be a number from 0 to 100000")
    return value


def add_commands(commands: argparse._SubParsersAction,  # type: ignore[type-arg]
                 formatter: type[argparse.HelpFormatter]) -> None:
    """Add ``serve`` to the ``kibitz`` parser."""
    serve = commands.add_parser("serve", help="play in the browser",
                                description="Run the browser player on this computer.",
                                epilog=SERVE_EPILOG, formatter_class=formatter)
    serve.add_argument("--port", type=port_number, default=DEFAULT_PORT,
                       help=f"port to listen on (default {DEFAULT_PORT})")
    serve.add_argument("--host", default=DEFAULT_HOST,
                       help=f"address to listen on (default {DEFAULT_HOST}, this computer only)")
    serve.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                       help="another name the server answers to (e.g. behind a proxy); repeatable")
    serve.add_argument("--no-browser", action="store_true", help="do not open a browser")
    serve.add_argument("--data-dir", metavar="DIR", help="where games and statistics are kept")
    serve.add_argument("--keep-finished", type=days, default=DEFAULT_KEEP_DAYS, metavar="DAYS",
                       help=f"days a finished game stays resumable (default {DEFAULT_KEEP_DAYS:g}; 0: for ever)")
    serve.set_defaults(run=run_serve)


def _check_port(host: str, port: int) -> None:
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as error:
        raise ServeError(f"cannot listen on {host}: {error.strerror or error}") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as error:
            raise ServeError(f"cannot listen on {host}:{port}: {error.strerror or error} "
                             "(is kibitz serve already running? try --port)") from None


def host_policy(host: str, extra: list[str]) -> HostPolicy:
    """The names a server listening on ``host`` answers to: this computer's own names always;
    listening beyond it, also ``host``, this computer's network names and any IP address."""
    from kibitz.web.guard import LOCAL_NAMES, HostPolicy
    names = [*LOCAL_NAMES, *extra]
    if host.lower() in LOCAL_NAMES:
        return HostPolicy.of(names)
    names.append(host)
    if host in WILDCARD_HOSTS:
        names += [socket.gethostname(), socket.getfqdn()]
    return HostPolicy.of([name for name in names if name], any_address=True)


def run_serve(args: argparse.Namespace) -> int:
    """``kibitz serve``."""
    import uvicorn

    from kibitz.web.app import create_app
    from kibitz.web.protocol import GuardedProtocol

    directory = data_dir(args.data_dir)
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ServeError(f"cannot use data directory {printable(str(directory))}: "
                         f"{error.strerror or error}") from None
    host = args.host.strip("[]")
    _check_port(host, args.port)
    app = create_app(directory, host_policy(host, args.allow_host), keep_finished_days=args.keep_finished or None)
    server = uvicorn.Server(uvicorn.Config(app, host=host, port=args.port, log_level="warning",
                                           http=GuardedProtocol))
    shown = "127.0.0.1" if host in WILDCARD_HOSTS else host
    url = f"http://{'[' + shown + ']' if ':' in shown else shown}:{args.port}/"
    sys.stdout.write(f"kibitz is serving the player at {printable(url)}\n"
                     f"games are kept in {printable(str(directory))}\npress Ctrl-C to stop\n")
    sys.stdout.flush()
    if not args.no_browser:
        def open_when_ready() -> None:
            for _ in range(100):
                if server.started:
                    webbrowser.open(url)
                    return
                threading.Event().wait(0.1)
        threading.Thread(target=open_when_ready, daemon=True).start()
    server.run()
    return 0
