"""Output paths tried before a game is played: a command that writes its result at the end
first checks the path (:func:`fuyuki.core.load.check_output` / ``check_output_dir``: a
directory, permissions) and then really creates a file there and removes it — the permission
bits do not tell everything (as root every path looks writable; ``/proc`` refuses new files
anyway). Nothing is left behind: a directory made for the trial is removed again."""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path

from fuyuki.core.errors import DataError


def _refused(path: Path, option: str, exc: OSError) -> DataError:
    code = errno.errorcode.get(exc.errno or 0, "EIO")
    return DataError(str(path), option, f"cannot be written here: {exc.strerror or exc}",
                     "out_unwritable", detail=str(exc.strerror or exc), errno=code)


def writable_dir(path: str | Path, option: str) -> None:
    """Fail now (DataError) unless files can be written in the directory ``path`` (made if
    missing, as the command will)."""
    from fuyuki.core.load import check_output_dir

    check_output_dir(path, option)
    p = Path(path)
    made: list[Path] = []
    try:
        missing = [d for d in (p, *p.parents) if not d.exists()]
        for d in reversed(missing):
            d.mkdir()
            made.append(d)
        with tempfile.NamedTemporaryFile(dir=p, prefix=".fuyuki-", suffix=".probe"):
            pass
    except OSError as exc:
        raise _refused(p, option, exc) from None
    finally:
        for d in reversed(made):
            try:
                d.rmdir()
            except OSError:
                pass


def writable_file(path: str | Path, option: str) -> None:
    """Fail now (DataError) unless the file ``path`` can be written (its content, when it
    exists, is left as it is)."""
    from fuyuki.core.load import check_output

    check_output(path, option)
    p = Path(path)
    existed = p.exists()
    try:
        with open(p, "ab"):
            pass
    except OSError as exc:
        raise _refused(p, option, exc) from None
    if not existed:
        os.unlink(p)
