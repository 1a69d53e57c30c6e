"""Output formats of `ascgen check`: compiler-style text, JSON, and SARIF 2.1.0 for code-scanning tools."""
from __future__ import annotations

import json
import os
import urllib.parse
from pathlib import Path
from typing import Any

from ascgen.errors import Diagnostic

# Rule id -> (default level, one-line description): the SARIF rule table and docs/check.md agree on these.
RULES = {
    "tasksync-once-per-path": ("error", "WaitPreTaskEnd / SetNextTaskStart run exactly once on every path"),
    "tasksync-in-loop": ("error", "WaitPreTaskEnd / SetNextTaskStart are not called inside a loop"),
    "tasksync-gm-before-wait": ("error", "no GM access before WaitPreTaskEnd"),
    "tasksync-gm-after-set": ("error", "no GM access after SetNextTaskStart"),
    "tasksync-pipe": ("error", "SetNextTaskStart pipes are valid for their core type (warning: not the default)"),
    "tasksync-force": ("error", "FORCE=true only on products with SuperKernel support"),
    "sk-forbidden-intrinsic": ("error", "no block_idx / block_num / get_block_idx / get_block_num / get_task_ration"),
    "tasksync-flag-alias": ("error", "no hardware SyncAll or cross-core flags 11-14 in a kernel using task sync"),
    "tasksync-no-effect": ("note", "task sync has no effect on a compile-only product"),
    "sk-buffer-capacity": ("error", "constant InitBuffer sizes fit the product's UB / L1 / L0 memory"),
    "tasksync-op-wide": ("error", "in a source that uses task sync, every kernel calls it (op-wide detection)"),
    "sk-bind-bits": ("error", "SK_BIND's cap bits (1 wait, 2 set) match the task-sync calls the bound kernel makes"),
    "tasksync-every-variant": ("error", "if one instantiation the tiling-key template selects calls task sync, every one does"),
    "sk-syncall-fewer-cores": ("error", "no full-core hard sync in a kernel that may run on fewer cores than the SuperKernel (warning: hardware SyncAll)"),
    "sk-gm-scalar-no-dcci": ("warning", "GM scalar writes are followed by DataCacheCleanAndInvalid (SuperKernel products)"),
    "sk-mix-ratio": ("error", "a MIX 1:1 kernel works launched 1:2: hard syncs on every vector core, Matmul driven by AIV0 only"),
    "sk-pipe-destroy-barrier": ("warning", "TPipe::Destroy followed by more pipe work has a PipeBarrier<PIPE_ALL> after it (SuperKernel builds drop Destroy's)"),
    "sk-tiling-key-uncovered": ("error", "every tiling key the op's host tiling sets has a kernel branch or instantiation"),
}
DOC_URI = "docs/check.md"


def display(name: str) -> str:
    """A file name as printable text: bytes that are not UTF-8 (kept by Python as surrogates) as `\\xff`."""
    return os.fsencode(name).decode("utf-8", "backslashreplace")


def text(diagnostics: list[Diagnostic], skipped: list, verbose: bool = False) -> str:
    lines = []
    for d in diagnostics:
        lines.append(f"{display(d.file)}:{d.line}:{d.column}: {d.severity}: {d.message} [{d.rule}]")
        for n in d.notes:
            lines.append(f"{display(n.file)}:{n.line}:{n.column}: note: {n.message}")
    if skipped and verbose:
        lines.extend(f"note: {display(str(s))}" for s in skipped)
    errors = sum(d.severity == "error" for d in diagnostics)
    warnings = sum(d.severity == "warning" for d in diagnostics)
    if errors or warnings or skipped:
        summary = f"{errors} error(s), {warnings} warning(s)"
        if skipped:
            summary += f", {len(skipped)} item(s) skipped" + ("" if verbose else " (--verbose lists them)")
        lines.append(summary)
    return "\n".join(lines)


def _diag_dict(d: Diagnostic) -> dict:
    return {"file": display(d.file), "line": d.line, "column": d.column, "severity": d.severity, "rule": d.rule,
            "message": d.message,
            "notes": [{"file": display(n.file), "line": n.line, "column": n.column, "message": n.message} for n in d.notes]}


def to_json(diagnostics: list[Diagnostic], skipped: list) -> str:
    return json.dumps({"diagnostics": [_diag_dict(d) for d in diagnostics],
                       "skipped": [{**s.to_dict(), "file": display(s.file)} for s in skipped]}, indent=2)


def _location(file: str, line: int, column: int, root: Path) -> dict:
    path = Path(file).resolve()
    try:
        # A relative URI reference: percent-encoded (RFC 3986) from the name's bytes, `/` kept.
        uri = urllib.parse.quote(os.fsencode(path.relative_to(root).as_posix()), safe="/")
        base = {"uriBaseId": "SRCROOT"}
    except ValueError:
        uri, base = path.as_uri(), {}
    return {"physicalLocation": {"artifactLocation": {"uri": uri, **base},
                                 "region": {"startLine": line, "startColumn": max(column, 1)}}}


def to_sarif(diagnostics: list[Diagnostic], skipped: list, failures: list, version: str) -> str:
    root = Path(os.getcwd()).resolve()
    rule_ids = list(RULES)
    results = []
    for d in diagnostics:
        result: dict[str, Any] = {"ruleId": d.rule, "level": d.severity,
                  "message": {"text": d.message}, "locations": [_location(d.file, d.line, d.column, root)]}
        if d.rule in RULES:
            result["ruleIndex"] = rule_ids.index(d.rule)
        if d.notes:
            result["relatedLocations"] = [
                {"id": i, "message": {"text": n.message}, **_location(n.file, n.line, n.column, root)}
                for i, n in enumerate(d.notes)]
        results.append(result)
    notifications = [{"level": "note", "message": {"text": display(f"skipped {s.what}: {s.reason}")},
                      "locations": [_location(s.file, s.line, 1, root)]} for s in skipped]
    notifications += [{"level": "error", "message": {"text": display(reason)}} for reason in failures]
    run = {
        "tool": {"driver": {
            "name": "ascgen check", "version": version,
            "rules": [{"id": rid, "name": rid, "shortDescription": {"text": desc},
                       "help": {"text": f"See {DOC_URI}, section Rules, `{rid}`."},
                       "defaultConfiguration": {"level": level}}
                      for rid, (level, desc) in RULES.items()]}},
        "originalUriBaseIds": {"SRCROOT": {"uri": root.as_uri() + "/"}},
        "invocations": [{"executionSuccessful": not failures, "toolExecutionNotifications": notifications}],
        "results": results,
    }
    return json.dumps({"$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0",
                       "runs": [run]}, indent=2)
