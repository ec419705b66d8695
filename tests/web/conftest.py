"""Fixtures of the web tests: an app over a temporary SQLite store, a live server in a thread."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from fuyuki.web.app import create_app
from fuyuki.web.settings import Settings
from tests.web.helpers import close_all


def fast_settings(**kw) -> Settings:
    base = dict(bot_delay=0.0, disconnect_grace=30.0, msg_rate=1000.0, msg_burst=1000.0,
                http_rate=1000.0, http_burst=1000.0)
    base.update(kw)
    return Settings(**base)


@pytest.fixture
def app_factory(tmp_path: Path):
    def make(**kw):
        return create_app(tmp_path / "data", settings=fast_settings(**kw))
    return make


@pytest.fixture
def http(app_factory):
    """An HTTP/WebSocket test client of a fresh server."""
    with TestClient(app_factory()) as client:
        try:
            yield client
        finally:
            close_all()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveServer:
    """uvicorn in a thread on 127.0.0.1 and a free port."""

    def __init__(self, app, config=None) -> None:
        import uvicorn

        from fuyuki.cli.web_commands import server_config

        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        if config is None:
            config = server_config(app, "127.0.0.1", self.port)
        config.port = self.port
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> "LiveServer":
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        self.thread.join(10)


@pytest.fixture
def live_server():
    """``with live_server(app) as server: server.url``"""
    return LiveServer


@pytest.fixture(scope="session")
def postgres_server():
    """A PostgreSQL server of the test run (started once), or a skip with the reason."""
    from tests.web.postgres import PostgresServer

    server = PostgresServer()
    reason = server.start()
    if reason is not None:
        pytest.skip(reason)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def postgres_url(postgres_server) -> str:
    """The URL of a new, empty PostgreSQL database."""
    return postgres_server.database()
