"""The FastAPI application: pages, the small JSON API and the WebSocket of each table.

HTTP
  GET  /                          lobby page (create a table of any game, join by code)
  GET  /t/{code}                  the table page of the table's game (seat, spectator, replay)
  GET  /new/{game}                a game's own creation page (games whose page creates tables)
  GET  /rules                     every Servant Big Battle card with its text
  GET  /favicon.ico               the icon (static/favicon.svg)
  GET  /api/meta                  the games and, per game, what the lobby offers; the
                                  Servant Big Battle keys (editions, modes, ...) also on top
  GET  /api/games/{game}/data     a game's static page data (card texts; nothing hidden)
  GET  /api/cards                 = /api/games/sbb/data (names and texts, ja and en)
  POST /api/tables                create: {"game": id (default "sbb"), settings...,
                                           "name": host name or null}  (at most max_upload
                                  bytes); -> code, seat, token, invites {seat: token}
  GET  /api/tables                the public tables with an open seat (the lobby's list)
  GET  /api/tables/{code}         the public summary (no token, no seed, no hidden card)
  GET  /api/tables/{code}/qr.svg  a QR code of the join link
  POST /api/tables/{code}/join    {"name"} -> {"seat", "token"}
  GET  /api/tables/{code}/replay/{step}[?hands=1]   public frame of a finished game (with
                                  hands=1 every seat's own view too: the game is over; a
                                  war's GM console only with the GM's X-Seat-Token header)
  GET  /healthz                   200 {"status":"ok",...} when this process can serve, else 503
                                  and the reason (fuyuki.web.operations)
  GET  /metrics                   the Prometheus text format (fuyuki.web.metrics)
  POST /api/war/verify            a published war log (UTF-8 text, at most max_log bytes)
                                  replayed by ``war verify`` -> exit, line, code, message
                                  {ja, en} (fuyuki.rpg.war_log.verdict)
  /mine, /api/mine, /api/tables/{code}/notify|follow|unfollow, /unfollow/...   play-by-post:
                                  this browser's tables, notices (fuyuki.web.pbp)

WebSocket /ws/{code}
  client -> server  {"type":"hello","token":T|null,"patch":true}   first, within hello_timeout
                                  (patch: the page applies patches, see Table.state_message)
                    {"type":"move","choice":C,"turn":N}  N = the "turn" of the state message
                    {"type":"back"}   {"type":"start"} (host)   {"type":"ping"}
                    {"type":"chat","text":T} | {"type":"chat","stamp":S}   (seats)
                    {"type":"rematch"}   (a seat, after the game: the same players again)
  server -> client  {"type":"state", ...}   after every change (see Table.state_message)
                    {"type":"error","code":..,"message":..}   {"type":"pong"}
"""

from __future__ import annotations

import asyncio
import logging
from contextlib import asynccontextmanager
from time import perf_counter
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exception_handlers import (http_exception_handler,
                                        request_validation_exception_handler)
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException

from fuyuki.core.errors import IllegalAction
from fuyuki.web import security
from fuyuki.web.games import DEFAULT, adapter, games
from fuyuki.web.manager import Manager
from fuyuki.web.operations import CLOSE_RESTARTING
from fuyuki.web.operations import mount as mount_operations
from fuyuki.web.notify import Notifier, NotifySettings
from fuyuki.web.pbp import mount as mount_pbp
from fuyuki.web.qr import qr_svg
from fuyuki.web.settings import Settings, check_name
from fuyuki.web.storage import SQLiteStorage, Storage
from fuyuki.web.table import CLOSE_NOT_FOUND, CLOSE_TOO_MANY, SERVER_ERROR, Conn, dumps

log = logging.getLogger("fuyuki.web")

STATIC = Path(__file__).parent / "static"
STATUS = {"not_found": 404, "table_full": 409, "table_started": 409, "rate_limited": 429,
          "not_over": 409, "host_only": 403, "table_broken": 500, "too_large": 413,
          "too_many_tables": 429, "name_taken": 409}


MESSAGES = ("move", "back", "start", "ping", "chat", "rematch")   # the kinds a log line names


def create_app(data: str | Path | None = None, *, storage: Storage | None = None,
               settings: Settings | None = None, notify: NotifySettings | None = None) -> FastAPI:
    """The app over ``storage`` (default: SQLite in ``data``); ``notify``: the notices'
    settings (default: none sent)."""
    settings = settings or Settings()
    if storage is None:
        if data is None:
            raise ValueError("give a data directory or a storage")
        storage = SQLiteStorage(data)
    manager = Manager(storage, settings)
    notifier = manager.notifier = Notifier(storage, notify or NotifySettings())
    refusals = security.Refusals()
    security.quiet_frames()               # a client's bad frame is not a traceback in our log
    sockets: dict[str, int] = {}          # open WebSockets per client address
    http_limit = security.KeyedLimiter(settings.http_rate, settings.http_burst)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        logging.getLogger("fuyuki").addHandler(manager.metrics.error_log)
        manager.start()
        notifier.start()
        _resume_timed(manager)
        yield
        logging.getLogger("fuyuki").removeHandler(manager.metrics.error_log)
        manager.close()
        notifier.stop()

    app = FastAPI(title="fuyuki — table server", lifespan=lifespan,
                  docs_url=None, redoc_url=None, openapi_url=None)
    app.state.manager = manager
    app.state.refusals = refusals
    mount_operations(app, manager, sockets)   # /healthz, /metrics, app.state.drain
    app.state.notifier = notifier

    def _error(exc: IllegalAction) -> JSONResponse:
        """A refused request: its 4xx answer, counted and logged by kind."""
        status = STATUS.get(exc.code, 400)
        refusals.note(f"http {status} {exc.code}",
                      logging.ERROR if status >= 500 else logging.WARNING)
        answer = {"error": exc.code, "message": str(exc)}
        if isinstance(exc.params.get("ja"), str):
            answer["message_ja"] = exc.params["ja"]
        return JSONResponse(answer, status_code=status)

    @app.exception_handler(IllegalAction)
    async def refused(request: Request, exc: IllegalAction):
        return _error(exc)

    @app.exception_handler(HTTPException)
    async def http_refused(request: Request, exc: HTTPException):   # no such page, method...
        refusals.note(f"http {exc.status_code}")
        return await http_exception_handler(request, exc)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError):   # /replay/abc
        refusals.note("http 422 invalid")
        return await request_validation_exception_handler(request, exc)

    @app.exception_handler(Exception)
    async def failed(request: Request, exc: Exception):   # a bug: a plain answer, no traceback
        log.error("%s %s failed", request.method, request.url.path,
                  exc_info=(type(exc), exc, exc.__traceback__))
        return JSONResponse({"error": "server_error", "message": "the server failed"},
                            status_code=500)

    app.state.storage = storage
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    def page(name: str) -> FileResponse:
        return FileResponse(STATIC / name, headers={
            "Cache-Control": "no-cache",
            "Content-Security-Policy": "default-src 'self'; connect-src 'self' ws: wss:; "
                                       "img-src 'self' data:; style-src 'self'; script-src 'self'",
            "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"})

    @app.get("/")
    async def lobby_page():
        return page("index.html")

    @app.get("/t/{code}")
    async def table_page(code: str):
        try:
            table = manager.get(code)
        except IllegalAction as exc:   # refusal: a broken table (logged by the manager)
            refusals.note(f"page {exc.code}")
            table = None
        return page(table.adapter.page if table is not None else adapter(DEFAULT).page)

    @app.get("/new/{game}")
    async def new_page(game: str):
        """A game's own creation page (its table page, which sees the path)."""
        if game not in games():
            return _error(IllegalAction("not_found", "no such game"))
        return page(adapter(game).page)

    @app.get("/rules")
    async def rules_page():
        return page("rules.html")

    @app.get("/favicon.ico")
    async def favicon():
        """The icon every browser asks for (an SVG: every current browser draws it)."""
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml",
                            headers={"Cache-Control": "max-age=86400"})

    @app.get("/api/meta")
    async def meta():
        per = {g: {"title": adapter(g).title, **adapter(g).meta()} for g in games()}
        return {**per[DEFAULT], "default": DEFAULT, "games": per}

    @app.get("/api/games/{game}/data")
    async def game_data(game: str, request: Request):
        try:
            if game not in games():
                raise IllegalAction("not_found", "no such game")
            return adapter(game).data(dict(request.query_params))
        except IllegalAction as exc:
            return _error(exc)

    @app.get("/api/cards")
    async def cards(request: Request):
        return await game_data(DEFAULT, request)

    async def raw_body(request: Request, limit: int) -> bytes:
        declared = request.headers.get("content-length", "0")
        if not declared.isdigit() or int(declared) > limit:
            raise IllegalAction("too_large", "request too large")
        raw = b""
        async for chunk in request.stream():          # never read more than the limit
            raw += chunk
            if len(raw) > limit:
                raise IllegalAction("too_large", "request too large")
        return raw

    async def body(request: Request, limit: int = settings.max_message) -> dict[str, Any]:
        raw = await raw_body(request, limit)
        data = security.parse_json(raw or b"{}", limit)
        if data is None:
            raise IllegalAction("bad_json", "the body is a JSON object of at most "
                                f"{limit} bytes and {security.MAX_DEPTH} levels")
        return data

    def limited(request: Request) -> None:
        if not http_limit.allow(address(request)):
            raise IllegalAction("rate_limited", "too many requests; wait a little")

    @app.post("/api/tables")
    async def create_table(request: Request):
        try:
            limited(request)
            data = await body(request, settings.max_upload)
            name = data.pop("name", None)
            table, seat, token = manager.create(data, name, address=address(request))
            table.refresh()
        except IllegalAction as exc:
            return _error(exc)
        return {"code": table.code, "seat": seat, "token": token, "status": table.status,
                "invites": {str(k): v for k, v in table.invites.items()}}

    @app.get("/api/tables")
    async def open_tables():
        """The tables their hosts made public that still have an open seat."""
        return {"tables": manager.open_tables()}

    @app.get("/api/tables/{code}/qr.svg")
    async def invite_qr(code: str, request: Request):
        """A QR code of the table's join link (drawn here: the page loads nothing from
        elsewhere)."""
        if manager.get(code) is None:
            return _error(IllegalAction("not_found", "no such table"))
        return Response(qr_svg(str(request.base_url).rstrip("/") + f"/t/{code}"),
                        media_type="image/svg+xml", headers={"Cache-Control": "max-age=3600"})

    @app.get("/api/tables/{code}")
    async def table_summary(code: str):
        table = manager.get(code)
        if table is None:
            return _error(IllegalAction("not_found", "no such table"))
        return table.summary()

    @app.post("/api/tables/{code}/join")
    async def join(code: str, request: Request):
        try:
            limited(request)
            table = manager.get(code)
            if table is None:
                raise IllegalAction("not_found", "no such table")
            data = await body(request)
            seat, token = table.join(check_name(data.get("name")))
        except IllegalAction as exc:
            return _error(exc)
        return {"code": code, "seat": seat, "token": token}

    @app.get("/api/tables/{code}/replay/{step}")
    async def replay(code: str, step: int, request: Request, hands: bool = False):
        table = manager.get(code)
        if table is None:
            return _error(IllegalAction("not_found", "no such table"))
        try:
            return table.replay_frame(step, hands, request.headers.get("x-seat-token"))
        except IllegalAction as exc:
            return _error(exc)

    replaying = asyncio.Semaphore(1)      # one replay at a time: the others wait their turn

    @app.post("/api/war/verify")
    async def war_verify(request: Request):
        """A pasted war log replayed as ``fuyuki war verify`` does (the page checks its dice
        itself first; the replay of the record needs the rules, so it runs here). Nothing of
        the log is logged: a refusal is noted by its kind only."""
        from fuyuki.rpg.war_log import verdict

        try:
            limited(request)
            raw = await raw_body(request, settings.max_log)
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise IllegalAction("bad_text", "the log is UTF-8 text") from None
        except IllegalAction as exc:
            return _error(exc)
        async with replaying:
            return await run_in_threadpool(verdict, text)

    mount_pbp(app, manager, notifier, body, _error, page, address)

    @app.websocket("/ws/{code}")
    async def ws_table(ws: WebSocket, code: str):
        if not security.origin_allowed(ws.headers.get("origin"), ws.headers.get("host"),
                                       settings.allowed_origins):
            refusals.note("ws 1008 origin")
            await ws.close(code=1008)
            return
        if app.state.draining:
            refusals.note(f"ws {CLOSE_RESTARTING} restarting")
            await ws.close(code=CLOSE_RESTARTING)
            return
        try:
            table = manager.get(code)
        except IllegalAction:   # refusal: a broken table (logged by the manager), noted below
            table = None
        if table is None:
            refusals.note(f"ws {CLOSE_NOT_FOUND} not_found")
            await ws.close(code=CLOSE_NOT_FOUND)
            return
        where = address(ws)
        if sockets.get(where, 0) >= settings.sockets_per_address:
            refusals.note(f"ws {CLOSE_TOO_MANY} too_many_sockets")
            await ws.close(code=CLOSE_TOO_MANY)
            return
        sockets[where] = sockets.get(where, 0) + 1
        try:
            await _serve(ws, table, where)
        except Exception:
            log.exception("table %s: a WebSocket connection failed", table.code)
            await _close(ws, 1011)
        finally:
            sockets[where] -= 1
            if not sockets[where]:
                del sockets[where]

    async def _serve(ws: WebSocket, table, where: str) -> None:
        await ws.accept()
        try:
            first = await asyncio.wait_for(ws.receive(), settings.hello_timeout)
        except asyncio.TimeoutError:   # refusal: noted here
            refusals.note("ws 1008 no_hello")
            await _close(ws, 1008)
            return
        except WebSocketDisconnect:    # not an error: the page left before its hello
            log.debug("table %s: a page left before its hello", table.code)
            return
        hello = _parse(first, settings.max_message)
        if hello is None or hello.get("type") != "hello":
            refusals.note("ws 1008 bad_hello")
            await _send_error(ws, "bad_hello", "the first message is a hello")
            await _close(ws, 1008)
            return
        token = hello.get("token")
        seat = None
        if token is not None:
            if not isinstance(token, str) or len(token) > 128 or \
                    (seat := table.seat_for_token(token)) is None:
                refusals.note("ws 1008 bad_token")
                await _send_error(ws, "bad_token", "this seat token is not valid for this table")
                await _close(ws, 1008)
                return
        conn = Conn(seat, asyncio.Queue(settings.outbox),
                    security.RateLimiter(settings.msg_rate, settings.msg_burst), address=where,
                    table=table.code, patch=hello.get("patch") is True)
        refused = table.admit(conn)
        if refused is not None:
            refusals.note(f"ws {refused} no_room")
            await _send_error(ws, "no_room", "this table has no more places for spectators")
            await _close(ws, refused)
            return
        sender = asyncio.create_task(_sender(ws, conn))
        table.attach(conn)
        try:
            while not conn.closed:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect" or app.state.draining:
                    break                  # (shutting down: no new move; the page is closed)
                if not conn.limiter.allow():
                    conn.strikes += 1
                    refusals.note("message rate_limited")
                    conn.push(dumps({"type": "error", "code": "rate_limited",
                                     "message": "too many messages; slow down"}))
                    if conn.strikes > 20:
                        refusals.note("ws 1008 flooding")
                        conn.close_code = 1008
                        break
                    continue
                data = _parse(message, settings.max_message)
                if data is None:
                    refusals.note("message bad_message")
                    conn.push(dumps({"type": "error", "code": "bad_message",
                                     "message": f"a message is a JSON object of at most "
                                                f"{settings.max_message} bytes"}))
                    continue
                _handle(manager, table, conn, data, refusals)
        except WebSocketDisconnect:    # not an error: the page left
            log.debug("table %s: a page left", table.code)
        finally:
            table.detach(conn)
            conn.closed = True
            try:
                conn.outbox.put_nowait(None)
            except asyncio.QueueFull:  # not an error: the sender is cancelled instead
                sender.cancel()
            try:
                await asyncio.wait_for(sender, 2)
            except (asyncio.TimeoutError, asyncio.CancelledError):  # not an error: a slow close
                sender.cancel()
            except Exception:  # noqa: BLE001 - a page gone while it was being sent to
                log.debug("table %s: sending to a page failed", table.code, exc_info=True)
                sender.cancel()
            await _close(ws, 1000)

    return app


def _resume_timed(manager: Manager) -> None:
    """Load the tables whose decision timers run (stored deadlines): a play-by-post timer
    expires with every page closed, after a restart too."""
    try:
        codes = manager.storage.timed_codes()
    except Exception:  # noqa: BLE001 - the tables still resume on first use
        log.exception("the tables with running timers could not be listed")
        return
    for code in codes:
        try:
            table = manager.get(code)
            if table is not None and table.status == "playing":
                table.refresh()
        except Exception:  # noqa: BLE001 - one broken table does not stop the others
            log.exception("table %s: its timers could not be resumed", code)


def address(conn: Request | WebSocket) -> str:
    """The client's address (behind a trusted proxy, ``fuyuki serve --proxy-headers``, the
    real client's: uvicorn rewrites it from X-Forwarded-For)."""
    return conn.client.host if conn.client else "-"


def _parse(message: dict[str, Any], limit: int) -> dict[str, Any] | None:
    text = message.get("text")
    return None if text is None else security.parse_json(text, limit)


def _handle(manager: Manager, table, conn: Conn, data: dict[str, Any],
            refusals: security.Refusals) -> None:
    kind = data.get("type")
    try:
        if kind == "move":
            start = perf_counter()
            table.move(conn.seat, data.get("choice"), data.get("turn"))
            manager.metrics.answered(table.adapter.name, start)
        elif kind == "back":
            table.back(conn.seat)
        elif kind == "start":
            table.start(conn.seat)
        elif kind == "ping":
            conn.push(dumps({"type": "pong"}))
        elif kind == "chat":
            table.post_chat(conn.seat, data)
        elif kind == "rematch":
            manager.rematch(table, conn.seat, conn.address)
        else:
            table.message(conn.seat, data, conn)
    except IllegalAction as exc:   # refusal: noted here
        refusals.note(f"message {exc.code}", logging.INFO)
        conn.push(dumps({"type": "error", "code": exc.code, "message": str(exc)}))
    except Exception:  # noqa: BLE001 - a bug must not drop the connection or leak a traceback
        log.exception("table %s: a %s message failed", table.code,
                      kind if kind in MESSAGES else "game")
        conn.push(dumps(SERVER_ERROR))


async def _sender(ws: WebSocket, conn: Conn) -> None:
    while True:
        text = await conn.outbox.get()
        if text is None:
            if conn.closed:
                await _close(ws, conn.close_code)   # detached, replaced, or dropped for not reading
            return
        await ws.send_text(text)
        if conn.closed and conn.outbox.empty():
            await _close(ws, conn.close_code)
            return


async def _send_error(ws: WebSocket, code: str, message: str) -> None:
    try:
        await ws.send_text(dumps({"type": "error", "code": code, "message": message}))
    except Exception:  # noqa: BLE001 - the page already left
        log.debug("a refusal could not be sent", exc_info=True)


async def _close(ws: WebSocket, code: int) -> None:
    try:
        await ws.close(code=code)
    except Exception:  # noqa: BLE001 - already closed
        log.debug("a closed WebSocket could not be closed again", exc_info=True)
