"""Fixtures: live ``praxis serve`` processes and credentials on them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from praxis_server import PraxisServer
from support import WRITER_CAPABILITIES, example_server, issue_token

from praxis_client import Client


@pytest.fixture(scope="session")
def praxis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PraxisServer]:
    """A live server for the whole session (tests share it: use your own scope)."""
    server = example_server(tmp_path_factory.mktemp("praxis"))
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def module_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PraxisServer]:
    """A live server of the test module's own, over a fresh store."""
    server = example_server(tmp_path_factory.mktemp("praxis-module"))
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def admin(praxis_server: PraxisServer) -> Iterator[Client]:
    with Client(praxis_server.url, token_file=praxis_server.admin_token_file) as client:
        yield client


@pytest.fixture(scope="session")
def writer_token(admin: Client) -> str:
    """``triage-bot``: every capability the scoped examples need, granted the example scope."""
    return issue_token(admin, "triage-bot", WRITER_CAPABILITIES)


@pytest.fixture(scope="session")
def writer(praxis_server: PraxisServer, writer_token: str) -> Iterator[Client]:
    with Client(praxis_server.url, writer_token) as client:
        yield client
