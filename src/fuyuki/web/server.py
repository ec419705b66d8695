"""The uvicorn server of ``fuyuki serve``: on SIGTERM or SIGINT it drains the app, then stops.

The order (docs/web.md, "Operations"): the listening sockets close (no new connection); the
app drains (``app.state.drain``: ``/healthz`` answers 503, no new page or move is taken, every
page is closed with the "server restarting" code after the messages queued for it, within
``Settings.shutdown_seconds``); uvicorn ends what is left of the HTTP requests in the rest of
that time; the app's lifespan ends (timers, the slow bots' worker); the store is closed; the
process exits with status 0.
"""

from __future__ import annotations

import time

import uvicorn


class Server(uvicorn.Server):
    async def shutdown(self, sockets=None) -> None:
        start = time.monotonic()
        for server in self.servers:
            server.close()                 # no new connection from now on
        app = self.config.app
        await app.state.drain()
        left = app.state.manager.settings.shutdown_seconds - (time.monotonic() - start)
        self.config.timeout_graceful_shutdown = max(0.5, left)
        await super().shutdown(sockets)
        app.state.storage.close()
        # uvicorn raises the signal again once it has stopped, so that the process ends as the
        # signal's default would (status 143): drained, it ends with status 0 instead
        getattr(self, "_captured_signals", []).clear()
