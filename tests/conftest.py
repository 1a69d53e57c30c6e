"""Settings every test shares. The suite never touches the user's cache: compiled kernels go to
ASCGEN_TEST_CACHE_DIR, by default a folder of its own in the system's temporary folder (kept between runs
so a second run is warm, shared by the xdist workers, which cooperate through atomic renames)."""
import getpass
import os
import tempfile
from pathlib import Path

# ascgen's pytest plugin (the entry point registers it when ascgen is installed; the same name, so once).
pytest_plugins = ["ascgen.pytest_plugin"]


def _test_cache() -> Path:
    explicit = os.environ.get("ASCGEN_TEST_CACHE_DIR")
    if explicit:
        return Path(explicit)
    return Path(tempfile.gettempdir()) / f"ascgen-tests-{getpass.getuser()}"


os.environ["ASCGEN_CACHE_DIR"] = str(_test_cache())
# The suite builds three devkit precompiled headers (about 200 MB each) besides hundreds of modules; under
# the default 1 GiB cap their eviction would make later tests precompile the library again (minutes in CI).
os.environ.setdefault("ASCGEN_CACHE_LIMIT", "4G")


def pytest_xdist_auto_num_workers(config):
    """`-n auto` runs one worker more than the machine has CPUs. The suite is CPU-bound, but a worker often
    waits: on another's build of a module both need (the build lock), on a hanging case's time limit, on a
    subprocess's start. With one worker per CPU those waits left 7% of the cores idle in a clean-clone run
    (2 CPUs: 186% of CPU over pytest's 832 s); the extra worker runs in them (docs/testing.md)."""
    return (os.cpu_count() or 1) + 1
