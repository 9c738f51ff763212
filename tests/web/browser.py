"""Driving ``kibitz serve`` from a browser: shared by the end-to-end tests and
``benchmarks/web_latency.py`` (no Playwright needed to import it)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Sequence

import httpx

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"]
SERVER_START_SECONDS = 30.0


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.bind((host, 0))
        port: int = probe.getsockname()[1]
        return port


def stop(process: subprocess.Popen[bytes]) -> None:
    """Stop a server started in its own process group, for sure."""
    if process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
        except ProcessLookupError:
            pass
    process.wait()


def start_server(data_dir: Path, host: str = "127.0.0.1", options: Sequence[str] = (),
                 python: str = sys.executable, env: dict[str, str] | None = None,
                 cwd: Path | None = None) -> tuple[subprocess.Popen[bytes], str]:
    """Start ``kibitz serve`` on a free port of ``host`` (its log in ``data_dir/server.log``,
    appended to) with ``python`` (this one by default) in ``env`` and ``cwd``; returns the
    process and its address once it answers."""
    log_path = data_dir / "server.log"
    for _ in range(3):   # another program may take the free port first
        port = free_port(host)
        with open(log_path, "ab") as log:
            process = subprocess.Popen(
                [python, "-m", "kibitz", "serve", "--host", host, "--port", str(port), "--no-browser",
                 "--data-dir", str(data_dir), *options],
                stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
                env=env, cwd=cwd)
        url = f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"
        deadline = time.monotonic() + SERVER_START_SECONDS
        try:
            while time.monotonic() < deadline and process.poll() is None:
                try:
                    if httpx.get(f"{url}/api/games", timeout=2).status_code == 200:
                        return process, url
                except httpx.HTTPError:
                    pass
                time.sleep(0.05)   # polling interval while the server starts
        except BaseException:
            stop(process)
            raise
        stop(process)
    raise RuntimeError(f"kibitz serve did not start: {log_path.read_text(errors='replace')}")


def played_through_api(server: str, slug: str, deal: int, moves: Sequence[str],
                       ruleset: str = "standard") -> dict[str, Any]:
    """A new game of ``slug`` deal ``deal`` on ``server`` with ``moves`` played through the
    HTTP API: the view of it after the last move."""
    with httpx.Client(base_url=server, timeout=30) as client:
        view: dict[str, Any] = client.post(f"/api/games/{slug}/new", json={"deal": deal, "ruleset": ruleset}).json()
        for played, move in enumerate(moves):
            response = client.post(f"/api/play/{view['id']}/move", json={"move": move, "expected_moves": played})
            assert response.status_code == 200, response.text
            view = response.json()
    return view


# A point of the viewport where a click reaches ``element`` itself (a card: that very card;
# a slot: any card or slot of its pile), after scrolling it into view; null while there is none.
POINT_ON = """([selector, pile, exact]) => {
  const element = document.querySelector(selector);
  if (!element) return null;
  element.scrollIntoView({block: 'nearest', inline: 'nearest'});
  const box = element.getBoundingClientRect();
  for (let y = box.top + 3; y < box.bottom - 1; y += 2) {
    for (const x of [box.left + box.width / 2, box.left + 6, box.right - 6]) {
      const hit = document.elementFromPoint(x, y)?.closest('.card, .slot');
      if (hit && (exact ? hit === element : hit.dataset.pile === pile)) return {x, y};
    }
  }
  return null;
}"""
