"""The play-by-post doors of the server: a seat's notice settings, readers following a table's
news, and the tables waiting for one browser.

HTTP (a seat is named by its token in the ``X-Seat-Token`` header, never in the address)
  GET  /mine                          the page of this browser's tables (mine.html)
  POST /api/mine                      {"tables": [{"code", "token"}, ...]} (at most MAX_PAIRS)
                                      -> {"tables": [{code, game, title, status, seat,
                                      decide, deadline}]} for the valid pairs only
  GET  /api/notify?code=C             what the server sends, and whether table C has news
  GET  /api/tables/{code}/notify      the seat's e-mail and webhook, and what the server sends
  POST /api/tables/{code}/notify      {"kind", "target" ("" removes it), "lang"}
  POST /api/tables/{code}/follow      a reader follows the table's news {"kind", "target",
                                      "lang"} -> {"key"} (the reader's unsubscribe key)
  POST /api/tables/{code}/unfollow    {"key"}
  GET  /unfollow/{code}/{key}         the unsubscribe link of a reader's notice: a page whose
                                      button (POST, the same address) unsubscribes — a mail
                                      client that opens links ahead never unsubscribes anyone

No token, address or URL is ever logged.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, PlainTextResponse

from fuyuki.core.errors import IllegalAction
from fuyuki.web import security
from fuyuki.web.notify import LANGS, READER, Notifier, check_target
from fuyuki.web.storage import Target

MAX_PAIRS = 50                  # (code, token) pairs of one /api/mine request
MINE_RATE = (0.2, 10.0)         # /api/mine requests a second per client address, and burst
NOTIFY_RATE = (0.2, 10.0)       # notice settings changed a second per client address, and burst


def mount(app: FastAPI, manager: Any, notifier: Notifier, body, error, page, address) -> None:
    """Add the routes to ``app`` (``body``, ``error``, ``page`` and ``address`` are the app's
    own helpers: a checked JSON body, a refusal's answer, a page with its headers, the client's
    address)."""
    mine_limit = security.KeyedLimiter(*MINE_RATE)
    notify_limit = security.KeyedLimiter(*NOTIFY_RATE)

    def seat_of(code: str, request: Request):
        table = manager.get(code)
        if table is None:
            raise IllegalAction("not_found", "no such table")
        token = request.headers.get("x-seat-token")
        seat = table.seat_for_token(token) if isinstance(token, str) and len(token) <= 128 else None
        if seat is None:
            raise IllegalAction("bad_token", "this seat token is not valid for this table")
        return table, seat

    def slowed(request: Request, limiter) -> None:
        if not limiter.allow(address(request)):
            raise IllegalAction("rate_limited", "too many requests; wait a little")

    def lang_of(data: dict[str, Any]) -> str:
        lang = data.get("lang", "ja")
        if lang not in LANGS:
            raise IllegalAction("bad_notify", "lang: ja or en", ja="lang: ja か en")
        return lang

    @app.get("/mine")
    async def mine_page():
        return page("mine.html")

    @app.post("/api/mine")
    async def mine(request: Request):
        """For each (code, token) pair that opens a seat: the table's game and status, whether
        that seat decides now and its deadline (wall-clock seconds). Wrong pairs are left out."""
        try:
            slowed(request, mine_limit)
            pairs = (await body(request, 16384)).get("tables")
            if not isinstance(pairs, list) or len(pairs) > MAX_PAIRS:
                raise IllegalAction("bad_request", f"tables: a list of at most {MAX_PAIRS} "
                                    "{code, token}", ja=f"tables: {{code, token}} を{MAX_PAIRS}個まで")
            found = []
            for p in pairs:
                if not isinstance(p, dict):
                    continue
                code, token = p.get("code"), p.get("token")
                if not (isinstance(code, str) and isinstance(token, str) and len(token) <= 128):
                    continue
                try:
                    table = manager.get(code)
                except IllegalAction:          # refusal: a broken table (the manager logs it)
                    continue
                seat = table.seat_for_token(token) if table is not None else None
                if seat is None:
                    continue
                decide = table.status == "playing" and not table.game.over and \
                    seat in table.game.pending()
                found.append({"code": code, "game": table.adapter.name, "title": table.adapter.title,
                              "status": table.status, "seat": seat, "decide": decide,
                              "deadline": table.seats[seat].deadline if decide else None})
        except IllegalAction as exc:
            return error(exc)
        return {"tables": found}

    @app.get("/api/notify")
    async def notify_offered(code: str = ""):
        try:
            table = manager.get(code) if code else None
        except IllegalAction:                  # refusal: a broken table (the manager logs it)
            table = None
        return {"offered": notifier.settings.offered,
                "news": bool(table is not None and table.adapter.news)}

    @app.get("/api/tables/{code}/notify")
    async def notify_get(code: str, request: Request):
        try:
            table, seat = seat_of(code, request)
        except IllegalAction as exc:
            return error(exc)
        mine_ = {t.kind: t.target for t in notifier.storage.targets(code, seat)}
        return {"email": mine_.get("email"), "webhook": mine_.get("webhook"),
                "offered": notifier.settings.offered, "news": table.adapter.news}

    @app.post("/api/tables/{code}/notify")
    async def notify_set(code: str, request: Request):
        try:
            slowed(request, notify_limit)
            table, seat = seat_of(code, request)
            data = await body(request)
            kind, target = data.get("kind"), data.get("target")
            if kind not in ("email", "webhook"):
                raise IllegalAction("bad_notify", "kind: email or webhook", ja="kind: email か webhook")
            if target in (None, ""):
                notifier.storage.remove_target(code, seat, kind)
            else:
                target = check_target(kind, target, notifier.settings)
                notifier.storage.set_target(Target(code, seat, kind, target, lang_of(data)))
        except IllegalAction as exc:
            return error(exc)
        return await notify_get(code, request)

    @app.post("/api/tables/{code}/follow")
    async def follow(code: str, request: Request):
        try:
            slowed(request, notify_limit)
            table = manager.get(code)
            if table is None:
                raise IllegalAction("not_found", "no such table")
            if not table.adapter.news:
                raise IllegalAction("no_news", "this game has no news to follow",
                                    ja="このゲームには購読できるお知らせがありません")
            data = await body(request)
            target = check_target(data.get("kind"), data.get("target"), notifier.settings)
            readers = [t for t in notifier.storage.targets(code) if t.seat == READER]
            if len(readers) >= notifier.settings.readers_per_table:
                raise IllegalAction("readers_full", "this table has as many readers' notices as "
                                    "it takes", ja="このテーブルの読者通知は満員です")
            key = security.new_token()
            notifier.storage.set_target(Target(code, READER, data["kind"], target, lang_of(data), key))
        except IllegalAction as exc:
            return error(exc)
        return {"key": key}

    def unfollow_key(code: str, key: Any) -> int:
        if not isinstance(key, str) or not 1 <= len(key) <= 128:
            return 0
        return notifier.storage.remove_target(code, READER, None, key)

    @app.post("/api/tables/{code}/unfollow")
    async def unfollow(code: str, request: Request):
        try:
            data = await body(request)
        except IllegalAction as exc:
            return error(exc)
        return {"removed": unfollow_key(code, data.get("key"))}

    headers = {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer",
               "Content-Security-Policy": "default-src 'none'; form-action 'self'",
               "X-Content-Type-Options": "nosniff"}

    @app.get("/unfollow/{code}/{key}")
    async def unfollow_page(code: str, key: str):
        return HTMLResponse(UNFOLLOW_PAGE, headers=headers)

    @app.post("/unfollow/{code}/{key}")
    async def unfollow_link(code: str, key: str):
        unfollow_key(code, key)          # the same answer either way: a key reveals nothing
        return PlainTextResponse("配信を停止しました。\nYou are unsubscribed.\n", headers=headers)


UNFOLLOW_PAGE = """<!doctype html><html lang="ja"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>fuyuki</title></head>
<body><form method="post"><p>この卓のお知らせの配信を停止しますか？ / Stop this table's notices?</p>
<button type="submit">配信を停止する / Unsubscribe</button></form></body></html>
"""
