"""A real PostgreSQL server for the storage tests: ``initdb`` + ``pg_ctl`` in a temporary
directory on a loopback port (Debian's ``postgresql`` package; ``./dev test`` installs it).
PostgreSQL refuses to run as root: as root the server runs as the ``postgres`` user
(``runuser``). Where it cannot run, the tests that need it are skipped with the reason."""

from __future__ import annotations

import glob
import os
import pwd
import secrets
import shutil
import subprocess
import tempfile
from pathlib import Path


def _program(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    versions = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"),
                      key=lambda p: int(p.split("/")[4]) if p.split("/")[4].isdigit() else 0)
    return versions[-1] if versions else None


class PostgresServer:
    """``start()`` it (or get the reason it cannot run), ``database()`` per test, ``stop()``."""

    def __init__(self) -> None:
        self.dir: Path | None = None
        self.port = 0
        self.prefix: list[str] = []

    def start(self) -> str | None:
        """None when the server runs, else why it cannot."""
        from tests.web.conftest import free_port

        initdb, pg_ctl = _program("initdb"), _program("pg_ctl")
        if not initdb or not pg_ctl:
            return "PostgreSQL is not installed (apt-get install postgresql; ./dev test does it)"
        try:
            import psycopg  # noqa: F401
        except ImportError:
            return "psycopg is not installed (pip install 'fuyuki[pg]')"
        self.dir = Path(tempfile.mkdtemp(prefix="fuyuki-pg-"))
        if os.geteuid() == 0:
            try:
                user = pwd.getpwnam("postgres")
            except KeyError:
                return "running as root and there is no postgres user to run PostgreSQL as"
            os.chown(self.dir, user.pw_uid, user.pw_gid)
            self.prefix = ["runuser", "-u", "postgres", "--"]
        self.port = free_port()
        data = self.dir / "data"
        try:
            self._run([initdb, "-D", str(data), "-U", "postgres", "-A", "trust", "-E", "UTF8",
                       "--locale=C", "--no-sync"])
            self._run([pg_ctl, "-D", str(data), "-l", str(self.dir / "log"), "-w", "-t", "60",
                       "-o", f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 "
                             "-c fsync=off -c synchronous_commit=off -c full_page_writes=off",
                       "start"])
        except (OSError, subprocess.CalledProcessError) as exc:
            log = self.dir / "log"
            detail = log.read_text(errors="replace")[-500:] if log.exists() else ""
            self.stop()
            return f"PostgreSQL did not start: {exc} {getattr(exc, 'stderr', '') or ''} {detail}"
        self.pg_ctl, self.data = pg_ctl, data
        return None

    def _run(self, cmd: list[str]) -> None:
        subprocess.run(self.prefix + cmd, check=True, capture_output=True, text=True, timeout=120)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def database(self) -> str:
        """A new empty database: its URL."""
        import psycopg

        name = "t_" + secrets.token_hex(6)
        with psycopg.connect(self.url(), autocommit=True) as db:
            db.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def stop(self) -> None:
        if self.dir is None:
            return
        if getattr(self, "data", None) is not None:
            try:
                self._run([self.pg_ctl, "-D", str(self.data), "-m", "immediate", "-w", "stop"])
            except (OSError, subprocess.CalledProcessError):
                pass
        shutil.rmtree(self.dir, ignore_errors=True)
        self.dir = None
