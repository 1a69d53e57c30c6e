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
