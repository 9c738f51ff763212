"""Fixtures of the browser player's tests: an app on a fresh data directory; for the tests in
Chromium, a real ``kibitz serve``, the browser, a browser context and a page (the modules
using these import :mod:`tests.web.pages`, which skips them without a browser)."""

from __future__ import annotations

import os
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

import pytest

pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from kibitz.web.app import LOCAL_HOSTS, create_app
from kibitz.web.guard import HostPolicy

from .browser import CHROMIUM, CHROMIUM_ARGS, start_server, stop

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page


def client_for(data_dir: Path, hosts: HostPolicy = LOCAL_HOSTS) -> TestClient:
    """A test client of a new app instance keeping its data in ``data_dir``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return TestClient(create_app(data_dir, hosts))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    test_client = client_for(tmp_path)
    yield test_client
    test_client.app.state.referee.store.close()  # type: ignore[attr-defined]


# -- the browser tests: Playwright is imported only by the fixtures that need it --------------

@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The address of a real ``kibitz serve`` keeping its data in a fresh folder."""
    process, url = start_server(tmp_path_factory.mktemp("kibitz-data"))
    try:
        yield url
    finally:
        stop(process)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Headless Chromium, driven by Playwright."""
    from playwright.sync_api import sync_playwright

    playwright = sync_playwright().start()
    try:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, timeout=60_000)
        try:
            yield chromium
        finally:
            chromium.close()
    finally:
        playwright.stop()


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    """A fresh browser context (its own storage); fails the test on any script error in its pages."""
    from .pages import VIEWPORT, new_context

    errors: list[str] = []
    context = new_context(browser, VIEWPORT, errors)
    try:
        yield context
    finally:
        context.close()
    assert not errors, f"script errors in the page: {errors}"


@pytest.fixture
def page(context: BrowserContext) -> Page:
    """A fresh page of its own context."""
    return context.new_page()


@pytest.fixture(scope="module")
def screenshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the tables' screenshots go: ``$KIBITZ_SCREENSHOTS``, else a temporary folder."""
    folder = os.environ.get("KIBITZ_SCREENSHOTS")
    path = Path(folder) if folder else tmp_path_factory.mktemp("screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path
