"""Messages and progress, through the standard `logging` logger "ascgen".

Python users silence or route them like any library's: `logging.getLogger("ascgen").setLevel(logging.WARNING)`
silences progress, or add a handler of your own to "ascgen" before the first message (ascgen then adds
none). Without one, ascgen writes to stderr: on a terminal a status line that is redrawn in place, elsewhere
(CI logs, pipes, notebooks) plain lines, at most one every HEARTBEAT_S seconds per long step.

Results a command prints (tables, verdicts) are not messages: `info` writes them to stdout.
"""
from __future__ import annotations

import logging
import sys
import threading
import time
from contextlib import contextmanager

logger = logging.getLogger("ascgen")
HEARTBEAT_S = 8.0            # off a terminal, a long step prints a line this often (the promise: < 10 s)
REDRAW_S = 0.5               # on a terminal, the status line is redrawn this often
_TRANSIENT = "ascgen_transient"       # record attribute: a status line (terminal only), not a log line
_STEP = "ascgen_step"                 # record attribute: a status line on a terminal, a line elsewhere
_state = {"quiet": False, "verbose": False}


class _Handler(logging.Handler):
    """stderr (looked up per record, so a redirected sys.stderr is honoured); on a terminal, transient and
    step records redraw one status line; elsewhere transient records are dropped."""

    drawn = False

    def emit(self, record: logging.LogRecord) -> None:
        stream = sys.stderr
        tty = _isatty(stream)
        status = getattr(record, _TRANSIENT, False) or (getattr(record, _STEP, False) and tty)
        if status and not tty:
            return
        try:
            text = self.format(record)
            if record.levelno >= logging.WARNING:
                text = f"ascgen: {record.levelname.lower()}: {text}"
            if self.drawn:
                stream.write("\r\033[K")
            stream.write(text if status else text + "\n")
            stream.flush()
            self.drawn = status
        except Exception:  # noqa: BLE001 - logging's contract: a failing handler never breaks the caller
            self.handleError(record)

    def clear(self) -> None:
        if self.drawn:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()
            self.drawn = False


_handler = _Handler()


def _isatty(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def _ensure_handler() -> None:
    """Attach ascgen's stderr handler unless the user gave the logger one (or routed it elsewhere)."""
    if not logger.handlers:
        logger.addHandler(_handler)
        logger.propagate = False
        if logger.level == logging.NOTSET:
            logger.setLevel(logging.INFO)


def configure(quiet: bool = False, verbose: bool = False) -> None:
    """The CLI's -q / -v: quiet shows warnings and errors only, verbose adds detail."""
    _state["quiet"], _state["verbose"] = quiet, verbose
    _ensure_handler()
    logger.setLevel(logging.WARNING if quiet else logging.DEBUG if verbose else logging.INFO)


def progress(message: str) -> None:
    """A transient status line ("compiling add_relu.cpp..."), only on an interactive terminal."""
    _ensure_handler()
    logger.info(message, extra={_TRANSIENT: True})


def step(message: str) -> None:
    """A step worth a line in a log (a first-time compile): a status line on a terminal."""
    _ensure_handler()
    logger.info(message, extra={_STEP: True})


def done() -> None:
    """Clear the status line."""
    _handler.clear()


class LongStep:
    """What `long_step` yields: `advance()` after each unit of work (a source compiled)."""

    def __init__(self, what: str, total: int | None, unit: str):
        self.what, self.total, self.unit = what, total, unit
        self.count, self.start = 0, time.monotonic()
        self._lock = threading.Lock()

    def advance(self, n: int = 1) -> None:
        with self._lock:
            self.count += n

    def status(self) -> str:
        elapsed = time.monotonic() - self.start
        counted = f"{self.count}/{self.total} {self.unit}, " if self.total else ""
        return f"{self.what}: {counted}{_duration(elapsed)}"


def _duration(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 120 else f"{seconds // 60:.0f} min {seconds % 60:02.0f} s"


@contextmanager
def long_step(what: str, *, expect: str = "", total: int | None = None, unit: str = "sources"):
    """A step that may take minutes: its first line at once (with the expected duration), then the count
    and the elapsed time (redrawn on a terminal, a line every HEARTBEAT_S seconds elsewhere), and a last
    line with the time it took when it was long enough to show progress."""
    _ensure_handler()
    state = LongStep(what, total, unit)
    logger.info(f"{what}: {expect}..." if expect else f"{what}...", extra={_STEP: True})
    stop = threading.Event()

    def beat() -> None:
        tty = _isatty(sys.stderr)
        last = time.monotonic()
        while not stop.wait(REDRAW_S if tty else min(REDRAW_S, HEARTBEAT_S)):
            if tty:
                logger.info(state.status(), extra={_TRANSIENT: True})
            elif time.monotonic() - last >= HEARTBEAT_S:
                last = time.monotonic()
                logger.info(state.status())

    thread = threading.Thread(target=beat, name="ascgen-progress", daemon=True)
    thread.start()
    try:
        yield state
    finally:
        stop.set()
        thread.join()
        _handler.clear()
        if time.monotonic() - state.start >= HEARTBEAT_S:
            logger.info(f"{state.status()} (done)")


def info(message: str) -> None:
    """A line of a command's own output, on stdout; -q drops it (results that must stay use print)."""
    if not _state["quiet"]:
        print(message)


def verbose(message: str) -> None:
    _ensure_handler()
    logger.debug(message)


def warn(message: str) -> None:
    _ensure_handler()
    logger.warning(message)
