"""kibitz as a user installs it: the wheels ``scripts/wheels`` builds, installed into a fresh
virtual environment with no Rust compiler on the PATH, every command run once from outside
the checkout, and the page loaded in the browser from the installed package.

The wheels are built once, here (a minute or two: the native kernel's portable wheel without
its profile, ``KIBITZ_NATIVE_PROFILE=no``, as the local build of ``scripts/setup`` is already
profile-guided by the same steps). Where the machine has no cargo, ``dist/`` holds kibitz's
wheel alone and the installed kibitz must say that its rules run in pure Python.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path


import kibitz

ROOT = Path(__file__).resolve().parents[2]
NATIVE = shutil.which("cargo") is not None
"""Whether the native kernel's wheel is built here (and so must be in use when installed)."""
NATIVE_WHEEL = re.compile(r"kibitz_native-(\d+)\.\d+\.\d+-cp311-abi3-manylinux_\d+_\d+_x86_64\.whl")


@dataclass(frozen=True)
class Installed:
    """A virtual environment holding kibitz from its wheels, and how to run its commands."""

    venv: Path
    work: Path
    """An empty working folder outside the checkout, where the commands run."""
    env: dict[str, str]

    def run(self, *arguments: str, stdin: str = "", timeout: float = 120) -> str:
        """Run the installed ``kibitz`` with ``arguments``; its standard output (it must succeed)."""
        done = subprocess.run([str(self.venv / "bin" / "kibitz"), *arguments], input=stdin, capture_output=True,
                              text=True, env=self.env, cwd=self.work, timeout=timeout)
        assert done.returncode == 0, f"kibitz {' '.join(arguments)}: {done.stderr}"
        return done.stdout

    def python(self, code: str) -> str:
        done = subprocess.run([str(self.venv / "bin" / "python"), "-c", code], capture_output=True, text=True,
                              env=self.env, cwd=self.work, timeout=120)
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()


BUILT: list[str] = []
"""What ``scripts/wheels`` said of the native kernel's wheel (how it was built)."""


def build_wheels() -> list[Path]:
    """The wheels ``scripts/wheels`` builds into ``dist/`` (in an environment without the
    tests' own switches of the build; the kernel compiled once, without its profile)."""
    env = {name: value for name, value in os.environ.items() if name not in ("KIBITZ_PURE_PYTHON", "KIBITZ_NATIVE")}
    env["KIBITZ_NATIVE_PROFILE"] = "no"
    built = subprocess.run([str(ROOT / "scripts" / "wheels")], capture_output=True, text=True, timeout=1800, env=env)
    assert built.returncode == 0, built.stderr
    BUILT.clear()
    BUILT.extend(re.findall(r"the native kernel's wheel, (.*): kibitz_native-", built.stderr))
    dist = ROOT / "dist"
    found = sorted(dist.glob("kibitz-*.whl")) + sorted(dist.glob("kibitz_native-*.whl"))
    assert [path.name for path in found if path.name.startswith("kibitz-")] == \
        [f"kibitz-{kibitz.__version__}-py3-none-any.whl"]
    assert (dist / f"kibitz-{kibitz.__version__}.tar.gz").is_file()
    native = [path for path in found if path.name.startswith("kibitz_native-")]
    if NATIVE:
        assert len(native) == 1 and NATIVE_WHEEL.fullmatch(native[0].name), [path.name for path in native]
        assert int(NATIVE_WHEEL.fullmatch(native[0].name)[1]) == kibitz.native.SPEC_VERSION  # type: ignore[index]
        assert list(dist.glob("kibitz_native-*.tar.gz")), "the native kernel's sdist"
    return found


def install(wheels: list[Path], root: Path) -> Installed:
    """kibitz installed from ``wheels`` into a fresh virtual environment in ``root``, with a
    PATH that holds no Rust compiler and wheels only (nothing compiled on the way)."""
    venv, work, home = root / "venv", root / "work", root / "home"
    work.mkdir(parents=True)
    home.mkdir()
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    env = {"PATH": str(venv / "bin"), "HOME": str(home), "LANG": "C.UTF-8", "TERM": "dumb",
           "KIBITZ_DATA_DIR": str(home / "data")}
    assert shutil.which("cargo", path=env["PATH"]) is None and shutil.which("rustc", path=env["PATH"]) is None
    pip = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                          "--only-binary=:all:", *map(str, wheels)],
                         capture_output=True, text=True, env=env, cwd=work, timeout=900)
    assert pip.returncode == 0, pip.stderr
    return Installed(venv, work, env)


def test_the_installed_package_works_without_the_checkout(tmp_path: Path) -> None:
    """One test, so that the wheels are built once (test workers would each build them)."""
    installed = install(build_wheels(), tmp_path / "installed")
    check_the_build(installed)
    check_every_command(installed)
    (tmp_path / "served").mkdir()
    check_the_page(installed, tmp_path / "served")


def check_the_build(installed: Installed) -> None:
    """The installed package is the one in use, with the build it says."""
    where = installed.python("import kibitz, kibitz.web.app; print(kibitz.__file__)")
    assert Path(where).is_relative_to(installed.venv) and not Path(where).is_relative_to(ROOT)
    version = installed.run("--version")
    assert version.splitlines()[0] == f"kibitz {kibitz.__version__}"
    if NATIVE:
        assert BUILT and BUILT[0].startswith("portable (x86-64-v2)"), BUILT
        assert re.search(rf"rules build: native \(kibitz-native \d+\.\d+\.\d+, {re.escape(BUILT[0])}, abi3\)",
                         version), version
    else:
        assert "rules build: python" in version, version
    assert "compiled solver: off: an installed package" in version
    assert re.search(r"solver version \d+; rules version .*; agent versions: random \d+", version)


def check_every_command(installed: Installed) -> None:
    assert "Kingsdown Eights" in installed.run("games")
    assert "tableau" in installed.run("deal", "tournament", "4242")
    solved = json.loads(installed.run("solve", "cicely", "4242", "--json"))
    assert solved["outcome"] == "won"
    hint = installed.run("hint", "duchess", "4242", "--agent", "greedy")
    assert hint.strip()
    played = installed.run("play", "duchess", "--plain", stdin="new easy\nhint\nsave game.kibitz\nquit\n")
    assert "Saved 0 moves to game.kibitz" in played and "won after it in" in played
    assert "moves" in installed.run("replay", "game.kibitz")
    assert "review" in installed.run("review", "game.kibitz").lower()
    installed.run("study", "napoleons-flank", "--deals", "1-30", "--workers", "1", "--db", "study.db")
    assert "napoleons-flank" in installed.run("report", "--db", "study.db")


def check_the_page(installed: Installed, tmp_path: Path) -> None:
    """The page, its files and the rules come from the installed package; the page plays."""
    import httpx

    from tests.web.browser import CHROMIUM, CHROMIUM_ARGS, start_server, stop
    process, url = start_server(tmp_path, python=str(installed.venv / "bin" / "python"), env=installed.env,
                                cwd=installed.work)
    try:
        static = Path(installed.python("import kibitz.web.app as a; print(a.STATIC)"))
        assert static.is_relative_to(installed.venv)
        served = httpx.get(f"{url}/static/app.js", timeout=30)
        assert served.status_code == 200 and served.content == (static / "app.js").read_bytes()
        assert "Duchess" in httpx.get(f"{url}/api/rules/duchess", timeout=30).text
        if not os.access(CHROMIUM, os.X_OK) and not os.environ.get("CI"):
            return  # no browser here (scripts/setup test installs chromium; in CI it is a failure)
        from playwright.sync_api import expect, sync_playwright
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, timeout=60_000)
            try:
                page = browser.new_page()
                errors: list[str] = []
                page.on("pageerror", lambda error: errors.append(str(error)))
                page.goto(f"{url}/?game=grand-duchess&deal=777")
                expect(page.locator("#share")).to_have_text("deal #777", timeout=30_000)
                expect(page.locator("#table .card").first).to_be_visible(timeout=30_000)
                assert not errors, errors
            finally:
                browser.close()
    finally:
        stop(process)
