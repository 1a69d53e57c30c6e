"""Every code block of the README runs as written, in order, in a folder laid out like the repository:

* ```python blocks run one after another in one namespace (a later block uses what an earlier defined);
* ```sh blocks run line by line (`ascgen ...` as `python -m ascgen ...`) and must exit 0; the two install
  commands at the top are the exception: `pip install` is what CI itself does, and the test command
  would run this suite inside itself, so the test runs only what follows `pip install . &&`;
* a ```text block that starts with `$ ascgen ...` is that command's exact output;
* the ```cpp block is an excerpt: each of its lines appears in the golden file it quotes.
"""
import os
import re
import shutil
import subprocess
import sys

import pytest

from tests.paths import GENERATED, REPO

FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.M | re.S)
BLOCKS = FENCE.findall((REPO / "README.md").read_text())


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    """A folder with the repository's examples and test data, so README paths resolve."""
    root = tmp_path_factory.mktemp("readme")
    shutil.copytree(REPO / "examples", root / "examples")
    shutil.copytree(REPO / "tests" / "data", root / "tests" / "data")
    return root


def _shell_lines(block: str) -> list[str]:
    lines = []
    for line in block.splitlines():
        command = line.split("  #")[0].strip()
        if command.startswith("pip install"):
            if "&& ascgen " not in command:
                continue                    # the test command: CI runs it; running it here would recurse
            command = command.split("&&", 1)[1].strip()
        if command:
            lines.append(command)
    return lines


def _run(command: str, cwd) -> subprocess.CompletedProcess:
    words = command.split()
    assert words[0] == "ascgen", f"README shell lines are ascgen commands; got {command!r}"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "ascgen", *words[1:]], cwd=cwd, capture_output=True,
                          text=True, timeout=600, env=env)


def test_the_readme_has_the_blocks_this_test_reads():
    kinds = [kind for kind, _ in BLOCKS]
    assert kinds.count("python") >= 4 and kinds.count("sh") >= 4 and "cpp" in kinds and "text" in kinds


def test_every_block_runs_in_order(workdir, monkeypatch):
    monkeypatch.chdir(workdir)
    namespace: dict = {"__name__": "__readme__"}
    for kind, block in BLOCKS:
        if kind == "python":
            exec(compile(block, "README.md", "exec"), namespace)
        elif kind == "sh":
            for command in _shell_lines(block):
                run = _run(command, workdir)
                assert run.returncode == 0, f"{command}\n{run.stdout}\n{run.stderr}"
        elif kind == "text" and block.startswith("$ ascgen "):
            command, _, shown = block.partition("\n")
            run = _run(command[2:], workdir)
            assert (run.stdout + run.stderr).rstrip() == shown.rstrip(), command
    assert (workdir / "out" / "add_relu.cpp").is_file() and (workdir / "sk.json").is_file()


def test_the_cpp_excerpt_is_in_the_golden_file():
    (excerpt,) = [block for kind, block in BLOCKS if kind == "cpp"]
    golden = (GENERATED / "ascend910_93" / "add_relu.cpp").read_text().splitlines()
    missing = [line for line in excerpt.splitlines() if line.strip() != "..." and line not in golden]
    assert not missing, f"README excerpt lines not in generated/ascend910_93/add_relu.cpp: {missing}"
