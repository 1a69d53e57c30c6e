"""The modeled timeline of a SuperKernel run: a summary (time with early start vs without) and a Chrome
trace (JSON trace events, open it in https://ui.perfetto.dev or chrome://tracing).

Both times come from one run (design note, see docs/timeline.md): the run records, per core and task,
when the task began and ended and how long the core sat in boundary waits. A core's *busy* time in a task
is its span minus those waits. Without early start every boundary is a full barrier, so the modeled
time is the sum over tasks of the slowest core's busy time plus one flag round per boundary; with early
start it is what the run itself modeled (the last core's end). Separate launches (no SuperKernel) pay a
task launch per boundary instead of a flag round. Modeling from one run keeps the comparison exact
(same work, same cost model) and costs nothing extra; its limit: a kernel whose work depends on the
interleaving would need two runs.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ascgen.errors import AscgenError

KINDS = ("task_begin", "task_end", "set", "wait_begin", "wait_end", "barrier")
CYCLES_PER_US = 1000.0   # the trace shows 1 modeled cycle as 1 ns (a 1 GHz clock)
DEFAULT_FLAG_ROUND = 400.0
DEFAULT_TASK_LAUNCH = 1000.0


@dataclass(frozen=True)
class Event:
    core: int
    core_label: str
    task: int
    kind: str          # one of KINDS
    t: float           # modeled cycles
    file: str
    line: int


def event_from_record(record) -> Event:
    get = (record.get if isinstance(record, dict) else lambda k, d=None: getattr(record, k, d))
    kind = get("kind")
    if kind is not None and not isinstance(kind, str) and hasattr(kind, "__index__"):   # an int or a cffi enum
        kind = KINDS[kind.__index__()]
    core = int(get("core") or 0)
    return Event(core=core, core_label=str(get("core_label") or f"core{core}"), task=int(get("task", -1)),
                 kind=str(kind), t=float(get("t", 0.0)), file=str(get("file") or ""), line=int(get("line") or 0))


@dataclass(frozen=True)
class Summary:
    tasks: int
    with_early_start: float       # modeled cycles of this run (its own options)
    without_early_start: float    # every boundary a full barrier
    separate_launches: float      # every task its own launch
    early_start: int              # the option the run used
    mixed: bool = False           # AIC and AIV cores took part: the two estimates above are lower bounds

    @property
    def gain(self) -> float:
        """Speed-up of early start over full barriers (1.0 = none)."""
        return self.without_early_start / self.with_early_start if self.with_early_start else 1.0

    @property
    def saved(self) -> float:
        return self.without_early_start - self.with_early_start

    def __str__(self) -> str:
        label = {0: "this run (early start off)", 2: "this run (calls compiled out)"}.get(self.early_start,
                                                                                          "with early start")
        return (f"modeled time ({self.tasks} tasks, cycles are model parameters, see docs/timeline.md):\n"
                f"  {label:<28} {self.with_early_start:>12,.0f} cycles\n"
                f"  {'without early start':<28} {self.without_early_start:>12,.0f} cycles\n"
                f"  {'as separate launches':<28} {self.separate_launches:>12,.0f} cycles\n"
                f"  gain of early start: {self.gain:.2f}x ({self.saved:,.0f} cycles saved)"
                + ("\n  (AIC and AIV cores: the estimates count one flag round per boundary and this run's busy "
                   "times; a full barrier of a mixed SuperKernel is the MIX SyncAll handshake (three rounds to the "
                   "AIV cores) and shifts the MIX tasks' inner waits, so run it with early-start=0 for the barrier "
                   "time)" if self.mixed else ""))


def busy_times(events: list[Event]) -> dict[tuple[int, int], float]:
    """(core, task) -> modeled cycles the core worked in the task (its span minus boundary waits). Only the
    part of a wait inside the span counts: the SuperKernel's implicit wait is recorded before task_begin."""
    begin: dict[tuple[int, int], float] = {}
    end: dict[tuple[int, int], float] = {}
    waits: dict[tuple[int, int], list[tuple[float, float]]] = {}
    wait_start: dict[tuple[int, int], float] = {}
    for e in sorted(events, key=lambda e: e.t):
        key = (e.core, e.task)
        if e.kind == "task_begin":
            begin.setdefault(key, e.t)
        elif e.kind == "task_end":
            end[key] = e.t
        elif e.kind == "wait_begin":
            wait_start[key] = e.t
        elif e.kind == "wait_end" and key in wait_start:
            waits.setdefault(key, []).append((wait_start.pop(key), e.t))
    out = {}
    for key, t0 in begin.items():
        if key in end:
            waited = sum(max(0.0, min(b, end[key]) - max(a, t0)) for a, b in waits.get(key, ()))
            out[key] = max(0.0, end[key] - t0 - waited)
    return out


def summarize(report) -> Summary:
    events = [e if isinstance(e, Event) else event_from_record(e) for e in report.events]
    params = report.timeline_params or {}
    flag_round = float(params.get("flag_round_cycles", DEFAULT_FLAG_ROUND))
    launch = float(params.get("task_launch_cycles", DEFAULT_TASK_LAUNCH))
    busy = busy_times(events)
    ntasks = len(report.tasks)
    slowest = [max((b for (c, t), b in busy.items() if t == k), default=0.0) for k in range(ntasks)]
    boundaries = max(0, ntasks - 1)
    makespan = max((e.t for e in events), default=0.0)
    return Summary(tasks=ntasks, with_early_start=makespan,
                   without_early_start=sum(slowest) + boundaries * flag_round,
                   separate_launches=sum(slowest) + boundaries * launch, early_start=report.early_start,
                   mixed={"AIC", "AIV"} <= {e.core_label[:3] for e in events})


def chrome_trace(report) -> dict:
    """The trace as a dict: one lane (thread) per core, task spans, prologue/tail windows, waits, sets."""
    events = sorted((e if isinstance(e, Event) else event_from_record(e) for e in report.events),
                    key=lambda e: (e.core, e.t))
    us = lambda cycles: cycles / CYCLES_PER_US  # noqa: E731 - tiny unit conversion
    name = lambda task: f'task {task} "{report.tasks[task]}"' if 0 <= task < len(report.tasks) else f"task {task}"  # noqa: E731
    out = [{"ph": "M", "pid": 1, "name": "process_name", "args": {"name": f"SuperKernel on {report.product}"}}]
    lanes: dict[int, str] = {}
    for e in events:
        lanes.setdefault(e.core, e.core_label)
    for core, label in sorted(lanes.items()):
        out.append({"ph": "M", "pid": 1, "tid": core, "name": "thread_name", "args": {"name": label}})
        out.append({"ph": "M", "pid": 1, "tid": core, "name": "thread_sort_index", "args": {"sort_index": core}})

    open_task: dict[int, Event] = {}
    open_wait: dict[int, Event] = {}
    last_set: dict[tuple[int, int], Event] = {}
    for e in events:
        where = {"source": f"{Path(e.file).name}:{e.line}"} if e.file else {}
        if e.kind == "task_begin":
            open_task[e.core] = e
        elif e.kind == "task_end" and e.core in open_task:
            b = open_task.pop(e.core)
            out.append({"ph": "X", "pid": 1, "tid": e.core, "name": name(e.task), "cat": "task",
                        "ts": us(b.t), "dur": us(max(0.0, e.t - b.t)), "args": {"task": e.task}})
            s = last_set.get((e.core, e.task))
            if s is not None and e.t > s.t and e.task + 1 < len(report.tasks):
                out.append({"ph": "X", "pid": 1, "tid": e.core, "name": f"tail (may overlap task {e.task + 1})",
                            "cat": "window", "ts": us(s.t), "dur": us(e.t - s.t), "args": {"task": e.task}})
        elif e.kind == "wait_begin":
            open_wait[e.core] = e
            begun = open_task.get(e.core)
            if begun is not None and begun.task == e.task and e.t > begun.t and e.task > 0:
                out.append({"ph": "X", "pid": 1, "tid": e.core, "name": f"prologue (may overlap task {e.task - 1})",
                            "cat": "window", "ts": us(begun.t), "dur": us(e.t - begun.t), "args": {"task": e.task}})
        elif e.kind == "wait_end" and e.core in open_wait:
            b = open_wait.pop(e.core)
            out.append({"ph": "X", "pid": 1, "tid": e.core, "name": "WaitPreTaskEnd", "cat": "sync",
                        "ts": us(b.t), "dur": us(max(0.0, e.t - b.t)), "args": {"task": e.task, **where}})
        elif e.kind == "set":
            last_set[(e.core, e.task)] = e
            out.append({"ph": "i", "s": "t", "pid": 1, "tid": e.core, "name": "SetNextTaskStart", "cat": "sync",
                        "ts": us(e.t), "args": {"task": e.task, **where}})
        elif e.kind == "barrier":
            out.append({"ph": "i", "s": "t", "pid": 1, "tid": e.core, "name": "barrier", "cat": "sync",
                        "ts": us(e.t), "args": {"task": e.task}})
    out += _round_flows(events)
    summary = summarize(report)
    return {"traceEvents": out, "displayTimeUnit": "ns",
            "otherData": {"product": report.product, "options": report.options,
                          "note": "modeled times: per-pipe cost model with documented default parameters "
                                  "(docs/timeline.md), not measured hardware latencies; 1 ns = 1 cycle",
                          "parameters": report.timeline_params,
                          "modeled_cycles_with_early_start": summary.with_early_start,
                          "modeled_cycles_without_early_start": summary.without_early_start,
                          "gain": summary.gain}}


def _round_flows(events: list[Event]) -> list[dict]:
    """Arrows from the set that completed a boundary's round (the latest set of task k) to every wait of
    task k+1 it released: the critical path of each boundary."""
    flows = []
    last_set: dict[int, Event] = {}
    for e in events:
        if e.kind == "set" and (e.task not in last_set or e.t >= last_set[e.task].t):
            last_set[e.task] = e
    for i, e in enumerate(x for x in events if x.kind == "wait_end"):
        s = last_set.get(e.task - 1)
        if s is None or s.t > e.t:
            continue
        flow = {"cat": "boundary", "name": f"round task {s.task} -> {e.task}", "id": i + 1, "pid": 1}
        flows.append({**flow, "ph": "s", "tid": s.core, "ts": s.t / CYCLES_PER_US})
        flows.append({**flow, "ph": "f", "bp": "e", "tid": e.core, "ts": e.t / CYCLES_PER_US})
    return flows


def write_chrome_trace(report, path) -> Path:
    path = Path(path)
    if not report.events:
        raise AscgenError("this run kept no timeline: create the SuperKernel with timeline=True")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(chrome_trace(report), indent=1))
    return path
