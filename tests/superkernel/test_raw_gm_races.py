"""Issue 9 class 2, the race half: with ASCGEN_RAW_GM_RACES=1 a raw `(__gm__ T*)` store after
SetNextTaskStart is a race with the next task's read, found by the happens-before detector like a
DataCopy's; without it the same SuperKernel reports nothing. Each setting in its own process (the
instrumentation is chosen when the module is built)."""
import json
import os
import subprocess
import sys
import textwrap

from tests.paths import REPO, RUNTIME_KERNELS, SK_BUGS

SCRIPT = textwrap.dedent(f"""
    import json
    import numpy as np
    from ascgen.runtime import SuperKernel, load
    n = 2048
    x, y, z = np.arange(n, dtype=np.float32), np.zeros(n, np.float32), np.zeros(n, np.float32)
    producer = load({str(RUNTIME_KERNELS / "raw_sk.cpp")!r}, product="ascend910_93")
    consumer = load({str(SK_BUGS / "good.cpp")!r}, product="ascend910_93")
    sk = SuperKernel("ascend910_93", options="early-start=1", detect_races=True)
    sk.add(producer, "raw_scale_late", 8, x, y, np.uint32(n)).add(consumer, "shift", 4, y, z, np.uint32(n))
    report = sk.run()
    print(json.dumps([str(r) for r in report.races]))
""")


def races(setting: str) -> list:
    env = {**os.environ, "ASCGEN_RAW_GM_RACES": setting,
           "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    proc = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=900, env=env)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_raw_store_after_the_set_is_a_race_only_with_the_instrumentation():
    assert races("0") == []
    found = races("1")
    assert found, "the raw store after SetNextTaskStart must race with the next task's read"
    assert any("raw_sk.cpp" in r for r in found), found
