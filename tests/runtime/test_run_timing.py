"""Honest timings (issue 21 point 6): `ascgen run --kernel` times the launch, not the first import of
ml_dtypes that binding a float argument triggers (about 1.4 s cold, for a launch of a few ms)."""
import importlib.abc
import importlib.util
import sys
import time

from ascgen.cli import main
from tests.paths import RUNTIME_KERNELS


def test_the_timed_region_does_not_import_ml_dtypes(monkeypatch, capsys):
    import ml_dtypes
    events: list[str] = []

    class Loader(importlib.abc.Loader):          # hands back the loaded module: only the moment is recorded
        def create_module(self, spec):
            return ml_dtypes

        def exec_module(self, module):
            pass

    class Finder(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path, target=None):
            if name == "ml_dtypes":
                events.append("import ml_dtypes")
                return importlib.util.spec_from_loader(name, Loader())
            return None

    clock = time.perf_counter
    monkeypatch.delitem(sys.modules, "ml_dtypes")            # as in a fresh `ascgen run` process
    monkeypatch.setattr(sys, "meta_path", [Finder(), *sys.meta_path])
    monkeypatch.setattr(time, "perf_counter", lambda: events.append("clock") or clock())
    code = main(["run", str(RUNTIME_KERNELS / "scalars.cpp"), "--kernel", "echo", "--block-dim", "1",
                 "--arg", "zeros:64", *[a for v in ("1", "2", "3", "4", "1.5", "2.5", "3.5", "1") for a in ("--arg", v)]])
    assert code == 0, capsys.readouterr().err
    assert "import ml_dtypes" in events, events                 # a float argument does import it ...
    timed = events[events.index("clock"):len(events) - events[::-1].index("clock")]
    assert "import ml_dtypes" not in timed, events              # ... but not between the two clock reads
