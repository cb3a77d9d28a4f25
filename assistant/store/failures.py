"""Failures of the environment the store runs in, as one-line `StoreError`s.

A read-only or missing folder, a full disk, a corrupt or locked database: each is an OSError or an
sqlite3 error deep inside a call. `reported` turns them into a sentence that names the store and
what to do. Programming errors (e.g. an `sqlite3.IntegrityError`) pass through unchanged.
"""
from __future__ import annotations

import errno
import sqlite3
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar

from assistant.foundation.errors import StoreError

DATABASE_FILE = "assistant.sqlite3"

Method = TypeVar("Method", bound=Callable[..., Any])

_DISK_FULL = {errno.ENOSPC, errno.EFBIG, errno.EDQUOT}
_NOT_WRITABLE = {errno.EACCES, errno.EPERM, errno.EROFS}
_NOT_A_FOLDER = {errno.ENOTDIR, errno.EEXIST}


def reported(method: Method) -> Method:
    """Decorate a `Store` method (the store has a `home`) so environment failures become StoreError."""

    @wraps(method)
    def wrapper(store: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(store, *args, **kwargs)
        except (sqlite3.IntegrityError, sqlite3.ProgrammingError, sqlite3.InterfaceError):
            raise
        except (sqlite3.DatabaseError, OSError) as error:
            raise store_error(error, store.home) from error

    return wrapper  # type: ignore[return-value]


def store_error(error: sqlite3.DatabaseError | OSError, home: Path) -> StoreError:
    """The user-facing sentence for a failure of the store at `home`."""
    if isinstance(error, sqlite3.DatabaseError):
        return _database_error(error, home)
    detail = error.strerror or str(error)
    if error.errno in _DISK_FULL:
        return StoreError(f"The disk is full ({detail}): could not write the store in {home}; nothing was "
                          "written. Free some space and try again.")
    if error.errno in _NOT_WRITABLE:
        return StoreError(f"Cannot write the store in {home} ({detail}: {error.filename or home}); "
                          "set ASSISTANT_HOME to a writable folder.")
    if error.errno in _NOT_A_FOLDER:
        return StoreError(f"ASSISTANT_HOME {home} is not a folder (a file is in the way); "
                          "set ASSISTANT_HOME to a folder.")
    return StoreError(f"Cannot use the store in {home}: {detail} ({error.filename or home}).")


def _database_error(error: sqlite3.DatabaseError, home: Path) -> StoreError:
    database = home / DATABASE_FILE
    code = getattr(error, "sqlite_errorname", "") or ""
    if code.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")):
        return StoreError(f"The store's database {database} is damaged ({error}); restore it from a backup, "
                          "or move it aside and ingest the policies again.")
    if code.startswith("SQLITE_FULL"):
        return StoreError(f"The disk is full ({error}): could not write the store in {home}; nothing was "
                          "written. Free some space and try again.")
    if code.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        return StoreError(f"The store's database {database} is locked by another process ({error}); "
                          "try again when it has finished.")
    if code.startswith(("SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_AUTH")):
        return StoreError(f"Cannot open the store's database {database} for writing ({error}); "
                          "set ASSISTANT_HOME to a writable folder.")
    if code.startswith("SQLITE_IOERR"):
        return StoreError(f"Cannot read or write the store's database {database} ({error}): the disk may "
                          "be full or failing; nothing was written.")
    return StoreError(f"The store's database {database} failed: {error}.")
