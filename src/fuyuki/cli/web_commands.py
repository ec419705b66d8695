"""``fuyuki serve``: the table server of every game (FastAPI + WebSockets, SQLite storage)."""

from __future__ import annotations

import logging
import re
import sys
from pathlib import Path
from typing import Optional

import typer

from fuyuki.core.errors import FuyukiError

HELP = {
    "ja": "サーヴァント大戦・聖杯戦争ボードをブラウザで友だちと遊ぶサーバーを起動します。",
    "en": "Run the server for playing Servant Big Battle or the Grail War Board with friends in the browser.",
}


HELP_LINK = ("なくしたリンクの代わりに、保存された卓の席へ新しいリンクを作ります（ホスト・GMも）。"
             " / Make a new link for a seat of a stored table in place of a lost one (the "
             "host's or the GM's too).")


def register(app: typer.Typer) -> None:
    @app.command("serve", help=HELP["ja"] + " / " + HELP["en"])
    def serve(
        host: str = typer.Option("127.0.0.1", help="listen address (0.0.0.0: every interface)"),
        port: int = typer.Option(8000, min=1, max=65535, help="port"),
        data: Path = typer.Option(Path("fuyuki-data"), help="directory of the SQLite database"),
        bot_delay: float = typer.Option(0.6, min=0, max=10, help="seconds between bot moves"),
        grace: float = typer.Option(20.0, min=1, max=3600,
                                    help="seconds before a disconnected player's seat is bot-played"),
        allow_origin: list[str] = typer.Option([], help="extra allowed WebSocket Origin (repeatable)"),
        proxy_headers: bool = typer.Option(
            False, help="behind a reverse proxy: take the client's address from X-Forwarded-For "
                        "(only from --forwarded-allow-ips) for rate limits and per-address bounds"),
        forwarded_allow_ips: str = typer.Option(
            "127.0.0.1", help="comma-separated addresses of the trusted proxies ('*': any)"),
        db: str = typer.Option("", help="postgresql://... to keep the tables in PostgreSQL "
                                        "(default: SQLite in --data)"),
        cluster_tick: float = typer.Option(
            1.0, min=0.1, max=60, help="with --db: how often this process takes the bots and "
                                       "timers of the tables nobody runs (another process died)"),
        lang: str = typer.Option("ja", help="message language: ja | en"),
        public_url: str = typer.Option(
            "", help="the server's address as players open it (https://...): the link of a "
                     "notice; without it no notice is sent"),
        smtp_host: str = typer.Option("", help="mail server of e-mail notices (login and STARTTLS: "
                                               "FUYUKI_SMTP_USER, FUYUKI_SMTP_PASSWORD, "
                                               "FUYUKI_SMTP_STARTTLS=1)"),
        smtp_port: int = typer.Option(25, min=1, max=65535, help="its port"),
        smtp_from: str = typer.Option("", help="the From address of e-mail notices"),
        log_level: str = typer.Option(
            "info", help="what the server logs to stderr: debug | info (tables created, "
                         "started, finished, resumed; refused requests) | warning | error"),
        log_format: str = typer.Option(
            "text", help="text (one readable line a record) | json (one JSON object a line: "
                         "time, level, logger, message, table, seat, event...)"),
        shutdown_seconds: float = typer.Option(
            10.0, min=0.5, max=600, help="on SIGTERM/SIGINT: seconds for the moves in flight to "
                                         "finish and the pages to close before the process exits"),
    ) -> None:
        if log_level not in LOG_LEVELS:
            typer.echo(f"fuyuki serve: --log-level: one of {' | '.join(LOG_LEVELS)}", err=True)
            raise typer.Exit(2)
        if log_format not in LOG_FORMATS:
            typer.echo(f"fuyuki serve: --log-format: one of {' | '.join(LOG_FORMATS)}", err=True)
            raise typer.Exit(2)
        try:
            from fuyuki.web.app import create_app
            from fuyuki.web.notify import NotifySettings
            from fuyuki.web.server import Server
            from fuyuki.web.settings import Settings
        except ImportError as exc:  # pragma: no cover - the web extra is missing
            typer.echo(f"fuyuki serve needs the web extra (pip install 'fuyuki[web]'): {exc}", err=True)
            raise typer.Exit(2) from None
        try:
            settings = Settings(bot_delay=bot_delay, disconnect_grace=grace,
                                allowed_origins=tuple(allow_origin), shutdown_seconds=shutdown_seconds,
                                cluster_tick=cluster_tick)
            notify = NotifySettings(public_url=public_url, smtp_host=smtp_host, smtp_port=smtp_port,
                                    smtp_from=smtp_from)
            app = create_app(data, settings=settings, storage=open_storage(db) if db else None,
                             notify=notify)
        except (FuyukiError, OSError) as exc:
            typer.echo(f"fuyuki serve: {exc}", err=True)
            raise typer.Exit(2) from None
        url = f"http://{'localhost' if host in ('127.0.0.1', '0.0.0.0') else host}:{port}/"
        typer.echo(("ロビー: " if lang == "ja" else "Lobby: ") + url)
        handler = configure_logging(log_level, fmt=log_format)
        try:
            Server(server_config(app, host, port, proxy_headers=proxy_headers,
                                 forwarded_allow_ips=forwarded_allow_ips,
                                 timeout_graceful_shutdown=settings.shutdown_seconds)).run()
        finally:
            logging.getLogger().removeHandler(handler)

    @app.command("link", help=HELP_LINK)
    def link(
        table: str = typer.Argument(..., metavar="TABLE", help="the table's address as players "
                                    "open it (http://…/t/CODE) or its code"),
        seat: Optional[int] = typer.Option(
            None, min=0, help="the seat (default: the host's, the GM's in the war)"),
        data: Path = typer.Option(Path("fuyuki-data"), help="the --data of fuyuki serve"),
        db: str = typer.Option("", help="the --db of fuyuki serve (postgresql://...)"),
        url: str = typer.Option("http://localhost:8000", help="the server's address as players "
                                                             "open it (when TABLE is a code)"),
        lang: str = typer.Option("ja", help="ja | en"),
    ) -> None:
        from fuyuki.cli.prompt import t
        from fuyuki.core.errors import IllegalAction

        lang = lang if lang in ("ja", "en") else "ja"
        address = re.fullmatch(r"(\S+)/t/([A-Za-z0-9_-]+)(?:[?#]\S*)?", table.strip())
        code = address.group(2) if address else table.strip()
        if address:
            url = address.group(1)
        try:
            if db:
                storage = open_storage(db)
            else:
                from fuyuki.web.storage import SQLiteStorage

                if not (data / SQLiteStorage.FILENAME).is_file():   # never make an empty one
                    typer.echo(t(lang, "link.no_db", path=data), err=True)
                    raise typer.Exit(2)
                storage = SQLiteStorage(data)
            from fuyuki.web.manager import new_link

            try:
                row, token = new_link(storage, code, seat)
            finally:
                storage.close()
        except IllegalAction as exc:
            typer.echo(t(lang, f"link.{exc.code}", code=code, **exc.params), err=True)
            raise typer.Exit(2) from None
        except (FuyukiError, OSError) as exc:
            typer.echo(f"fuyuki link: {exc}", err=True)
            raise typer.Exit(2) from None
        typer.echo(t(lang, "link.made", code=code, seat=row.seat, name=row.name or "-"))
        typer.echo(f"{url.rstrip('/')}/t/{code}#k={token}")
        typer.echo(t(lang, "link.old"))


LOG_LEVELS = ("debug", "info", "warning", "error")
LOG_FORMATS = ("text", "json")


def configure_logging(level: str, stream=None, fmt: str = "text") -> logging.Handler:
    """The log of ``fuyuki serve``: one line per record on stderr — readable text (time, level,
    logger, message; an error's traceback below it) or, with ``fmt="json"``, one JSON object
    (:mod:`fuyuki.web.logs`) — at ``level`` for fuyuki's loggers. uvicorn's loggers write
    through the same handler (``server_config`` leaves their configuration alone) at warning
    and above."""
    from fuyuki.web.logs import JsonFormatter, TextFormatter

    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter() if fmt == "json" else TextFormatter())
    root = logging.getLogger()
    for old in [h for h in root.handlers if getattr(h, "fuyuki_serve", False)]:
        root.removeHandler(old)
    handler.fuyuki_serve = True            # type: ignore[attr-defined]
    root.addHandler(handler)
    root.setLevel(logging.WARNING)
    logging.getLogger("fuyuki").setLevel(level.upper())
    return handler


def server_config(app, host: str, port: int, *, proxy_headers: bool = False,
                  forwarded_allow_ips: str = "127.0.0.1", **kw):
    """uvicorn's configuration of ``fuyuki serve``: frames over 16 KiB refused; no per-message
    compression (the state messages after a page's first are small patches: compressing each
    cost more CPU than it saved bytes, and a zlib context per connection); the client's
    address read from X-Forwarded-For only when ``proxy_headers`` and only from the trusted
    proxies (otherwise every player behind the proxy would share one rate-limit budget)."""
    import uvicorn

    return uvicorn.Config(app, host=host, port=port, ws_max_size=16384, ws_per_message_deflate=False,
                          log_config=None,
                          log_level=kw.pop("log_level", "warning"), proxy_headers=proxy_headers,
                          forwarded_allow_ips=forwarded_allow_ips if proxy_headers else "", **kw)


def open_storage(url: str):
    """The storage of ``--db``: a ``postgresql://`` URL."""
    if not url.startswith(("postgresql://", "postgres://")):
        raise FuyukiError(f"--db: a postgresql://... URL (got {url.split(':')[0]!r})")
    from fuyuki.web.pgstorage import PostgresStorage

    return PostgresStorage(url)
