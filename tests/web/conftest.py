"""Fixtures of the browser player's tests: an app on a fresh data directory."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Iterator

import pytest

pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from kibitz.web.app import LOCAL_HOSTS, create_app
from kibitz.web.guard import HostPolicy


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
