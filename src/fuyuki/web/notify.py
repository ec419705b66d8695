"""Notices for people whose table page is closed: "your turn" for a seat, a war's news (a new
turn, a 安価 question) for its seats and its readers — by e-mail (SMTP) or by webhook (a
Discord-compatible JSON POST).

A person opts in from the table page: the seat stores one address and one URL of its own
(visible only through its seat token, removable); a reader of a table with news
(``Adapter.news``) subscribes with a key of its own, which its unsubscribe link carries. A
notice names the table and its game and links to the table's page at the server's public URL
— never with a seat token: the token stays in the browser.

Each notice is claimed in storage before it is sent (``Storage.claim_notice``: a unique row of
table, seat and key), so a restart or a second process never sends it twice. Notices are
bounded per seat and per target an hour, queued (a bounded queue) and sent by one background
thread: the event loop never waits for a mail server or a webhook. A failure is logged by
its kind and table, never with the address or URL, and never reaches a table.

Webhooks go only to https URLs whose host resolves to public addresses (no private, loopback
or link-local target: SSRF), connected to the very address checked, with a short timeout and
no redirect followed; ``allow_private`` (tests, a closed network) lifts both.
"""

from __future__ import annotations

import http.client
import ipaddress
import json
import logging
import os
import queue
import re
import smtplib
import socket
import ssl
import threading
import time
from collections import deque
from dataclasses import dataclass
from email.message import EmailMessage
from typing import Any
from urllib.parse import urlsplit

from fuyuki.core.errors import IllegalAction
from fuyuki.web import security
from fuyuki.web.storage import Storage, Target

log = logging.getLogger("fuyuki.web.notify")

KINDS = ("email", "webhook")
LANGS = ("ja", "en")
READER = -1                        # the seat of a reader's subscription
MAX_EMAIL = 254
MAX_URL = 500
_EMAIL = re.compile(r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
                    r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$")
#: environment variables of the SMTP login (never on the command line)
ENV_USER, ENV_PASSWORD, ENV_STARTTLS = "FUYUKI_SMTP_USER", "FUYUKI_SMTP_PASSWORD", "FUYUKI_SMTP_STARTTLS"


@dataclass
class NotifySettings:
    public_url: str = ""              # the server's address as people reach it (links)
    smtp_host: str = ""               # "" : no e-mail
    smtp_port: int = 25
    smtp_from: str = ""
    allow_private: bool = False       # webhooks over http and to private/loopback addresses
    per_hour: int = 12                # notices a seat, and a target, receives an hour at most
    readers_per_table: int = 50       # reader subscriptions of one table
    queue: int = 256                  # notices waiting to be sent; more are dropped (logged)
    timeout: float = 5.0              # seconds for a mail server or a webhook

    @property
    def offered(self) -> dict[str, bool]:
        """The kinds this server sends (a link needs the public URL; e-mail a mail server)."""
        on = bool(self.public_url)
        return {"email": on and bool(self.smtp_host and self.smtp_from), "webhook": on}


@dataclass
class Job:
    code: str
    seat: int
    kind: str
    target: str
    subject: str
    text: str


# ---------------------------------------------------------------------- checks
def check_target(kind: Any, target: Any, settings: NotifySettings) -> str:
    """An e-mail address or a webhook URL as given, checked (IllegalAction with a ja/en
    message); a webhook's host must be a name or a public address (its resolution is checked
    again at each send)."""
    if kind not in KINDS:
        raise IllegalAction("bad_notify", "kind: email or webhook", ja="kind: email か webhook")
    if not settings.offered[kind]:
        raise IllegalAction("notify_off", f"this server does not send {kind} notices",
                            ja="このサーバーはこの通知を送りません")
    if not isinstance(target, str):
        raise IllegalAction("bad_notify", "target: text", ja="宛先は文字列です")
    target = target.strip()
    if kind == "email":
        if len(target) > MAX_EMAIL or not _EMAIL.match(target):
            raise IllegalAction("bad_email", "not an e-mail address", ja="メールアドレスではありません")
        return target
    _webhook_parts(target, settings.allow_private)
    return target


def _webhook_parts(url: str, allow_private: bool) -> tuple[str, str, int, str]:
    """(scheme, host, port, path) of a webhook URL one may send to."""
    bad = IllegalAction("bad_webhook", "a webhook is an https URL of a public host, without "
                        "user or password", ja="Webhook は公開ホストの https URL です（ユーザー名・パスワードなし）")
    if len(url) > MAX_URL or any(c in url for c in "\r\n \t"):
        raise bad
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise bad from None
    schemes = ("https", "http") if allow_private else ("https",)
    if parts.scheme not in schemes or not parts.hostname or parts.username or parts.password:
        raise bad
    host = parts.hostname
    try:
        if not allow_private and not ipaddress.ip_address(host).is_global:
            raise IllegalAction("private_webhook", "a webhook may not point to a private or "
                                "loopback address",
                                ja="Webhook の宛先にプライベート・ループバックのアドレスは使えません")
    except ValueError:          # not an error: a host name, resolved and checked at each send
        pass
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return parts.scheme, host, port or (443 if parts.scheme == "https" else 80), path


def _address(host: str, port: int, allow_private: bool) -> str:
    """The address ``host`` resolves to, if every one of them is public (or allowed)."""
    found = {info[4][0] for info in socket.getaddrinfo(host, port, proto=socket.IPPROTO_TCP)}
    if not found:
        raise OSError("no address")
    for a in found:
        if not allow_private and not ipaddress.ip_address(a.split("%")[0]).is_global:
            raise PermissionError("the webhook's host resolves to a private address")
    return sorted(found)[0]


class _Pinned(http.client.HTTPSConnection):
    """An HTTPS connection to the address that was checked (the name only for TLS)."""

    def __init__(self, host: str, address: str, port: int, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout, context=ssl.create_default_context())
        self._address = address

    def connect(self) -> None:
        sock = socket.create_connection((self._address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)


class _PinnedPlain(http.client.HTTPConnection):
    def __init__(self, host: str, address: str, port: int, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self._address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((self._address, self.port), self.timeout)


# ---------------------------------------------------------------------- texts
def turn_text(lang: str, title: dict[str, str], code: str, link: str) -> tuple[str, str]:
    name = title.get(lang) or title.get("ja", "")
    if lang == "en":
        return (f"[fuyuki] Your move: {name} {code}",
                f"It is your move at the {name} table {code}.\n{link}")
    return (f"【fuyuki】あなたの番です：{name} {code}",
            f"{name} のテーブル {code} で、あなたの番です。\n{link}")


def news_text(lang: str, title: dict[str, str], code: str, link: str, said: dict[str, str],
              unsubscribe: str | None) -> tuple[str, str]:
    name = title.get(lang) or title.get("ja", "")
    line = said.get(lang) or said.get("ja", "")
    subject = f"[fuyuki] {name} {code}: {line}" if lang == "en" else f"【fuyuki】{name} {code}：{line}"
    body = f"{name} {code}: {line}\n{link}" if lang == "en" else f"{name} {code}：{line}\n{link}"
    if unsubscribe:
        body += ("\nUnsubscribe: " if lang == "en" else "\n配信停止：") + unsubscribe
    return " ".join(subject.split())[:200], body       # a subject is one line


# ---------------------------------------------------------------------- the sender
class Notifier:
    """Decides which notices go out (on the event loop) and sends them (one thread)."""

    def __init__(self, storage: Storage, settings: NotifySettings, clock=time.monotonic) -> None:
        self.storage = storage
        self.settings = settings
        self.clock = clock
        self._queue: queue.Queue[Job | None] = queue.Queue(settings.queue)
        self._sent: dict[Any, deque] = {}
        self._thread: threading.Thread | None = None
        self.sent = 0            # notices delivered (counted by the thread)
        self.failed = 0          # notices that failed or were dropped

    # -- the thread
    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="fuyuki-notify", daemon=True)
            self._thread.start()

    def stop(self, timeout: float = 10.0) -> None:
        """Send what is queued (within ``timeout``), then end the thread."""
        if self._thread is not None:
            try:
                self._queue.put(None, timeout=timeout)
            except queue.Full:      # not an error: the daemon thread ends with the process
                log.warning("notices still queued at exit were not sent")
            self._thread.join(timeout)
            self._thread = None

    def drain(self, timeout: float = 10.0) -> None:
        """Wait until every queued notice was handled (tests, a clean exit)."""
        end = time.monotonic() + timeout
        while self._queue.unfinished_tasks and time.monotonic() < end:
            time.sleep(0.01)

    def _run(self) -> None:
        while True:
            job = self._queue.get()
            try:
                if job is None:
                    return
                self._send(job)
                self.sent += 1
            except Exception as exc:  # noqa: BLE001 - a notice's failure is logged, never raised
                self.failed += 1
                log.warning("table %s: a %s notice of %s failed (%s)", job.code, job.kind,
                            "a reader" if job.seat == READER else f"seat {job.seat}",
                            type(exc).__name__)
            finally:
                self._queue.task_done()

    def _send(self, job: Job) -> None:
        s = self.settings
        if job.kind == "email":
            msg = EmailMessage()
            msg["Subject"], msg["From"], msg["To"] = job.subject, s.smtp_from, job.target
            msg.set_content(job.text)
            with smtplib.SMTP(s.smtp_host, s.smtp_port, timeout=s.timeout) as smtp:
                if os.environ.get(ENV_STARTTLS) == "1":
                    smtp.starttls(context=ssl.create_default_context())
                if os.environ.get(ENV_USER):
                    smtp.login(os.environ[ENV_USER], os.environ.get(ENV_PASSWORD, ""))
                smtp.send_message(msg)
            return
        scheme, host, port, path = _webhook_parts(job.target, s.allow_private)
        address = _address(host, port, s.allow_private)
        conn = (_Pinned if scheme == "https" else _PinnedPlain)(host, address, port, s.timeout)
        try:
            body = json.dumps({"content": job.text[:2000], "username": "fuyuki"}, ensure_ascii=False)
            conn.request("POST", path, body.encode(), {"Content-Type": "application/json",
                                                       "User-Agent": "fuyuki"})
            status = conn.getresponse().status      # a redirect is an answer, not followed
        finally:
            conn.close()
        if not 200 <= status < 300:
            raise ConnectionError(f"the webhook answered {status}")

    # -- what goes out (event loop)
    def _allow(self, key: Any) -> bool:
        now = self.clock()
        times = self._sent.setdefault(key, deque())
        while times and now - times[0] >= 3600:
            times.popleft()
        return len(times) < self.settings.per_hour

    def _enqueue(self, t: Target, subject: str, text: str) -> None:
        target_key = ("target", t.kind, security.hash_token(t.target))
        seat_key = ("seat", t.code, t.seat, t.key)
        if not (self._allow(seat_key) and self._allow(target_key)):
            log.info("table %s: a notice over the hourly bound was not sent", t.code)
            return
        try:
            self._queue.put_nowait(Job(t.code, t.seat, t.kind, t.target, subject, text))
        except queue.Full:
            self.failed += 1
            log.warning("table %s: the notice queue is full; a notice was dropped", t.code)
            return
        now = self.clock()
        self._sent[seat_key].append(now)
        self._sent[target_key].append(now)

    def link(self, code: str) -> str:
        return f"{self.settings.public_url.rstrip('/')}/t/{code}"

    def _offered(self, targets: list[Target]) -> list[Target]:
        return [t for t in targets if self.settings.offered.get(t.kind)]

    def turn(self, table: Any, seat: int, key: str) -> None:
        """Seat ``seat`` of ``table`` has a new decision (``key``) and its page is closed."""
        try:
            targets = self._offered(self.storage.targets(table.code, seat))
            if not targets or not table.may_notify() or \
                    not self.storage.claim_notice(table.code, seat, key):
                return
            for t in targets:
                self._enqueue(t, *turn_text(t.lang, table.adapter.title, table.code,
                                            self.link(table.code)))
        except Exception:  # noqa: BLE001 - a notice never stops a table
            log.exception("table %s: the turn notice of seat %d failed", table.code, seat)

    def notice(self, table: Any, key: str, said: dict[str, str]) -> None:
        """News of ``table`` (``key``: once): to its seats whose pages are closed and to its
        readers."""
        try:
            if not table.may_notify():
                return
            by_seat: dict[int, list[Target]] = {}
            for t in self._offered(self.storage.targets(table.code)):
                if t.seat == READER or (0 <= t.seat < len(table.seats) and not table.connected(t.seat)):
                    by_seat.setdefault(t.seat, []).append(t)
            for seat, targets in by_seat.items():
                if not self.storage.claim_notice(table.code, seat, f"news:{key}"):
                    continue
                for t in targets:
                    unsub = (f"{self.settings.public_url.rstrip('/')}/unfollow/{t.code}/{t.key}"
                             if seat == READER else None)
                    self._enqueue(t, *news_text(t.lang, table.adapter.title, table.code,
                                                self.link(table.code), said, unsub))
        except Exception:  # noqa: BLE001 - a notice never stops a table
            log.exception("table %s: a news notice failed", table.code)
