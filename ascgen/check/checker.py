"""Static verification of the SuperKernel task-sync rules in any Ascend C source.

Pipeline per file: check_parse (libclang, missing headers blanked) -> check_index (what the user's files
define) -> check_paths (the path model of each kernel entry) -> check_rules (diagnostics) ->
check_format (text, JSON, SARIF). Exit codes: 0 clean (notes and warnings allowed), 1 an error found,
2 a file could not be analysed (missing, unparsable, no kernel entry); 2 wins over 1 so a broken input
is never mistaken for a mere finding.
"""
from __future__ import annotations

import dataclasses
import os
import re
import traceback
from dataclasses import dataclass, field
from pathlib import Path

from ascgen import config
from ascgen import products as products_mod
from ascgen.check import api
from ascgen.check import budget
from ascgen.check import index as check_index
from ascgen.check import instances as check_instances
from ascgen.check import opfolder
from ascgen.check import parse as check_parse
from ascgen.check import paths as check_paths
from ascgen.check import rules as check_rules
from ascgen.check import sk_rules
from ascgen.errors import AscgenError, Diagnostic


@dataclass
class CheckResult:
    file: str
    diagnostics: list = field(default_factory=list)     # ascgen.errors.Diagnostic, sorted by position
    skipped: list = field(default_factory=list)         # check_parse.Skipped: what was not analysed
    kernels: list = field(default_factory=list)         # names of the kernel entries analysed
    failure: str | None = None                          # why the file could not be analysed at all
    suppressed: list = field(default_factory=list)      # findings silenced by an allow comment
    instances: dict = field(default_factory=dict)       # kernel -> labels of the instantiations analysed

    @property
    def errors(self) -> list:
        return [d for d in self.diagnostics if d.severity == "error"]

    @property
    def ok(self) -> bool:
        return self.failure is None and not self.errors


class CheckInternalError(AscgenError):
    """The checker itself failed on a file: a bug in ascgen check, reported as "not analysed" (exit 2)."""


def check_file(path, *, product=None, include_dirs=(), defines=(), every_instance=False) -> CheckResult:
    """Check one source. Raises AscgenError when it cannot be analysed (missing file, no kernel entry),
    CheckInternalError (an AscgenError) when the checker fails on it: never another exception, so one
    odd file cannot stop a run over many, and a failure is never mistaken for a finding (exit 1).
    `every_instance`: analyse template kernels per instantiation even when the operator has no task-sync
    call (by default only then: the other rules do not follow paths; benchmarks measure the cost)."""
    product = products_mod.get(product) if product is not None else None
    try:
        return _check(path, product, include_dirs, defines, every_instance)
    except AscgenError:
        raise
    except Exception as exc:           # RecursionError included
        if config.debug():
            raise
        frame = traceback.extract_tb(exc.__traceback__)[-1]
        raise CheckInternalError(
            f"{path}: internal error of ascgen check ({type(exc).__name__}: {exc} at "
            f"{Path(frame.filename).name}:{frame.lineno}); the file was not analysed. Please report it with "
            "the source; ASCGEN_DEBUG=1 shows the traceback") from exc


def _check(path, product, include_dirs, defines, every_instance=False) -> CheckResult:
    given = str(path)
    with check_parse.clang_source(given, include_dirs) as (name, include_dirs):
        try:
            result = _check_as(name, given, product, include_dirs, defines, every_instance)
        except RecursionError as exc:
            raise AscgenError(f"{given}: calls or blocks nested too deeply for ascgen check to follow; "
                              "not analysed") from exc
        except AscgenError as exc:
            if name == given:
                raise
            raise AscgenError(str(exc).replace(name, given)) from exc
    if name != given:
        _rename(result, name, given)
    return result


def _check_as(path, given, product, include_dirs, defines, every_instance=False) -> CheckResult:
    """Check the source `given`, handed to libclang as `path` (check_parse.clang_source)."""
    budget.check_file_size(path, given)
    texts = check_parse.user_texts(path, include_dirs)
    budget.check_sources(texts, given, os.path.realpath(path))
    deadline = budget.Deadline(given)
    ctx = sk_rules.Context(opfolder.find(path), tuple(str(d) for d in defines))
    extra = []
    if product is not None:
        # The macros the CANN toolchain defines per product, unless the user defines them.
        for name, value in (("__NPU_ARCH__", product.npu_arch), ("__CCE_AICORE__", product.cce_aicore)):
            if value is not None and not any(str(d).split("=")[0] == name for d in defines):
                extra.append(f"{name}={value}")
    arch, sides = _core_sides(product, texts)
    if sides:
        # A MIX kernel is compiled once per core side with that side's macros: analyse each side as
        # its own binary, with the code its `#if defined(__DAV_C220_CUBE__)` blocks select.
        if product is None and not any(str(d).split("=")[0] == "__NPU_ARCH__" for d in defines):
            extra.append(f"__NPU_ARCH__={arch}")      # the side macros exist only in that arch's builds
        result, per_build = CheckResult(given), []
        for side, macros in sides:
            parsed = _parse(path, given, include_dirs, defines, (*extra, *macros))
            index = _index_with_entries(parsed, given)
            result.skipped += parsed.skipped
            per_build.append((f"{side.upper()} build ({macros[0]})",
                              _analyse(parsed, index, product, side, result, deadline, every_instance, ctx)))
        diagnostics = _name_builds(per_build)
    else:
        parsed = _parse(path, given, include_dirs, defines, tuple(extra))
        index = _index_with_entries(parsed, given)
        result = CheckResult(given, skipped=list(parsed.skipped))
        diagnostics = _analyse(parsed, index, product, None, result, deadline, every_instance, ctx)
    result.diagnostics, result.suppressed = _suppress(_dedupe(diagnostics))
    result.skipped = list(dict.fromkeys(result.skipped))
    return result


def _parse(path, given, include_dirs, defines, extra):
    """Parse, refusing a source clang gave up on: after a fatal error (bracket nesting or template
    recursion over its limits) clang drops the rest of the construct and stops instantiating templates,
    so the AST misses code and a verdict could be wrong."""
    parsed = check_parse.parse(path, include_dirs, defines, extra)
    if parsed.fatal is not None:
        file, line, message = parsed.fatal
        raise AscgenError(f"{given if file == path else file}:{line}: clang gave up here ({message}); what it "
                          "builds after a fatal error is incomplete, so the file was not analysed (a verdict "
                          "could be wrong)")
    return parsed


def _rename(result: CheckResult, name: str, given: str) -> None:
    """Report the file by the name the user gave, not the name libclang was handed."""
    for d in (*result.diagnostics, *result.suppressed):
        for item in (d, *d.notes):
            if item.file == name:
                item.file = given
    result.skipped = [dataclasses.replace(s, file=given) if s.file == name else s for s in result.skipped]


def _index_with_entries(parsed, path):
    index = check_index.build(parsed)
    if not index.entries:
        raise AscgenError(f"{path}: no kernel entry found (a function defined with `__global__`); "
                          "nothing to check")
    return index


def _core_sides(product, texts: dict) -> tuple:
    """(arch, [(core side, its macros), ...]) when each core side is its own binary and the user's code
    tests a side macro: always on a separated product; without --product, for the arch whose side
    macros the code tests (they exist only there). (None, []) otherwise: one analysis covers both."""
    if product is not None:
        if not product.separated or product.npu_arch not in api.CORE_SIDE_MACROS:
            return None, []
        candidates = [product.npu_arch]
    else:
        candidates = list(api.CORE_SIDE_MACROS)
    for arch in candidates:
        sides = api.CORE_SIDE_MACROS[arch]
        # The arch-specific names decide the arch; the generic __DAV_CUBE__ / __DAV_VEC__ only with a product.
        names = {m for _, macros in sides for m in (macros if product is not None else macros[:1])}
        if any(name in text for text in texts.values() for name in names):
            return arch, list(sides)
    return None, []


def _name_builds(per_build: list) -> list:
    """Each finding of a per-side analysis says which build it is in: `[AIC build (__DAV_C220_CUBE__)]`,
    or both builds when each reports it."""
    found: dict = {}
    for build, diagnostics in per_build:
        for d in diagnostics:
            key = (d.file, d.line, d.column, d.rule, d.message)
            found.setdefault(key, (d, []))[1].append(build)
    out = []
    for d, builds in found.values():
        builds = list(dict.fromkeys(builds))
        d.message += f" [{' and '.join(builds)}]" if len(builds) < len(per_build) else " [both core-side builds]"
        out.append(d)
    return out


def _analyse(parsed, index, product, side, result: CheckResult, deadline=None, every_instance=False,
             ctx=None) -> list:
    diagnostics: list[Diagnostic] = []
    visited: dict = {}
    for entry in index.entries:
        # A kernel of an operator that uses task sync is analysed once per instantiation its tiling-key
        # template selects (check_instances); the others once (their rules do not follow paths).
        variants = check_instances.for_kernel(index, entry, result.skipped) \
            if every_instance or index.op_wide_sync() else None
        if variants:
            result.instances[entry.name] = [v.label for v in variants]
        traces = []
        runs: list = variants or [None]
        for instance in runs:
            trace = check_paths.Interpreter(index, entry, result.skipped, product, side, deadline, instance).run()
            if trace is not None:       # None: the kernel (instantiation) does not run on this core side
                traces.append((instance, trace))
                visited.update((id(fn), fn) for fn in trace.visited)
        if not traces:
            continue
        if entry.name not in result.kernels:
            result.kernels.append(entry.name)
        if variants is None:
            diagnostics += check_rules.run_all(traces[0][1], index, product, result.skipped)
            diagnostics += sk_rules.run_all(traces[0][1], index, product, ctx)
        else:
            diagnostics += _per_instance(traces, len(variants), index, product, result.skipped, ctx)
    result.skipped += _unparsed_kernel_code(parsed, visited.values())
    return diagnostics


def _per_instance(traces: list, total: int, index, product, skipped: list, ctx=None) -> list:
    """The rules on each instantiation's trace, the variant rule across them, and each finding once,
    naming the instantiations it holds for: `[UPDATE_SLOTS=1, KERNEL_TYPE=MIX_AIC_1_1]`."""
    labelled = [(instance.label, trace) for instance, trace in traces]
    variant = check_rules.every_variant(labelled)
    found: dict = {}
    for i, (label, trace) in enumerate(labelled):
        owed = {kind for j, kind, _ in variant if j == i}
        diagnostics = check_rules.run_all(trace, index, product, skipped, reported=owed)
        diagnostics += sk_rules.run_all(trace, index, product, ctx)
        diagnostics += [d for j, _, d in variant if j == i]
        for d in diagnostics:
            key = (d.file, d.line, d.column, d.rule, d.message)
            found.setdefault(key, (d, []))[1].append(label)
    out = []
    for d, labels in found.values():
        shown = "; ".join(labels[:4]) + (f"; and {len(labels) - 4} more" if len(labels) > 4 else "")
        every = len(labels) == total and total > 1
        d.message += f" [{'every instantiation: ' if every else ''}{shown}]"
        out.append(d)
    return out


def _unparsed_kernel_code(parsed, functions) -> list:
    """One skipped entry per file for clang errors inside the kernel code analysed (errors elsewhere,
    in host code for instance, do not affect the verdict)."""
    per_file: dict = {}
    spans = []
    for fn in functions:
        ext = fn.cursor.extent
        if ext.start.file is not None:
            spans.append((ext.start.file.name, ext.start.offset, ext.end.offset, fn.name))
    for file, offset, line, message in parsed.errors:
        for name, start, end, fn_name in spans:
            if name == file and start <= offset < end:
                per_file.setdefault(file, []).append((line, message, fn_name))
                break
    out = []
    for file, errors in per_file.items():
        line, message, fn = errors[0]
        out.append(check_parse.Skipped(
            file, line, f"{len(errors)} unparsed construct(s) in kernel code",
            f"clang: {message} (in {fn}; declarations from missing headers are unknown, statements clang "
            "could not parse are read as straight-line calls)"))
    return out


_ALLOW = re.compile(r"ascgen-check:\s*allow\(([\w\s,-]+)\)")


def _allowed_rules(file: str, line: int, cache: dict) -> set:
    """Rules allowed by an `// ascgen-check: allow(rule, ...)` comment on the line or the line above."""
    if file not in cache:
        try:
            cache[file] = Path(file).read_text(errors="replace").splitlines()
        except OSError:
            cache[file] = []
    rules = set()
    for text in cache[file][max(line - 2, 0):line]:
        for m in _ALLOW.finditer(text):
            rules |= {r.strip() for r in m.group(1).split(",")}
    return rules


def _suppress(diagnostics: list[Diagnostic]) -> tuple[list, list]:
    """Split off findings the author allowed at the finding or at a place its notes point to (so one
    comment at an intentionally early SetNextTaskStart covers the accesses after it)."""
    cache: dict = {}
    kept: list[Diagnostic] = []
    dropped: list[Diagnostic] = []
    for d in diagnostics:
        places = [(d.file, d.line)] + [(n.file, n.line) for n in d.notes]
        if any(d.rule in _allowed_rules(f, line, cache) for f, line in places):
            dropped.append(d)
        else:
            kept.append(d)
    return kept, dropped


def _dedupe(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """A helper shared by two kernels is reported once."""
    seen, out = set(), []
    for d in diagnostics:
        key = (d.file, d.line, d.column, d.rule, d.message)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return sorted(out, key=lambda d: (d.file, d.line, d.column, d.rule))
