"""Progress that moves (issue 21 point 3): messages go through the `logging` logger "ascgen", a long step
prints its first line at once and then a line at least every HEARTBEAT_S seconds off a terminal, with a
count that moves. Tested with a fake slow step (no real build)."""
import io
import logging
import time

import pytest

from ascgen import console


class Records(logging.Handler):
    def __init__(self):
        super().__init__()
        self.seen: list[tuple[float, str]] = []

    def emit(self, record):
        self.seen.append((time.monotonic(), record.getMessage()))


@pytest.fixture
def routed():
    """A user's own handler on "ascgen" (the documented way to route the messages)."""
    records = Records()
    logger = logging.getLogger("ascgen")
    saved = logger.handlers[:], logger.level, logger.propagate
    logger.handlers[:] = [records]
    logger.setLevel(logging.INFO)
    yield records
    logger.handlers[:], logger.level, logger.propagate = saved[0], saved[1], saved[2]


def test_the_promise_is_a_line_at_least_every_10_seconds():
    assert 0 < console.HEARTBEAT_S <= 10


def test_a_slow_step_logs_its_first_line_at_once_then_a_moving_count(routed, monkeypatch):
    monkeypatch.setattr(console, "HEARTBEAT_S", 0.1)
    monkeypatch.setattr(console, "REDRAW_S", 0.02)
    with console.long_step("compiling the fake library for ascend910b", expect="about 1 s", total=5) as step:
        # the first line is out before any work starts (a cold build never sits silent)
        assert routed.seen and routed.seen[0][1] == "compiling the fake library for ascend910b: about 1 s..."
        for _ in range(5):
            time.sleep(0.15)                  # the fake slow step: one "source" per 0.15 s
            step.advance()
    lines = [text for _, text in routed.seen]
    beats = [text for text in lines[1:] if "/5 sources" in text]
    assert len(beats) >= 3, lines                                 # off a terminal: periodic lines ...
    counts = [int(text.split(": ")[1].split("/")[0]) for text in beats]
    assert counts == sorted(counts) and counts[-1] == 5 and counts[0] < 5, lines   # ... whose count moves
    assert lines[-1].endswith("(done)") and "5/5 sources" in lines[-1]
    gaps = [b - a for (a, _), (b, _) in zip(routed.seen, routed.seen[1:])]
    assert max(gaps) < 10, gaps


def test_a_quick_step_adds_no_line(routed):
    with console.long_step("compiling tiny"):
        pass
    assert [text for _, text in routed.seen] == ["compiling tiny..."]


def test_silenced_by_the_logger_level(routed):
    logging.getLogger("ascgen").setLevel(logging.WARNING)
    with console.long_step("compiling quiet"):
        pass
    console.warn("still shown")
    assert [text for _, text in routed.seen] == ["still shown"]


def test_default_handler_off_a_terminal_writes_plain_lines(monkeypatch):
    logger = logging.getLogger("ascgen")
    saved = logger.handlers[:], logger.level, logger.propagate
    logger.handlers[:] = []
    logger.setLevel(logging.NOTSET)           # as in a fresh interpreter: ascgen attaches its handler at INFO
    err = io.StringIO()
    monkeypatch.setattr("sys.stderr", err)
    try:
        console.progress("transient: a terminal only")
        console.step("compiling add_relu...")
        console.warn("careful")
    finally:
        logger.handlers[:], logger.level, logger.propagate = saved[0], saved[1], saved[2]
    assert err.getvalue() == "compiling add_relu...\nascgen: warning: careful\n"


def test_the_devkit_header_precompile_speaks_at_once_and_keeps_speaking(routed, monkeypatch, tmp_path):
    """The real call site (runtime/backends/devkit/toolchain.py) with the compiler replaced by a fake slow step."""
    from types import SimpleNamespace

    from ascgen import products
    from ascgen.runtime import build
    from ascgen.runtime.backends.devkit import toolchain as devkit
    monkeypatch.setattr(console, "HEARTBEAT_S", 0.1)
    monkeypatch.setattr(console, "REDRAW_S", 0.02)

    def slow_compiler(cmd, **kw):
        assert routed.seen, "no line before the slow step started"
        time.sleep(0.5)
        open(cmd[-1], "wb").close()              # the precompiled header the real compiler would write
        return SimpleNamespace(returncode=0, stdout="", stderr="")
    monkeypatch.setattr(build, "run_tool", slow_compiler)   # every compiler the devkit runs goes through it
    devkit._build_pch("g++", [], products.get("ascend910b"), tmp_path / "lib.h", tmp_path / "lib.h.gch")
    lines = [text for _, text in routed.seen]
    assert lines[0] == "precompiling the Ascend C library for ascend910b: about 2 minutes, once per product...", lines
    assert len([t for t in lines if t.startswith("precompiling the Ascend C library for ascend910b: 0 s")]) >= 2, lines
    assert (tmp_path / "lib.h.gch").is_file()


def test_on_a_terminal_the_status_line_is_redrawn_in_place(monkeypatch):
    class Tty(io.StringIO):
        def isatty(self):
            return True
    logger = logging.getLogger("ascgen")
    saved = logger.handlers[:], logger.level, logger.propagate
    logger.handlers[:] = []
    logger.setLevel(logging.NOTSET)
    err = Tty()
    monkeypatch.setattr("sys.stderr", err)
    monkeypatch.setattr(console, "REDRAW_S", 0.02)
    try:
        with console.long_step("compiling big", total=2) as step:
            time.sleep(0.1)
            step.advance(2)
            time.sleep(0.1)
    finally:
        logger.handlers[:], logger.level, logger.propagate = saved[0], saved[1], saved[2]
    text = err.getvalue()
    assert text.startswith("compiling big...") and "\r\033[Kcompiling big: 2/2 sources, 0 s" in text, repr(text)
    assert "\n" not in text                     # one line, redrawn; cleared at the end
    assert text.endswith("\r\033[K")
