"""Progress and messages for the CLI: transient progress shows on a terminal only; long steps (compiles)
also print one line each on stderr when it is not a terminal."""
import sys

_state = {"quiet": False, "verbose": False}


def configure(quiet: bool = False, verbose: bool = False) -> None:
    _state["quiet"], _state["verbose"] = quiet, verbose


def progress(message: str) -> None:
    """A transient status line ("compiling add_relu.cpp..."), only on an interactive terminal."""
    if not _state["quiet"] and sys.stderr.isatty():
        sys.stderr.write(f"\r\033[K{message}")
        sys.stderr.flush()


def step(message: str) -> None:
    """A long step (a first-time compile): a status line on a terminal, one plain line on stderr otherwise,
    so CI logs show what a slow run is doing."""
    if _state["quiet"]:
        return
    if sys.stderr.isatty():
        progress(message)
    else:
        print(message, file=sys.stderr, flush=True)


def done() -> None:
    """Clear the status line."""
    if not _state["quiet"] and sys.stderr.isatty():
        sys.stderr.write("\r\033[K")
        sys.stderr.flush()


def info(message: str) -> None:
    if not _state["quiet"]:
        print(message)


def verbose(message: str) -> None:
    if _state["verbose"] and not _state["quiet"]:
        print(message, file=sys.stderr)


def warn(message: str) -> None:
    print(f"ascgen: warning: {message}", file=sys.stderr)
