"""Builder-level SuperKernels: compose builder kernels over named GM buffers, and place the task-sync calls
from the data flow, which ascgen sees and a hand-writer has to reason out.

    sk = ascgen.SuperKernel("demo", "ascend910_93", options="early-start=1")
    sk.add(scale)                       # parameters bind to SK buffers of the same name ...
    sk.add(add, x="y")                  # ... or to the buffer named here: add's input x reads buffer y
    files = sk.emit("out/")             # every task's .cpp and superkernel.py (the TorchAir scope)
    outputs, report = sk.run({"x": x, "w": w})

Placement ("dataflow", the default; "default" = every task waits first and sets last):
* prefetch: an input of task k that no earlier task writes (host data, weights) has its first tile
  loaded before WaitPreTaskEnd, so the load overlaps task k-1. Only loads move: a buffer any earlier task
  writes is read after the wait. (Task k's prologue may overlap the tail of task k-2 too, so "no earlier
  task", not just "not the previous one".)
* set: SetNextTaskStart stays after the last GM access to every buffer the next task touches; a builder
  kernel touches its buffers in one tile loop, so that is after the loop, unless the next task touches
  none of this task's buffers: then the set goes right after the wait and the whole task may overlap the
  next one (set_early). Its tail cannot race with task k+2 either: k+2's body waits for k+1's sets,
  which follow this task in every core's program order, and k+2's prologue only reads host data.
The rules are tasksync-semantics.md section 3.1; the runtime's race detector checks them on every run.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from pathlib import Path

import numpy as np

from ascgen import products
from ascgen.errors import SpecError
from ascgen.builder.shapes import extent

if TYPE_CHECKING:
    from ascgen.builder.kernel import Kernel

PLACEMENTS = ("dataflow", "default")


@dataclass(frozen=True)
class SkTask:
    kernel: Kernel
    bind: dict                         # kernel GM parameter name -> SK buffer name
    scalars: dict                      # kernel scalar name -> value
    block_dim: int


@dataclass
class SuperKernel:
    name: str
    product: products.Product
    options: str = "early-start=1"
    placement: str = "dataflow"
    _tasks: list = field(default_factory=list, init=False, repr=False)

    def __post_init__(self):
        self.product = products.get(self.product)
        if self.placement not in PLACEMENTS:
            raise SpecError(f"SuperKernel {self.name!r}: placement must be one of {', '.join(PLACEMENTS)}; "
                            f"got {self.placement!r}")

    # ---- composition ------------------------------------------------------------------------------

    def add(self, kernel, *, block_dim: int | None = None, scalars: dict | None = None, **bind) -> "SuperKernel":
        """Append `kernel` as the next task. `bind` maps its GM parameters to SK buffers (default: same name)."""
        gm = {p.name: p for p in kernel.params if p.kind in ("input", "output")}
        unknown = sorted(set(bind) - set(gm))
        if unknown:
            raise SpecError(f'SuperKernel {self.name!r}: kernel "{kernel.name}" has no GM parameter '
                            f"{unknown[0]!r} (GM parameters: {', '.join(gm)})")
        names = {p: str(bind.get(p, p)) for p in gm}
        self._check_dtypes(kernel, gm, names)
        if any(t.kernel.name == kernel.name for t in self._tasks):
            raise SpecError(f'SuperKernel {self.name!r}: kernel "{kernel.name}" is added twice; tasks are '
                            "separate kernels (build a second Kernel with another name).")
        self._tasks.append(SkTask(kernel, names, dict(scalars or {}), block_dim or kernel.block_dim))
        return self

    def _check_dtypes(self, kernel, gm, names) -> None:
        for pname, buf in names.items():
            known = self.buffer_dtypes().get(buf)
            if known is not None and known != gm[pname].dtype:
                raise SpecError(f'SuperKernel {self.name!r}: buffer {buf!r} is {known} but kernel "{kernel.name}" '
                                f"binds its {pname!r} ({gm[pname].dtype}) to it. Hint: Cast in the kernel.")

    @property
    def tasks(self) -> list[SkTask]:
        return list(self._tasks)

    def buffer_dtypes(self) -> dict[str, np.dtype]:
        out: dict[str, np.dtype] = {}
        for t in self._tasks:
            for p in t.kernel.params:
                if p.kind in ("input", "output"):
                    out.setdefault(t.bind[p.name], p.dtype)
        return out

    def written(self, upto: int) -> set[str]:
        """Buffers some task before `upto` writes."""
        return {t.bind[p.name] for t in self._tasks[:upto] for p in t.kernel.outputs}

    def touched(self, k: int) -> set[str]:
        """Buffers task k reads or writes."""
        t = self._tasks[k]
        return {t.bind[p.name] for p in t.kernel.params if p.kind in ("input", "output")}

    def host_inputs(self) -> list[str]:
        """Buffers read before any task writes them: the caller provides them."""
        out: list[str] = []
        for k, t in enumerate(self._tasks):
            for p in t.kernel.inputs:
                buf = t.bind[p.name]
                if buf not in self.written(k) and buf not in out:
                    out.append(buf)
        return out

    # ---- placement --------------------------------------------------------------------------------

    def policies(self, placement: str | None = None) -> list:
        """The TaskSyncPolicy of every task for `placement` (the SK's own by default)."""
        from ascgen.codegen.tasksync import TaskSyncPolicy
        placement = placement or self.placement
        out = []
        for k, t in enumerate(self._tasks):
            prefetch: frozenset[str] = frozenset()
            matmul = t.kernel.spec().matmul is not None      # MIX tasks keep the plain placement
            if placement == "dataflow" and k > 0 and not matmul:
                written = self.written(k)
                # tile-loop inputs only: a 2-D kernel's per-column vectors are read once after the wait
                prefetch = frozenset(p.name for p in t.kernel.inputs
                                     if t.bind[p.name] not in written and len(p.shape) != 1)
            early = placement == "dataflow" and not matmul and k + 1 < len(self._tasks) and not (
                self.touched(k) & self.touched(k + 1))
            out.append(TaskSyncPolicy(mode="both", prefetch_inputs=prefetch, set_early=early))
        return out

    # ---- emission ---------------------------------------------------------------------------------

    def sources(self, placement: str | None = None) -> dict[str, str]:
        """{file name: Ascend C text} of every task, with the calls placed for `placement`."""
        from ascgen.codegen.emit import emit
        self._need_tasks()
        return {f"{t.kernel.name}.cpp": emit(t.kernel, self.product, policy=pol)
                for t, pol in zip(self._tasks, self.policies(placement))}

    def snippet(self) -> str:
        """`superkernel.py`: how the tasks run as one SuperKernel from PyTorch graph mode (TorchAir)."""
        self._need_tasks()
        lines = [
            f'"""SuperKernel {self.name!r} on {self.product.id}, generated by ascgen.',
            "",
            "Each task is its own compiled Ascend C operator (the .cpp files beside this one), registered as a",
            "torch custom op; inside the scope, TorchAir fuses them into one SuperKernel with these options.",
            '"""',
            "import torch",
            "import torch_npu  # noqa: F401",
            "import torchair",
            "",
            f"SK_OPTIONS = {self.options!r}",
            "",
            "",
            f"def {self.name}({', '.join(self.host_inputs())}):",
        ]
        lines.append(f"    with torchair.scope.super_kernel({self.name!r}, SK_OPTIONS):")
        for k, t in enumerate(self._tasks):
            ins = ", ".join(t.bind[p.name] for p in t.kernel.inputs)
            outs = ", ".join(t.bind[p.name] for p in t.kernel.outputs)
            scal = "".join(f", {name}={value!r}" for name, value in t.scalars.items())
            call = f"{outs} = torch.ops.ascgen.{t.kernel.name}({ins}{scal})"
            lines.append(f"        {call:<48}# task {k}: {t.kernel.name}.cpp, block_dim {t.block_dim}")
        outputs = [b for b in self.final_outputs()]
        lines.append(f"    return {', '.join(outputs)}")
        lines.append("")
        lines.append("")
        lines.append(f"# compiled with torch.compile(..., backend=torchair.get_npu_backend(...)) in graph mode; "
                     f"every op in scope {self.name!r} becomes one task of the SuperKernel.")
        return "\n".join(lines) + "\n"

    def final_outputs(self) -> list[str]:
        out: list[str] = []
        for t in self._tasks:
            for p in t.kernel.outputs:
                if t.bind[p.name] not in out:
                    out.append(t.bind[p.name])
        return out

    def emit(self, out_dir, placement: str | None = None) -> list[Path]:
        """Write every task's .cpp and superkernel.py into `out_dir`; return the paths written."""
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        written = []
        for name, text in {**self.sources(placement), "superkernel.py": self.snippet()}.items():
            path = out / name
            path.write_text(text)
            written.append(path)
        return written

    # ---- running ----------------------------------------------------------------------------------

    def reference(self, inputs: dict) -> dict[str, np.ndarray]:
        """Every buffer after the tasks ran in order, computed by ascgen.builder.reference (numpy)."""
        from ascgen.builder import reference
        buffers = {k: np.asarray(v) for k, v in inputs.items()}
        for t in self._tasks:
            ins = {p.name: buffers[t.bind[p.name]] for p in t.kernel.inputs}
            outs = reference.evaluate(t.kernel, ins, t.scalars)
            for p in t.kernel.outputs:
                buffers[t.bind[p.name]] = outs[p.name]
        return buffers

    def run(self, inputs: dict, *, options: str | None = None, placement: str | None = None,
            detect_races: bool = True, schedule_seed: int | None = None, timeline: bool = True,
            treat_as_effective: bool = False, source_dir=None, overrides: dict | None = None):
        """Emit, compile (cached) and run every task as one SuperKernel on the emulator.

        source_dir: write the sources there and load them from there, so reports quote their lines;
        overrides: {file name: path} of hand-edited sources to load instead of the emitted ones.
        Returns ({buffer name: array}, runtime Report)."""
        from ascgen.runtime.superkernel import SuperKernel as RuntimeSK
        arrays, dims = self._arrays(inputs)
        sk = RuntimeSK(self.product, options=options or self.options, detect_races=detect_races,
                       schedule_seed=schedule_seed, timeline=timeline, treat_as_effective=treat_as_effective)
        modules = self._load_modules(placement, source_dir, dict(overrides or {}))
        for t, module in zip(self._tasks, modules):
            sk.add(module, t.kernel.name, t.block_dim, *self._args(t, arrays, dims[t.kernel.name]))
        for name, array in arrays.items():
            sk.name_buffer(array, name)                  # reports speak of SK buffers, not parameters
        report = sk.run()
        return arrays, report

    def _load_modules(self, placement, source_dir, overrides: dict) -> list:
        """Compile (cached) and load every task's source; cold compiles run in parallel, one per CPU."""
        import os
        from concurrent.futures import ThreadPoolExecutor

        from ascgen.runtime import core, load

        def one(item):
            fname, text = item
            if fname in overrides:
                return load(Path(overrides[fname]), product=self.product)
            if source_dir is None:
                return load(text, product=self.product, filename=fname)
            path = Path(source_dir) / fname
            if not path.is_file() or path.read_text() != text:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text)
            return load(path, product=self.product)

        core.ensure_loaded()            # kernels resolve the core's symbols: it must be loaded first
        items = list(self.sources(placement).items())
        with ThreadPoolExecutor(max_workers=max(1, min(len(items), os.cpu_count() or 1))) as pool:
            return list(pool.map(one, items))

    def _arrays(self, inputs: dict) -> tuple[dict[str, np.ndarray], dict[str, list[int]]]:
        """Every buffer's array, and every task's size arguments ([totalLength], or its dims' values)."""
        self._need_tasks()
        dtypes = self.buffer_dtypes()
        missing = [b for b in self.host_inputs() if b not in inputs]
        if missing:
            raise SpecError(f"SuperKernel {self.name!r}: no array for input buffer(s) {', '.join(missing)} "
                            f"(inputs: {', '.join(self.host_inputs())})")
        unknown = sorted(set(inputs) - set(dtypes))
        if unknown:
            raise SpecError(f"SuperKernel {self.name!r}: no task uses buffer {unknown[0]!r}")
        arrays = {b: np.ascontiguousarray(np.asarray(inputs[b]).astype(dtypes[b], copy=True)) for b in inputs}
        if not any(t.kernel.dims for t in self._tasks):
            lengths = {len(v) for v in arrays.values()}
            if len(lengths) != 1:
                raise SpecError(f"SuperKernel {self.name!r}: input buffers differ in length ({sorted(lengths)}); "
                                "every buffer of a 1-D builder SuperKernel has one length")
            n = lengths.pop()
            for b, dt in dtypes.items():
                arrays.setdefault(b, np.zeros(n, dtype=dt))
            return arrays, {t.kernel.name: [n] for t in self._tasks}
        return arrays, self._shapes(arrays, dtypes)

    def _shapes(self, arrays: dict, dtypes: dict) -> dict[str, list[int]]:
        """Tasks in order: a task's dim values come from the shapes of the buffers it reads; the buffers it
        writes get the shapes its dims give them (allocated here, zeroed)."""
        sizes = {}
        for t in self._tasks:
            if not t.kernel.dims:
                raise SpecError(f'SuperKernel {self.name!r}: task "{t.kernel.name}" is 1-D and others are 2-D; a '
                                "builder SuperKernel holds one kind")
            dims: dict[str, int] = {}
            for p in t.kernel.inputs:
                shape = arrays[t.bind[p.name]].shape
                if len(shape) != len(p.shape):
                    raise SpecError(f'SuperKernel {self.name!r}: task "{t.kernel.name}" reads buffer '
                                    f"{t.bind[p.name]!r} as {p.shape!r}, but it has shape {shape}")
                for name, value in zip(p.shape, shape):
                    if dims.setdefault(name, value) != value:
                        raise SpecError(f'SuperKernel {self.name!r}: task "{t.kernel.name}": dim {name!r} is '
                                        f"{dims[name]} and {value} in its input buffers")
            for p in t.kernel.outputs:
                shape = tuple(extent(name, dims) for name in p.shape)
                buf = t.bind[p.name]
                if buf in arrays and arrays[buf].shape != shape:
                    raise SpecError(f'SuperKernel {self.name!r}: task "{t.kernel.name}" writes {shape} to buffer '
                                    f"{buf!r}, which is {arrays[buf].shape}; bind the output to another buffer "
                                    f"(add(..., {p.name}=\"...\"))")
                arrays.setdefault(buf, np.zeros(shape, dtype=dtypes[buf]))
            sizes[t.kernel.name] = [dims[name] for name in t.kernel.dims]
        return sizes

    def _args(self, t: SkTask, arrays: dict, sizes: list[int]) -> list:
        args: list = []
        for i, p in enumerate(t.kernel.params):
            if i == t.kernel.length_index:
                args.extend(np.uint32(v) for v in sizes)
            if p.kind == "scalar":
                value = t.scalars.get(p.name, getattr(p, "default", None))
                if value is None:
                    raise SpecError(f'SuperKernel {self.name!r}: task "{t.kernel.name}" needs scalar {p.name!r}; '
                                    f"pass add(..., scalars={{{p.name!r}: value}})")
                args.append(value)
            else:
                args.append(arrays[t.bind[p.name]])
        if t.kernel.length_index >= len(t.kernel.params):
            args.extend(np.uint32(v) for v in sizes)
        return args

    def _need_tasks(self) -> None:
        if not self._tasks:
            raise SpecError(f"SuperKernel {self.name!r} has no task. Hint: sk.add(kernel).")
