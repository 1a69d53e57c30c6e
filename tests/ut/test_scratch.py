"""The scratch folder (ascgen/ut/scratch.py): the tests' relative paths reach the repository, nothing is
written into it, the Python shim records every data script."""
import hashlib
import os
import subprocess

import pytest

from ascgen.errors import SpecError
from ascgen.ut import cmake, verdict
from ascgen.ut.scratch import Scratch, resolve_python
from tests.ut import synthetic


def tree_digest(root) -> str:
    h = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        h.update(str(path.relative_to(root)).encode())
        if path.is_file():
            h.update(path.read_bytes())
    return h.hexdigest()


def test_scratch_reaches_the_repository_and_never_writes_into_it(tmp_path):
    repo = synthetic.nn_repo(tmp_path / "nn")
    before = tree_digest(repo)
    rule = next(r for r in cmake.discover([repo])[0] if r.op == "add_one")
    scratch = Scratch(rule, resolve_python("python3"))
    try:
        cwd, log = scratch.case_dir()
        data = "../../../../cat/add_one/tests/ut/op_kernel/add_one_data"
        script = (f"cp -rf {data} ./ && python3 -c 'print(\"PASSED!\")' && echo x > {data}/gen_data.py && "
                  "echo y > ../../../../cat/add_one/tests/new.txt && chmod -R 755 ./add_one_data")
        subprocess.run(["sh", "-c", script], cwd=cwd, env=scratch.env(log), check=True, capture_output=True)
        assert (cwd / "add_one_data" / "compare_data.py").is_file()
        (record,) = verdict.read_log(log)
        assert record.argv == ["-c", 'print("PASSED!")'] and record.status == 0 and "PASSED!" in record.stdout
        # Every other entry of the repository is a link into it; the op's tests/ folder is a copy.
        assert (scratch.repo / "cmake").is_symlink() and not (scratch.repo / "cat").is_symlink()
        assert (scratch.repo / "cat" / "add_one" / "op_kernel").is_symlink()
        assert not (scratch.repo / "cat" / "add_one" / "tests").is_symlink()
    finally:
        scratch.close()
    assert not scratch.folder.exists()
    assert tree_digest(repo) == before


def test_python_must_exist():
    with pytest.raises(SpecError, match="--python no-such-python-here: no such executable"):
        resolve_python("no-such-python-here")
    assert os.path.isabs(resolve_python("python3"))
