"""Verdicts: one status per test case from what its run left behind (exit status, gtest's lines, ascgen's
report, the shim's records of the data scripts it ran). The rules, in the order they are applied:

1. `unsupported: data script needs M`: a data script stopped with `No module named 'M'` (torch...). Its
   files were never written, so whatever the kernel did next ran on no data: a fault that follows (ops-nn
   clipped_swiglu divides by a group count read from a missing file) is named after it, not instead of it.
2. `fault`: ascgen reported a kernel error (memory error, hang, race, count mismatch, assert, crash) or
   the case was killed at its time limit; the reason is ascgen's report, which names file:line.
3. `error: data script S failed`: a data script (not a comparison) exited non-zero.
4. A comparison script is one whose file name contains "compare", or that printed a verdict line.
   Verdict lines: a line starting with PASS/PASSED or FAIL/FAILED (any case, `!` or `:` allowed after it),
   `compare result: True|False`, and `N PASSED, M FAILED` counts; from a script named a comparison also
   the upper-case words PASS/PASSED/SUCCESS, FAIL/FAILED anywhere in a line ("[op] int16 compare PASS",
   "[SUCCESS] 33x80 slot bytes match"). A comparison is failed when it exited
   non-zero or printed a failing verdict (FAILED, `False`, M > 0), passed when it exited 0 and printed at
   least one passing verdict and no failing one; a comparison that printed no verdict is not a pass
   (`error: ... printed no verdict`).
   Any failed comparison: `wrong`.
5. gtest reported the case failed (an EXPECT/ASSERT): `wrong`, with gtest's first failure line; the test
   skipped itself (GTEST_SKIP): `unsupported`, with its file:line and message.
6. Every comparison passed: `passed-compared`; none ran and the case passed: `passed-ran`.
7. Anything else (the program ended without gtest's verdict, a non-zero exit...): `error` with the first
   error line.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

STATUSES = ("passed-compared", "passed-ran", "wrong", "fault", "unsupported", "error")
FAILING = ("wrong", "fault", "error")

_PASS = re.compile(r"^\s*(?:\[\s*)?PASS(?:ED)?\b", re.I | re.M)
_FAIL = re.compile(r"^\s*(?:\[\s*)?FAIL(?:ED)?\b", re.I | re.M)
_RESULT = re.compile(r"compare result\s*:?\s*(True|False)", re.I)
_COUNTS = re.compile(r"(\d+)\s+PASSED\s*,\s*(\d+)\s+FAILED", re.I)
# Inside a line, only the upper-case words count ("[op] int16 compare PASS (bitwise exact)"), and only from a
# script named a comparison: a lower-case "pass" in prose, or a data script's chatter, is no verdict.
_PASS_WORD = re.compile(r"\b(?:PASS(?:ED)?|SUCCESS)\b")
_FAIL_WORD = re.compile(r"\bFAIL(?:ED)?\b")
_NO_MODULE = re.compile(r"No module named '([\w.]+)'")
# Joins a missing module's reason and the fault that followed it (rule 1): what comes after it is a consequence.
CONSEQUENCE = "; the kernel then ran without that data: "


@dataclass
class Record:
    """One run of a data script, as the shim logged it."""
    argv: list
    cwd: str
    status: int
    stdout: str
    stderr: str

    @property
    def script(self) -> str:
        return next((a for a in self.argv if a.endswith(".py")), "")

    def comparison(self) -> str | None:
        """None (not a comparison), "passed", "failed" or "silent" (no verdict printed)."""
        text = self.stdout + "\n" + self.stderr
        counts = [(int(p), int(f)) for p, f in _COUNTS.findall(text)]
        plain = _COUNTS.sub("", text)
        results = [r.lower() for r in _RESULT.findall(plain)]
        named = "compare" in Path(self.script).name.lower()
        failed = bool(_FAIL.search(plain) or named and _FAIL_WORD.search(plain)) or "false" in results \
            or any(f > 0 for _, f in counts)
        passed = bool(_PASS.search(plain) or named and _PASS_WORD.search(plain)) or "true" in results \
            or any(p > 0 and f == 0 for p, f in counts)
        if not named and not (failed or passed):
            return None
        if failed or self.status != 0:
            return "failed"
        return "passed" if passed else "silent"


def read_log(path: Path) -> list[Record]:
    records: list[Record] = []
    try:
        lines = path.read_text(errors="replace").splitlines()
    except OSError:
        return records
    for line in lines:
        try:
            d = json.loads(line)
            records.append(Record(list(d["argv"]), d.get("cwd", ""), int(d["status"]), d.get("stdout", ""),
                                  d.get("stderr", "")))
        except (ValueError, KeyError, TypeError):
            continue                    # a line cut short by a kill: the other records still count
    return records


@dataclass
class Outcome:
    """What one isolated run of a case left: gtest's verdict ("ok", "failed", "skipped", None), the first gtest
    failure (or skip) line, ascgen's kernel report (fault), a note of a kill at the time limit, and the first error line."""
    gtest: str | None
    failure: str = ""
    fault: str = ""
    error: str = ""


def _last_line(text: str) -> str:
    lines = [ln.strip() for ln in text.strip().splitlines() if ln.strip()]
    return lines[-1] if lines else ""


def classify(outcome: Outcome, records: list[Record]) -> tuple[str, str]:
    """(status, reason) for one case."""
    scripts = [r for r in records if r.script]
    for r in scripts:
        m = _NO_MODULE.search(r.stderr)
        if r.status != 0 and m:
            reason = f"data script {Path(r.script).name} needs {m.group(1).split('.')[0]} " \
                     f"(No module named '{m.group(1)}'); install it for the --python used"
            if outcome.fault:
                reason += CONSEQUENCE + outcome.fault.splitlines()[0]
            return "unsupported", reason
    if outcome.fault:
        return "fault", outcome.fault
    verdicts = [(r, r.comparison()) for r in scripts]
    for r, v in verdicts:
        if v is None and r.status != 0:
            return "error", f"data script {Path(r.script).name} failed (exit {r.status}): " \
                            f"{_last_line(r.stderr) or _last_line(r.stdout)}"
    compared = [(r, v) for r, v in verdicts if v is not None]
    for r, v in compared:
        if v == "failed":
            line = _first_fail_line(r)
            return "wrong", f"{Path(r.script).name} {' '.join(r.argv[1:])}".strip() + f": {line}"
    if outcome.gtest == "failed":
        return "wrong", outcome.failure or "gtest reported the case failed"
    if outcome.gtest == "skipped":
        return "unsupported", "the test skips itself (GTEST_SKIP)" + (f": {outcome.failure}" if outcome.failure else "")
    for r, v in compared:
        if v == "silent":
            return "error", f"{Path(r.script).name} printed no verdict (exit {r.status}); a comparison that " \
                            "says nothing is not a pass"
    if outcome.gtest == "ok":
        if compared:
            return "passed-compared", f"{len(compared)} comparison(s) passed"
        return "passed-ran", "ran to completion; the test makes no comparison"
    return "error", outcome.error or "the program ended without gtest's verdict for this case"


def _first_fail_line(r: Record) -> str:
    text = r.stdout + "\n" + r.stderr
    for pattern in (_FAIL, _RESULT, _COUNTS):
        m = pattern.search(text)
        if m:
            start = text.rfind("\n", 0, m.start()) + 1
            end = text.find("\n", m.start())
            return text[start:end if end >= 0 else None].strip()
    return f"exit status {r.status}"
