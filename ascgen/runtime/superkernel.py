"""SuperKernel runs on the emulator: several kernels, from any loaded modules, executed as one launch
with task sync between them, as the SK compiler would fuse them on the device.

    sk = ascgen.runtime.SuperKernel("ascend910_93", options="early-start=1")
    sk.add(mod, "scale", 8, x, y, n).add(mod, "shift", 4, y, z, n)
    report = sk.run()                 # raises HangError / SyncCountError; races are in report.races
    report.raise_on_race()
    report.to_chrome_trace("sk.json")

An object outside the runtime becomes a task through one method, `superkernel_task(product, *args, **kwargs)`
returning a TaskSpec: `sk.add(op, *inputs, outputs=[...], **attrs)` with an ascgen.ops.Op (docs/ops.md,
"Operators in a SuperKernel"); the runtime never imports the package that defines it.

The SK geometry, the boundaries, the complement logic and the option semantics are the core's
(tasksync-semantics.md section 3); this module binds tasks, names the GM buffers for reports, and turns the
core's records into a Report.
"""
from __future__ import annotations

import warnings
from dataclasses import KW_ONLY, dataclass, field, replace
from typing import Callable

from ascgen import products
from ascgen.errors import SpecError
from ascgen.runtime import binding, gm_guard
from ascgen.runtime.report import Report, lints_from_records, races_from_records


def _core():
    from ascgen.runtime import core            # imported late: the core library is built on first use
    return core


@dataclass(frozen=True)
class TaskSpec:
    """What `superkernel_task()` hands SuperKernel.add: a kernel of a Module with its arguments, the tiling key
    its TILING_KEY_IS branches compare with, and what to check once the SuperKernel ran (called with the
    stack level of the user's run() call, for warnings)."""
    module: object
    name: str
    block_dim: int
    args: tuple
    tiling_key: int | None = None
    after_run: Callable[[int], None] | None = None


@dataclass
class _Added:
    module: object
    name: str
    block_dim: int
    bound: object                 # module.BoundTask (keeps the argument memory alive)
    tiling_key: int | None = None
    after_run: Callable[[int], None] | None = None


@dataclass(repr=False)
class SuperKernel:
    """One SuperKernel: tasks in order, run as one launch.

    options: the SK option string of TorchAir's `super_kernel(scope, options)` ("early-start=1",
      "early-start=0:debug-sync-all=1", ...); checked when the SK is created.
    detect_races: cross-task race detection by happens-before (verdicts independent of timing).
    schedule_seed: perturb thread interleavings (verdicts must not change with it).
    strict: run() raises RaceError when a race is found (default: races are only reported).
    treat_as_effective: ascend910b is documented compile-only but runs the same library code as A3;
      True makes the calls take effect there, as the library code does.
    timeline: keep the modeled timeline (Report.timeline(), Report.to_chrome_trace()).
    """
    product: products.Product           # a product id is accepted too: __post_init__ looks it up
    options: str = "early-start=1"
    _: KW_ONLY
    detect_races: bool = True
    schedule_seed: int | None = None
    strict: bool = False
    treat_as_effective: bool = False
    timeline: bool = True
    time_limit_s: float = 60.0
    _tasks: list = field(default_factory=list, init=False, repr=False)
    _names: dict = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self):
        self.product = products.get(self.product)
        if not isinstance(self.options, str):
            raise SpecError(f"SuperKernel options must be a string like 'early-start=1'; got {self.options!r}")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            self._options = _core().SkOptions.parse(self.options, self.product,
                                                    treat_as_effective=self.treat_as_effective)
        for w in caught:        # re-issued so the warning points at the caller's line, not at this module
            warnings.warn(w.message, w.category, stacklevel=3)

    def add(self, module, *args, kernel_type: str | None = None, **kwargs) -> "SuperKernel":
        """Append a task; returns the SK.

        `add(module, name, block_dim, *args)`: kernel `name` of a Module from load(), its arguments bound like
        Module.launch (arrays bind to GM pointers, written in place).
        `add(op, *inputs, outputs=[...], **attrs)`: an object with `superkernel_task` (an ascgen.ops.Op): its
        task for these inputs, outputs and attributes (TaskSpec)."""
        if hasattr(module, "superkernel_task"):
            spec = module.superkernel_task(self.product, *args, **kwargs)
            return self._add(spec.module, spec.name, spec.block_dim, spec.args, kernel_type, spec.tiling_key,
                             spec.after_run)
        if getattr(module, "product", None) is None or not hasattr(module, "task"):
            raise SpecError(f"SuperKernel.add() takes a Module from ascgen.runtime.load() or an operator from "
                            f"ascgen.ops.load(); got {module!r}")
        if kwargs or len(args) < 2:
            raise SpecError(f"SuperKernel.add(module, name, block_dim, *args): give the kernel's name and block dim"
                            f"{'; keyword arguments ' + ', '.join(kwargs) + ' are for operators' if kwargs else ''}")
        return self._add(module, args[0], args[1], args[2:], kernel_type, None, None)

    def _add(self, module, name: str, block_dim: int, args, kernel_type, tiling_key, after_run) -> "SuperKernel":
        if module.product.id != self.product.id:
            raise SpecError(f'task {len(self._tasks)} "{name}": its module was built for {module.product.id}, '
                            f"this SuperKernel runs on {self.product.id}. Hint: load() the source with "
                            f"product={self.product.id!r}.")
        # The key is one variable per module (Module.set_tiling_key): two tasks of one module with different
        # keys would both run the last one's branches.
        for t in self._tasks:
            if t.module is module and None not in (t.tiling_key, tiling_key) and t.tiling_key != tiling_key:
                raise SpecError(f'task {len(self._tasks)} "{name}" needs tiling key {tiling_key}, and task '
                                f'{self._tasks.index(t)} "{t.name}" of the same module runs with key '
                                f"{t.tiling_key}: a module has one tiling key per launch. Hint: run them in "
                                "two SuperKernels")
        bound = module.task(name, block_dim, *args, kernel_type=kernel_type, tiling_key=tiling_key)
        self._tasks.append(_Added(module, name, block_dim, bound, tiling_key, after_run))
        return self

    def name_buffer(self, array, name: str) -> "SuperKernel":
        """Name `array` in reports (default: the parameter name of the first task that takes it)."""
        import numpy as np
        if not isinstance(array, np.ndarray):
            raise SpecError(f"name_buffer() takes the numpy array passed to add(); got {type(array).__name__}")
        self._names[(array.ctypes.data, array.nbytes)] = str(name)
        return self

    @property
    def tasks(self) -> list[str]:
        return [t.name for t in self._tasks]

    def __repr__(self) -> str:
        tasks = ", ".join(f"{t.name}[{t.block_dim}]" for t in self._tasks) or "no task"
        return f"<SuperKernel on {self.product.id} ({self.options}): {tasks}>"

    def run(self) -> Report:
        """Run every task as one launch. Hang and count faults raise; races and lints land in the Report."""
        if not self._tasks:
            raise SpecError("SuperKernel.run(): no task added. Hint: sk.add(module, name, block_dim, *args).")
        core = _core()
        for t in self._tasks:           # again: a launch of the same module since add() may have changed it
            if t.tiling_key is not None:
                t.module.set_tiling_key(t.tiling_key)
        with gm_guard.guarded([t.bound for t in self._tasks]) as guard:
            request = core.RunRequest(product=self.product, tasks=tuple(t.bound.task for t in self._tasks),
                                      buffers=guard.buffers(_buffers(self._tasks, self._names)),
                                      sk_options=self._options, detect_races=self.detect_races,
                                      schedule_seed=self.schedule_seed, time_limit_s=self.time_limit_s,
                                      timeline=self.timeline, treat_as_effective=self.treat_as_effective)
            result = core.run(request)
            guard.finish("SuperKernel " + ", ".join(t.name for t in self._tasks))
        for t in self._tasks:
            binding.check_untouched(t.name, t.bound.readonly)
            if t.after_run is not None:
                t.after_run(2)          # warnings point at the caller of run()
        report = self._report(result)
        if self.strict:
            report.raise_on_race()
        return report

    def _report(self, result) -> Report:
        names = self.tasks
        opts = self._options
        return Report(product=self.product.id, options=self.options, tasks=names,
                      races=races_from_records(getattr(result, "races", ()) or (), names),
                      lints=lints_from_records(getattr(result, "lints", ()) or ()),
                      output=getattr(result, "output", "") or "",
                      events=list(getattr(result, "events", ()) or ()),
                      geometry=dict(getattr(result, "geometry", {}) or {}),
                      timeline_params=dict(getattr(result, "timeline_params", {}) or {}),
                      early_start=int(getattr(opts, "effective_early_start", getattr(opts, "early_start", 1))),
                      effective=bool(getattr(opts, "effective", True)))


def _buffers(tasks, names: dict) -> tuple:
    """GM buffers of every task, one per address: a buffer passed to several tasks keeps its first name
    (the producer's parameter name) unless name_buffer() gave it one."""
    seen: dict[tuple[int, int], object] = {}
    for t in tasks:
        for b in t.bound.buffers:
            key = (b.address, b.nbytes)
            if key not in seen:
                seen[key] = replace(b, name=names[key]) if key in names else b
    return tuple(seen.values())
