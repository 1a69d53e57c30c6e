"""Every code block in docs/*.md runs as written, or says it is not meant to run.

```python and ```sh blocks are run, each on its own, in a fresh folder laid out like the repository (the
data folders the docs name are copied in), so a reader can paste any one of them from the repository root.
In sh blocks `ascgen` runs as `python -m ascgen` of this interpreter. ```text blocks hold output, diagrams
and command synopses (a command that cannot run here goes in one, with a one-line reason before it); one
that starts with `$ ascgen ...` is a transcript, rerun and compared. ```cpp blocks are excerpts of a
source under generated/ or tests/data/, lines in order (`...` for lines left out).
A block without a language, or with another one, fails: the reader could not tell whether it runs.
"""
from __future__ import annotations

import getpass
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.paths import REPO

DOCS = REPO / "docs"
PAGES = sorted(DOCS.glob("*.md"))       # the README's blocks can join once they run as written
RUN = {"python", "sh"}
SHOWN = {"text", "cpp"}
# Folders copied into each block's working folder: what the docs' examples read (never written back).
LAYOUT = ("examples", "generated", "runtime/include", "runtime/core/include", "runtime/common", "tests/data",
          "tests/check/corpus")
TIME_LIMIT_S = 300
FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.S | re.M)


def blocks(path: Path) -> list[tuple[int, str, str]]:
    """(line of the opening fence, language, body) of every fenced block of a Markdown file."""
    text = path.read_text()
    return [(text.count("\n", 0, m.start()) + 1, m.group(1).strip(), m.group(2)) for m in FENCE.finditer(text)]


def all_blocks() -> list[tuple[str, str, str]]:
    found = []
    for page in PAGES:
        where = page.relative_to(REPO).as_posix()
        found += [(f"{where}:{line}", lang, body) for line, lang, body in blocks(page)]
    return found


BLOCKS = all_blocks()


def test_the_fence_reader_sees_every_block():
    """The reader pairs fences correctly: its blocks account for every fence line of every page."""
    for page in PAGES:
        fences = sum(1 for line in page.read_text().splitlines() if line.lstrip().startswith("```"))
        assert fences == 2 * len(blocks(page)), f"{page.name}: an unpaired or indented fence"
    assert any(lang in RUN for _, lang, _ in BLOCKS), "no runnable block found: the reader is broken"


@pytest.mark.parametrize("where,lang", [(w, lang) for w, lang, _ in BLOCKS])
def test_every_block_says_what_it_is(where, lang):
    assert lang in RUN | SHOWN, (f"{where}: a ```{lang} block; use ```python or ```sh for what runs, ```text for "
                                 "output, diagrams and synopses (with a one-line reason before it if it cannot run "
                                 "here), ```cpp for Ascend C excerpts")


def fresh_repo_like(where: str) -> Path:
    """An empty folder with copies of LAYOUT, at a path that stays the same from run to run for the same
    block (kernel builds are relocatable, so the copies share modules anyway; a program's build, compiled
    from a rewritten copy that names its path, is not, and a stable path lets a second run reuse it)."""
    checkout = hashlib.sha256(str(REPO).encode()).hexdigest()[:8]
    root = Path(tempfile.gettempdir()) / f"ascgen-docs-blocks-{getpass.getuser()}-{checkout}"
    folder = root / re.sub(r"[^A-Za-z0-9]+", "_", where)
    shutil.rmtree(folder, ignore_errors=True)
    for name in LAYOUT:
        shutil.copytree(REPO / name, folder / name)
    return folder


@pytest.fixture
def repo_like(request):
    return fresh_repo_like(request.node.name)


def script(lang: str, body: str) -> list[str]:
    """The command that runs one block (written to a file so tracebacks name its lines)."""
    if lang == "python":
        return [sys.executable, "-"]
    prelude = f'set -euo pipefail\nascgen() {{ "{sys.executable}" -m ascgen "$@"; }}\n'
    return ["bash", "-c", prelude + body]


RUNNABLE = [(where, lang, body) for where, lang, body in BLOCKS if lang in RUN]


@pytest.mark.parametrize("where,lang,body", RUNNABLE, ids=[w for w, _, _ in RUNNABLE])
def test_block_runs(where, lang, body, repo_like):
    env_path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    proc = subprocess.run(script(lang, body), input=body if lang == "python" else None, cwd=repo_like,
                          capture_output=True, text=True, timeout=TIME_LIMIT_S,
                          env={**os.environ, "PATH": env_path})
    assert proc.returncode == 0, (f"{where} (```{lang}) exited {proc.returncode}\n--- stdout\n{proc.stdout[-3000:]}"
                                  f"\n--- stderr\n{proc.stderr[-3000:]}")


TRANSCRIPTS = [(where, body) for where, lang, body in BLOCKS if lang == "text" and body.startswith("$ ascgen ")]


@pytest.mark.parametrize("where,body", TRANSCRIPTS, ids=[w for w, _ in TRANSCRIPTS])
def test_transcript_matches_a_fresh_run(where, body, repo_like):
    """A ```text block that starts with `$ ascgen ...` shows a command and its output: both must be true
    (the exit status is not compared: `ascgen check` exits 1 when it finds an error)."""
    command, _, expected = body.partition("\n")
    proc = subprocess.run(script("sh", command[2:] + " || true"), cwd=repo_like, capture_output=True, text=True,
                          timeout=TIME_LIMIT_S)
    assert proc.stdout == expected, f"{where}: the output of `{command[2:]}` changed:\n{proc.stdout}{proc.stderr}"


QUOTED = (REPO / "generated", REPO / "tests" / "data")
EXCERPTS = [(where, body) for where, lang, body in BLOCKS if lang == "cpp"]


def quoted_in(body: str) -> list[str]:
    """The files under QUOTED holding the excerpt's lines in order (`...` stands for lines left out)."""
    wanted = [line for line in body.splitlines() if line.strip() not in ("", "...")]
    found = []
    for path in sorted(p for folder in QUOTED for p in folder.rglob("*") if p.suffix in (".cpp", ".asc")):
        lines = iter(path.read_text().splitlines())
        if all(any(line == have for have in lines) for line in wanted):
            found.append(path.relative_to(REPO).as_posix())
    return found


@pytest.mark.parametrize("where,body", EXCERPTS, ids=[w for w, _ in EXCERPTS])
def test_cpp_block_is_an_excerpt_of_a_real_source(where, body):
    """Ascend C shown in the docs is quoted from a file that is compiled and tested, never typed in."""
    assert quoted_in(body), f"{where}: these lines are not, in this order, in any file under generated/ or tests/data/"


def test_an_edited_excerpt_is_not_found():
    (where, body), *_ = EXCERPTS
    assert quoted_in(body) and not quoted_in(body.replace("(", "( ", 1))
    assert not quoted_in("\n".join(reversed([l for l in body.splitlines() if l.strip() not in ("", "...")])))


def test_a_failing_block_fails(repo_like):
    """The runner reports a failure rather than passing everything: a bad ascgen call and a Python error."""
    bad_sh = subprocess.run(script("sh", "ascgen emit no_such_spec.py -p ascend910b -o out\necho reached\n"),
                            cwd=repo_like, capture_output=True, text=True, timeout=TIME_LIMIT_S)
    assert bad_sh.returncode != 0 and "reached" not in bad_sh.stdout
    bad_py = subprocess.run(script("python", ""), input="import ascgen\nascgen.products.get('nope')\n",
                            cwd=repo_like, capture_output=True, text=True, timeout=TIME_LIMIT_S)
    assert bad_py.returncode != 0
