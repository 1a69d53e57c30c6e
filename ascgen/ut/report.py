"""Reporting: one line per case (text) or one JSON object per case, and the summary line."""
from __future__ import annotations

import json
import sys
from collections import Counter

from ascgen.ut.verdict import STATUSES


def case_line(case) -> str:
    return f"{case.status:<16} {case.op}@{case.product} {case.test}  ({case.seconds:.1f} s)" + \
        (f": {case.reason}" if case.status not in ("passed-compared", "passed-ran") else "")


def emit(case, fmt: str) -> None:
    """Print one case as soon as it is known (a sweep stopped by Ctrl-C keeps what it printed)."""
    if fmt == "json":
        print(json.dumps(case.as_json()), flush=True)
    else:
        print(case_line(case), flush=True)


def summary(cases, interrupted: bool = False) -> str:
    counts = Counter(c.status for c in cases)
    parts = [f"{counts[s]} {s}" for s in STATUSES if counts[s]]
    text = f"ascgen ut: {len(cases)} case(s): " + (", ".join(parts) if parts else "none")
    return text + (" (interrupted: the cases not run are not counted)" if interrupted else "")


def print_summary(cases, interrupted: bool = False) -> None:
    print(summary(cases, interrupted), file=sys.stderr, flush=True)
