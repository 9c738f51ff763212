"""What the package declares: one version, the native kernel's version tied to its spec
version, and every file the package reads at run time inside the package's data."""

from __future__ import annotations

import fnmatch
import re
import tomllib
from pathlib import Path

import kibitz
from kibitz import native

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
CARGO = tomllib.loads((ROOT / "native" / "Cargo.toml").read_text())


def test_the_version_is_written_once() -> None:
    project = PYPROJECT["project"]
    assert "version" not in project and "version" in project["dynamic"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "kibitz.__version__"}
    assert re.fullmatch(r"\d+\.\d+\.\d+", kibitz.__version__)
    native_project = tomllib.loads((ROOT / "native" / "pyproject.toml").read_text())["project"]
    assert "version" not in native_project and "version" in native_project["dynamic"]  # from Cargo.toml


def test_the_native_kernel_version_follows_its_spec_version() -> None:
    major = int(CARGO["package"]["version"].split(".")[0])
    assert major == native.SPEC_VERSION
    rust = (ROOT / "native" / "src" / "lib.rs").read_text()
    assert re.search(rf"pub const SPEC_VERSION: u32 = {native.SPEC_VERSION};", rust)
    extra = PYPROJECT["project"]["optional-dependencies"]["native"]
    assert extra == [f"kibitz-native>={major},<{major + 1}"]


def test_the_extras_name_what_only_some_users_need() -> None:
    extras = PYPROJECT["project"]["optional-dependencies"]
    assert {"native", "cluster", "gym", "figures"} <= set(extras)
    assert not any(name.startswith(("ray", "gymnasium", "kibitz-native", "matplotlib"))
                   for name in PYPROJECT["project"]["dependencies"])
    assert any(name.startswith("textual") for name in PYPROJECT["project"]["dependencies"])  # the terminal table


def test_every_data_file_is_in_the_package_data() -> None:
    declared = PYPROJECT["tool"]["setuptools"]["package-data"]
    source = ROOT / "src"
    for package, folder in (("kibitz.web", "kibitz/web/static"), ("kibitz.games", "kibitz/games/rules"),
                            ("kibitz", "kibitz/data")):
        base = source / package.replace(".", "/")
        files = [path for path in (source / folder).rglob("*") if path.is_file() and "__pycache__" not in path.parts]
        assert files
        for path in files:
            relative = path.relative_to(base).as_posix()
            assert any(fnmatch.fnmatch(relative, pattern) and relative.count("/") == pattern.count("/")
                       for pattern in declared[package]), f"{path} is left out of the wheel"
