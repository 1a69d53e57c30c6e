"""The result of a SuperKernel run: races, placement lints, printf output and the modeled timeline.

Races are printed after ThreadSanitizer's reports: the more recent access (the later task's) first with
its source line, the previous access, what the misplaced call did, one hint, and one grep-able SUMMARY
line. Records from the core arrive one per (earlier line, later line, contiguous byte range); here they
are grouped once more per GM buffer, so one bug is one report whatever the number of cores involved.
"""
from __future__ import annotations

import linecache
from dataclasses import dataclass, field, replace
from pathlib import Path

from ascgen.errors import Diagnostic, RaceError

RULE = "=================="
WINDOW_NAMES = {2: "producer tail", 1: "consumer prologue", 0: "boundary"}


@dataclass(frozen=True)
class Access:
    """One side of a race: a GM access by one core in one task (a coalesced run of accesses)."""
    task: int
    kernel: str
    core: str            # "AIV3"
    file: str
    line: int
    write: bool
    window: int          # 0 ordered part, 1 prologue before the wait, 2 tail after the set
    buffer: str          # GM buffer name ("" when the address is in no named buffer)
    offset: int          # byte offset in the buffer
    nbytes: int
    dtype: str           # numpy dtype name of the buffer ("" when unknown)

    @property
    def verb(self) -> str:
        return "write" if self.write else "read"

    def where(self) -> str:
        return f"{Path(self.file).name}:{self.line}"

    def range_text(self) -> str:
        """`y[4096:4608]` in elements of the buffer's dtype, or a byte range when the dtype is unknown."""
        name = self.buffer or "GM"
        size = _itemsize(self.dtype)
        if size and self.offset % size == 0 and self.nbytes % size == 0:
            return f"{name}[{self.offset // size}:{(self.offset + self.nbytes) // size}]"
        return f"{name}[byte {self.offset}:{self.offset + self.nbytes}]"


@dataclass(frozen=True)
class Race:
    earlier: Access
    later: Access
    call_file: str | None     # the misplaced SetNextTaskStart (producer tail) or WaitPreTaskEnd (consumer prologue)
    call_line: int | None
    fix_line: int | None = None   # the line the call must move after (tail) or before (prologue)
    core_pairs: int = 1           # how many core pairs (and ranges) showed this race
    span: tuple[int, int] | None = None   # byte hull [lo, hi) in the buffer over all those pairs

    @property
    def kind(self) -> str:
        if self.earlier.write and self.later.write:
            return "WAW"
        return "RAW" if self.earlier.write else "WAR"

    @property
    def window(self) -> str:
        if self.earlier.window == 2:
            return WINDOW_NAMES[2]
        if self.later.window == 1:
            return WINDOW_NAMES[1]
        return WINDOW_NAMES[0]

    def summary(self) -> str:
        buffer = self.later.buffer or "GM"
        return (f"SUMMARY: ascgen: {self.kind} race {buffer} {self.earlier.where()} -> {self.later.where()} "
                f"({self.window})")

    def fix(self) -> str:
        call = f" ({Path(self.call_file).name}:{self.call_line})" if self.call_file else ""
        if self.window == "producer tail":
            target = f"line {self.fix_line}" if self.fix_line else f"the last access to {self.earlier.buffer}"
            return (f"move SetNextTaskStart{call} after {target}, the last GM access of task "
                    f"{self.earlier.task} to {self.earlier.buffer or 'this buffer'} (outside any loop or branch).")
        if self.window == "consumer prologue":
            target = f"line {self.fix_line}" if self.fix_line else f"the first access to {self.later.buffer}"
            return (f"move WaitPreTaskEnd{call} before {target}, the first GM access of task "
                    f"{self.later.task} to {self.later.buffer or 'this buffer'}.")
        return ("the boundary released early: SetNextTaskStart and WaitPreTaskEnd must each run exactly once "
                "per core and task (an extra call completes a flag round too soon).")

    def format(self, context: str = "") -> str:
        later, earlier = self.later, self.earlier
        lines = [RULE, f"WARNING: ascgen: data race between tasks{f' ({context})' if context else ''}"]
        lines.append(f"  {later.verb.capitalize()} of {later.nbytes} B {later.range_text()} "
                     f"({later.dtype or 'bytes'}, GM) by task {later.task} \"{later.kernel}\" on {later.core}:")
        lines.append(_frame(later))
        lines.append(f"  Previous {earlier.verb} of {earlier.nbytes} B {earlier.range_text()} "
                     f"by task {earlier.task} \"{earlier.kernel}\" on {earlier.core}:")
        lines.append(_frame(earlier))
        lines.append("  " + self._explain())
        if self.core_pairs > 1 and self.span:
            hull = replace(later, offset=self.span[0], nbytes=self.span[1] - self.span[0])
            lines.append(f"  ({self.core_pairs} core pairs race within {hull.range_text()}; the first is shown.)")
        lines.append(f"  Hint: {self.fix()}")
        lines.append(self.summary())
        lines.append(RULE)
        return "\n".join(lines)

    def _explain(self) -> str:
        call = f" ({Path(self.call_file).name}:{self.call_line})" if self.call_file else ""
        if self.window == "producer tail":
            return (f"The {self.earlier.verb} comes after SetNextTaskStart{call} on {self.earlier.core}, "
                    f"so it may overlap task {self.later.task}.")
        if self.window == "consumer prologue":
            return (f"The {self.later.verb} comes before WaitPreTaskEnd{call} on {self.later.core}, "
                    f"so it may overlap task {self.earlier.task}.")
        return "Neither access is in a tail or prologue window, yet no flag round orders them."

    def __str__(self) -> str:
        return self.format()


def _frame(access: Access) -> str:
    if access.file:
        linecache.checkcache(access.file)     # a source rewritten since the last report (ascgen demo --bug)
    text = linecache.getline(access.file, access.line).strip() if access.file else ""
    return f"    #0 {text}   {access.where()}" if text else f"    #0 {access.where()}"


def _itemsize(dtype: str) -> int:
    if not dtype:
        return 0
    try:
        import numpy as np
        return np.dtype(dtype).itemsize
    except TypeError:
        return {"bfloat16": 2}.get(dtype, 0)


def _field(record, name, default=None):
    if isinstance(record, dict):
        return record.get(name, default)
    return getattr(record, name, default)


def access_from_record(record, task_names) -> Access:
    """Build an Access from a core record (a dict or an object with the ascgen_access fields)."""
    task = int(_field(record, "task", -1))
    kernel = _field(record, "kernel") or (task_names[task] if 0 <= task < len(task_names) else "?")
    core = _field(record, "core_label") or _field(record, "core")
    return Access(task=task, kernel=str(kernel), core=str(core), file=str(_field(record, "file", "") or ""),
                  line=int(_field(record, "line", 0) or 0), write=bool(_field(record, "write", False)),
                  window=int(_field(record, "window", 0) or 0), buffer=str(_field(record, "buffer", "") or ""),
                  offset=int(_field(record, "offset", 0) or 0), nbytes=int(_field(record, "bytes", 0) or 0),
                  dtype=str(_field(record, "dtype", "") or ""))


def races_from_records(records, task_names) -> list[Race]:
    """Group the core's race records per (tasks, lines, kinds, buffer); compute where each call must move."""
    groups: dict[tuple, list[Race]] = {}
    for r in records:
        race = Race(access_from_record(_field(r, "earlier"), task_names),
                    access_from_record(_field(r, "later"), task_names),
                    _field(r, "call_file") or None, _field(r, "call_line") or None)
        e, l = race.earlier, race.later
        key = (e.task, l.task, e.file, e.line, e.write, l.file, l.line, l.write, l.buffer)
        groups.setdefault(key, []).append(race)
    merged = [_merge(group) for group in groups.values()]
    return _with_fix_lines(sorted(merged, key=lambda r: (r.earlier.task, r.later.task, r.later.buffer,
                                                         r.later.offset, r.earlier.line, r.later.line)))


def _merge(group: list[Race]) -> Race:
    first = min(group, key=lambda r: (r.later.offset, r.later.core, r.earlier.core))
    lo = min(r.later.offset for r in group)
    hi = max(r.later.offset + r.later.nbytes for r in group)
    return replace(first, core_pairs=len(group), span=(lo, hi))


def _with_fix_lines(races: list[Race]) -> list[Race]:
    """The set must follow the *last* racing access of its task; the wait precede the *first* one."""
    last_after_set: dict[tuple, int] = {}
    first_before_wait: dict[tuple, int] = {}
    for r in races:
        if r.window == "producer tail":
            key = (r.earlier.task, r.call_file, r.call_line, r.earlier.file)
            last_after_set[key] = max(last_after_set.get(key, 0), r.earlier.line)
        elif r.window == "consumer prologue":
            key = (r.later.task, r.call_file, r.call_line, r.later.file)
            first_before_wait[key] = min(first_before_wait.get(key, 1 << 30), r.later.line)
    out = []
    for r in races:
        if r.window == "producer tail":
            fix = last_after_set[(r.earlier.task, r.call_file, r.call_line, r.earlier.file)]
        elif r.window == "consumer prologue":
            fix = first_before_wait[(r.later.task, r.call_file, r.call_line, r.later.file)]
        else:
            fix = None
        out.append(replace(r, fix_line=fix))
    return out


def lints_from_records(records) -> list[Diagnostic]:
    out = []
    for r in records:
        if isinstance(r, Diagnostic):
            out.append(r)
            continue
        out.append(Diagnostic(file=str(_field(r, "file", "") or ""), line=int(_field(r, "line", 0) or 0),
                              column=int(_field(r, "column", 1) or 1),
                              severity=str(_field(r, "severity", "warning")), rule=str(_field(r, "rule", "")),
                              message=str(_field(r, "message", ""))))
    return out


@dataclass
class Report:
    """What `SuperKernel.run()` returns."""
    product: str
    options: str
    tasks: list[str]                      # kernel names, in task order
    races: list[Race] = field(default_factory=list)
    lints: list[Diagnostic] = field(default_factory=list)
    output: str = ""                      # AscendC::printf text, prefixed by core
    events: list = field(default_factory=list)   # trace.Event records (modeled timeline), empty if off
    geometry: dict = field(default_factory=dict)
    timeline_params: dict = field(default_factory=dict)
    early_start: int = 1
    effective: bool = True

    @property
    def context(self) -> str:
        mode = {0: "early start off", 1: "early start", 2: "early start, calls compiled out"}.get(self.early_start, "")
        return f"SuperKernel, {mode} on {self.product}"

    @property
    def clean(self) -> bool:
        return not self.races

    def format_races(self) -> str:
        return "\n".join(r.format(self.context) for r in self.races)

    def raise_on_race(self) -> "Report":
        """Raise RaceError listing every race; return self when there is none (for chaining)."""
        if self.races:
            raise RaceError(f"{len(self.races)} data race(s) between tasks\n{self.format_races()}", races=self.races)
        return self

    def to_dict(self) -> dict:
        """Everything as plain data (for tools and JSON): races with both accesses, lints, the summary."""
        from dataclasses import asdict
        summary = self.timeline()
        return {"product": self.product, "options": self.options, "tasks": list(self.tasks),
                "races": [{**asdict(r), "kind": r.kind, "window": r.window, "summary": r.summary(), "fix": r.fix()}
                          for r in self.races],
                "lints": [asdict(d) for d in self.lints], "output": self.output, "geometry": self.geometry,
                "timeline": None if summary is None else {
                    "with_early_start": summary.with_early_start, "without_early_start": summary.without_early_start,
                    "separate_launches": summary.separate_launches, "gain": summary.gain}}

    # Timeline views live in trace.py; these delegate so users only meet the Report.
    def timeline(self):
        """The modeled timeline summary (trace.Summary), or None when the run kept no timeline."""
        from ascgen.runtime.report import trace
        return trace.summarize(self) if self.events else None

    def to_chrome_trace(self, path) -> Path:
        from ascgen.runtime.report import trace
        return trace.write_chrome_trace(self, path)

    def timeline_svg(self) -> str:
        """The timeline as an SVG picture: cores x time, task bodies, set/wait marks, races in red."""
        from ascgen.runtime import timeline_svg
        return timeline_svg.render(self)

    def _repr_svg_(self) -> str:             # notebooks show the picture
        return self.timeline_svg()

    def _repr_html_(self) -> str:
        return f"<pre>{__import__('html').escape(str(self))}</pre>\n{self.timeline_svg()}"

    def __str__(self) -> str:
        parts = [f"SuperKernel on {self.product} ({self.options or 'default options'}): "
                 f"{len(self.tasks)} tasks, {len(self.races)} race(s), {len(self.lints)} lint(s)"]
        parts += [str(d) for d in self.lints]
        if self.races:
            parts.append(self.format_races())
        summary = self.timeline()
        if summary is not None:
            parts.append(str(summary))
        return "\n".join(parts)
