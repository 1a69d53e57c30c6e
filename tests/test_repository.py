"""No file of the project names a place on one machine: locations come from settings (ascgen/config.py),
and the docs stand alone. The only outside path allowed is the pinned asc-devkit snapshot that .ci/run
extracts from beside the clone."""
import re
import subprocess

from tests.paths import REPO

MACHINE_PATH = re.compile(r"(^|[^\w:/.~$-])/(work|farm|home|root|Users|mnt)/[\w.+-]+|\.\./shared/design")
ALLOWED = {".ci/run"}


def tracked_files() -> list[str]:
    if (REPO / ".git").exists():
        out = subprocess.run(["git", "-C", str(REPO), "ls-files"], capture_output=True, text=True, check=True)
        return out.stdout.splitlines()
    skip = (".git", ".venv", "build", "dist", "ascgen.egg-info", "__pycache__", ".pytest_cache")  # an sdist
    return [str(p.relative_to(REPO)) for p in REPO.rglob("*")
            if p.is_file() and not any(part.startswith(skip) for part in p.relative_to(REPO).parts)]


def test_no_file_names_a_machine_path():
    found = []
    for name in tracked_files():
        if name in ALLOWED:
            continue
        try:
            text = (REPO / name).read_text(errors="ignore")
        except (OSError, IsADirectoryError):
            continue
        found += [f"{name}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(0).strip()}"
                  for m in MACHINE_PATH.finditer(text)]
    assert not found, "machine-specific paths:\n" + "\n".join(found[:20])


def test_the_pattern_catches_what_it_should():
    # Spelled in pieces so this file does not name the paths it tests for.
    assert MACHINE_PATH.search("see /" + "work/main/x.py") and MACHINE_PATH.search("../" + "shared/design/a.md")
    assert not MACHINE_PATH.search("runtime/include/x.h and https://example.org/work/x")
