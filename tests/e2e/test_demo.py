"""`ascgen demo` end to end, as a user runs it (subprocess): the clean story, then the same SuperKernel
with a planted race and a planted hang, each report shown, exits 0; `--bug` alone exits 1 with the race."""
import os
import re
import subprocess
import sys
from tests.paths import REPO


ROOT = REPO


def _demo(tmp_path, *extra):
    # The checkout first on the path, so the test runs the code under test even when another ascgen is installed.
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    return subprocess.run([sys.executable, "-m", "ascgen", "demo", "-o", str(tmp_path / "demo"), *extra],
                          capture_output=True, text=True, timeout=300, env=env)


def test_demo_runs_checks_and_reports_the_gain(tmp_path):
    proc = _demo(tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = proc.stdout
    assert "prefetch w before WaitPreTaskEnd" in out
    for name in ("scale.cpp", "add.cpp", "relu.cpp", "superkernel.py"):
        assert (tmp_path / "demo" / name).is_file()
        assert f"wrote {tmp_path / 'demo' / name}" in out
    assert out.count("output matches numpy; 0 race(s)") == 2
    es, no, gain = re.search(r"early start ([\d,]+) cycles vs full barriers ([\d,]+) cycles: gain ([\d.]+)x", out).groups()
    assert float(gain) > 1.0 and int(es.replace(",", "")) < int(no.replace(",", ""))
    # the one-run model of "without early start" agrees with the run that had it off
    assert re.search(rf"without early start\s+{no} cycles", out), out
    assert (tmp_path / "demo" / "demo_trace.json").is_file()
    assert (tmp_path / "demo" / "demo_timeline.svg").read_text().startswith("<svg")
    # the product, not only the gain: the planted race and the planted hang, each with its report
    assert "SUMMARY: ascgen: RAW race y scale.cpp:" in out and "(producer tail)" in out, out
    assert "ERROR: ascgen: hang at the boundary task 0 \"scale\" -> task 1 \"add\"" in out, out
    assert re.search(r"SUMMARY: ascgen: hang flag \d+ round 1 missing AIV0 \(scale\.cpp:\d+\)", out), out
    assert "core 0 skips it" in (tmp_path / "demo" / "hang" / "scale.cpp").read_text()


def test_demo_bug_shows_the_race_report(tmp_path):
    proc = _demo(tmp_path, "--bug")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    out = proc.stdout
    assert "WARNING: ascgen: data race between tasks" in out
    assert "SUMMARY: ascgen: RAW race y scale.cpp:" in out and "(producer tail)" in out
    assert "Hint: move SetNextTaskStart" in out
    assert "BUG (planted by ascgen demo --bug)" in (tmp_path / "demo" / "bug" / "scale.cpp").read_text()


def test_demo_on_a_product_without_superkernel_emits_and_explains(tmp_path):
    proc = _demo(tmp_path, "--product", "ascend310p")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "has no SuperKernel" in proc.stdout and "compile-only" in proc.stdout
    assert (tmp_path / "demo" / "scale.cpp").is_file() and not (tmp_path / "demo" / "demo_trace.json").exists()
