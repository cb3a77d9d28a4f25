"""Put this folder on PYTHONPATH to make a process send itself SIGINT as SQLite's first COMMIT returns, when
INTERRUPT_AT_COMMIT is set: the instant a Ctrl-C is most harmful (tests/store/test_interrupt_at_commit.py).
The signal is real; Python raises KeyboardInterrupt at the first instruction after the committed statement."""
import os
import signal
import sqlite3

_connect = sqlite3.connect


class _InterruptedAtCommit(sqlite3.Connection):
    def execute(self, sql, *args):
        cursor = super().execute(sql, *args)
        if sql == "COMMIT" and os.environ.pop("INTERRUPT_AT_COMMIT", None):
            os.kill(os.getpid(), signal.SIGINT)
        return cursor


def _connect_interrupted(*args, **kwargs):
    kwargs.setdefault("factory", _InterruptedAtCommit)
    return _connect(*args, **kwargs)


sqlite3.connect = _connect_interrupted
if os.environ.get("INTERRUPT_AT_COMMIT"):
    # as in a terminal: a process started in the background by a non-interactive shell (`make test &`) inherits
    # SIGINT ignored, and Python then keeps it ignored
    signal.signal(signal.SIGINT, signal.default_int_handler)
