"""What the server's operator (and a proxy, an orchestrator, Prometheus) asks of it:
``GET /healthz``, ``GET /metrics`` and the drain before a shutdown (docs/web.md, "Operations").

Neither endpoint is rate-limited, since neither costs more when asked more: ``/healthz`` runs
at most one storage ping at a time (every request that comes meanwhile shares its answer) and
``/metrics`` makes its text at most once every ``Settings.metrics_cache`` seconds (reading the
tables held takes milliseconds at the bound of tables: benchmarks/metrics_cost.py). Neither
says anything secret: no table code, no name, no token, no setting.
"""

from __future__ import annotations

import asyncio
import logging
from time import monotonic, perf_counter

from fastapi import FastAPI
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from fuyuki.web.manager import Manager
from fuyuki.web.metrics import CONTENT_TYPE
from fuyuki.web.storage import Storage

log = logging.getLogger("fuyuki.web.operations")

CLOSE_RESTARTING = 1012        # WebSocket "service restart": the page reconnects by itself
NO_STORE = {"Cache-Control": "no-store"}


def mount(app: FastAPI, manager: Manager, sockets: dict[str, int]) -> None:
    """Add ``/healthz``, ``/metrics`` and ``app.state.drain`` to ``app`` (``sockets``: the open
    WebSockets per client address, as the app counts them)."""
    settings, metrics = manager.settings, manager.metrics
    metrics.watch(lambda: manager.tables.values(), app.state.refusals.counts)
    health = _Health(manager.storage, settings.health_timeout)
    app.state.draining = False

    @app.get("/healthz")
    async def healthz():
        """200 ``{"status": "ok", ...}`` when this process can serve; 503 with the reason
        otherwise (the store does not answer; shutting down)."""
        reason = "shutting_down" if app.state.draining else await health.check()
        if reason is not None:
            return JSONResponse({"status": "unavailable", "reason": reason}, status_code=503,
                                headers=NO_STORE)
        return JSONResponse({"status": "ok", "tables": len(manager.tables),
                             "connections": sum(sockets.values())}, headers=NO_STORE)

    made: list = [None, b""]       # when the text was made, the text

    @app.get("/metrics")
    async def metrics_text():      # on the event loop: the tables stay still while read
        now = monotonic()
        if made[0] is None or now - made[0] >= settings.metrics_cache:
            made[:] = [now, metrics.render()]
        return Response(made[1], media_type=CONTENT_TYPE, headers=NO_STORE)

    async def drain() -> None:
        """Before a shutdown: ``/healthz`` answers 503 and the app takes no new page and no new
        move (``app.state.draining``); every page is closed with :data:`CLOSE_RESTARTING` once
        the messages queued for it are sent (the state of the last move included). A move
        being applied has been stored by then: a move is applied and stored in one step of the
        event loop. Returns when every page has gone, or after ``settings.shutdown_seconds``."""
        start = perf_counter()
        app.state.draining = True
        closed = 0
        while True:
            for table in list(manager.tables.values()):
                for conn in table.conns:
                    if not conn.closed:     # also a page that came in since the last round
                        conn.close_code = CLOSE_RESTARTING
                        conn.drop()
                        closed += 1
            if not sockets or perf_counter() - start >= settings.shutdown_seconds:
                break
            await asyncio.sleep(0.05)
        took = perf_counter() - start
        log.info("shutting down: pages closed: %d, in %.2f s%s", closed, took,
                 f", {sum(sockets.values())} still open" if sockets else "",
                 extra={"event": "shutdown", "count": closed, "duration": round(took, 3)})

    app.state.drain = drain


class _Health:
    """The store's answer to a ping, one ping at a time; its changes are logged (a failing
    store is one warning line, not one a request)."""

    def __init__(self, storage: Storage, timeout: float) -> None:
        self.storage, self.timeout = storage, timeout
        self._ping: asyncio.Future | None = None
        self._failing: str | None = None

    async def check(self) -> str | None:
        """None when the store answers within the timeout, else the reason."""
        if self._ping is None or self._ping.done():
            self._ping = asyncio.ensure_future(run_in_threadpool(self.storage.ping, self.timeout))
            self._ping.add_done_callback(_retrieved)
        try:
            await asyncio.wait_for(asyncio.shield(self._ping), self.timeout)
            reason, error = None, ""
        except asyncio.TimeoutError:  # not an error: the answer is 503 (a change is logged below)
            reason, error = "storage_timeout", f"no answer within {self.timeout} s"
        except Exception as exc:  # noqa: BLE001  # not an error: the answer is 503 (logged below)
            reason, error = "storage_unreachable", f"{type(exc).__name__}: {exc}"
        if reason != self._failing:
            if reason is None:
                log.warning("health: the store answers again", extra={"event": "healthy"})
            else:
                log.warning("health: the store does not answer (%s)", error,
                            extra={"event": "unhealthy", "reason": reason})
            self._failing = reason
        return reason


def _retrieved(ping: asyncio.Future) -> None:
    """A ping nobody awaited any more (it outlived its timeout): its failure is read here, not
    reported as never retrieved (the next check reports the store's state)."""
    if not ping.cancelled():
        ping.exception()
