"""The Python side of the core runtime: the only module that calls `lib.` (cffi over runtime/core/core_api.h).

`run(RunRequest) -> RunResult` runs a plain launch (one task) or a SuperKernel (several tasks, `sk_options`
set) on one thread per emulated core; a kernel-side fault raises the matching ascgen.errors class with
its KernelSite. The core library (libascgen_core.so, built from runtime/core through build.py) is loaded
once per process with RTLD_GLOBAL, before any kernel module, so kernels resolve the rt.h hooks from it.
"""
from __future__ import annotations

import os
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from ascgen import config, products, resources
from ascgen.errors import (HangError, KernelAssertError, KernelError, KernelMemoryError, KernelSite, KernelTimeoutError,
                      SpecError, SyncCountError)
from ascgen.products import Product
from ascgen.runtime import build, geometry, limits
from ascgen.runtime.build import cache
from ascgen.runtime.geometry import KERNEL_TYPE_CODE, KERNEL_TYPES, Geometry
from ascgen.runtime.sk_options import SkOptions

__all__ = ["Task", "GmBuffer", "RunRequest", "RunResult", "SkOptions", "Geometry", "run", "run_host",
           "register_kernel", "ensure_loaded", "PIPES", "MARKS"]

# The core's pipe numbers by short name ("MTE3"); products name pipes "PIPE_MTE3".
PIPES = {name.removeprefix("PIPE_"): number for name, number in products.PIPE_NUMBERS.items()}
MARKS = ("task_begin", "task_end", "set", "wait_begin", "wait_end", "barrier")   # timeline::Mark order
_ERRORS = {1: KernelMemoryError, 2: HangError, 3: SyncCountError, 4: KernelTimeoutError, 5: KernelAssertError}
_WAIT_SLICE_S = 0.25        # the wait loop returns to Python this often, so Ctrl-C works


@dataclass(frozen=True)
class Task:
    """One kernel call of a launch (a plain launch is a one-task run)."""
    name: str
    entry: object           # cffi pointer to `void entry(void** args)` (the module's trampoline), or its address
    args: object            # cffi `void*[]` holding the argument slots (kept alive by the caller)
    block_dim: int
    kernel_type: str        # "aiv" | "aic" | "mix_1_1" | "mix_1_2"
    uses_wait: bool = False     # the source calls WaitPreTaskEnd (decided textually, like the SK compiler)
    uses_set: bool = False
    source: str = ""
    uses_sync_all: bool = True  # the source calls SyncAll (only such tasks get the feed-sync-all complement)


@dataclass(frozen=True)
class GmBuffer:
    name: str
    address: int
    nbytes: int
    dtype: str = ""


@dataclass(frozen=True)
class RunRequest:
    product: Product
    tasks: tuple
    buffers: tuple = ()
    sk_options: SkOptions | str | None = None   # None: plain launch (the task-sync calls are no-ops)
    detect_races: bool = False
    schedule_seed: int | None = None        # perturb interleavings (yield points at sync and GM accesses)
    time_limit_s: float = 60.0
    timeline: bool = False
    treat_as_effective: bool = False        # ascend910b: run the calls as the library code does (as on A3)
    echo_output: bool = False               # also print the kernels' printf lines to sys.stdout
    cancel_grace_s: float = 3.0             # after a fault or the limit, how long cores get to reach an API
                                            # call before they are reported unstoppable and left running


@dataclass
class RunResult:
    output: str = ""                        # printf lines, "[AIV3] " prefixed
    lints: list = field(default_factory=list)       # dicts: file, line, severity, rule, message
    races: list = field(default_factory=list)       # dicts: earlier, later (access dicts), call_file, call_line
    events: list = field(default_factory=list)      # dicts: core, core_label, task, kind, t, file, line
    geometry: dict = field(default_factory=dict)    # kind, aic, aiv, ratio, labels
    timeline_params: dict = field(default_factory=dict)
    wall_s: float = 0.0


# ---- loading ----------------------------------------------------------------------------------------

def _make_ffi():
    """The committed out-of-line module (fast to import) when it matches core_api.h, else a parse of it."""
    from ascgen.runtime import core_cffi_build as glue
    header = glue.header_text()
    try:
        from ascgen.runtime._autogen.core_cffi import HEADER_SHA256, ffi
        if HEADER_SHA256 == glue.header_hash(header):
            return ffi
    except ImportError:
        pass
    import cffi
    ffi = cffi.FFI()
    ffi.cdef(glue.cdef_text(header))
    return ffi


_ffi = _make_ffi()
_lib = None
_load_lock = threading.Lock()
_background: "_Background | None" = None      # the core's build started by build_in_background
_background_lock = threading.Lock()
_run_lock = threading.Lock()       # one run at a time per process (the core has one set of flags)
_forked_mid_run = False            # this process is a fork taken while another thread was inside run()


def _after_fork_in_child() -> None:
    """A fork copies the locks as they were, but only the forking thread: a lock another thread held (inside
    run(), or loading) would never be released. New locks; and if a run was under way, its cores do not
    exist here, so run() says so instead of waiting for them."""
    global _run_lock, _load_lock, _forked_mid_run, _background, _background_lock
    _forked_mid_run = _forked_mid_run or _run_lock.locked()
    _run_lock, _load_lock = threading.Lock(), threading.Lock()
    _background_lock = threading.Lock()
    _background = None                 # its thread is not in this process: library_path builds here


os.register_at_fork(after_in_child=_after_fork_in_child)


# Compiled as their own translation units: the detectors (race detection and the modeled timeline), which
# use file-local names of their own.
_SEPARATE = ("hb.cpp", "timeline.cpp")
BACKGROUND_NICENESS = 10


def core_sources() -> list:
    """The core's own files as one translation unit (each behind a #line, so diagnostics name the real
    file): the standard headers they share are parsed once, which halves a cold build. The detectors
    compile beside it, in parallel."""
    src = resources.core_dir()
    own = [p for p in sorted(src.glob("*.cpp")) if p.name not in _SEPARATE]
    unity = "".join(f'#line 1 "{p}"\n{p.read_text()}\n' for p in own)
    return [build.SourceText(unity, str(src / "core_unity.cpp")), *(src / n for n in _SEPARATE if (src / n).is_file())]


def library_path() -> Path:
    """Build (or find in the cache) libascgen_core.so. -O1: the core's code is locking and bookkeeping;
    -O2 only made its cold build slower. A build build_in_background started is waited for first, and its
    library taken if it was built under the settings of now; if it failed, or the settings changed since
    (another cache folder or compiler: a pytest worker's tests), this builds and raises its own error."""
    global _background
    with _background_lock:
        started, _background = _background, None
    if started is not None:
        started.join()
        if started.built is not None and started.built[0] == _settings() and started.built[1].is_file():
            return started.built[1]
    return _build_library()


def _settings() -> tuple:
    """What the core's build depends on besides its sources."""
    return config.cache_dir(), config.compiler(), config.debug()


def _build_library() -> Path:
    return build.compile_shared(core_sources(), include_dirs=[*resources.include_dirs(), resources.core_dir()],
                                name="ascgen_core",
                                extra_flags=[] if config.debug() else ["-O1"])


class _Background(threading.Thread):
    """The core's build beside the caller's compile, at a lowered priority."""

    def __init__(self):
        super().__init__(name="ascgen-core-build", daemon=True)
        self.built: tuple[tuple, Path] | None = None      # (settings, library) once built

    def run(self) -> None:
        try:
            # Niceness is per thread on Linux and what this thread starts inherits it: the compilers of the
            # build the caller waits for first (the precompiled header, the module) get the CPUs first.
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), BACKGROUND_NICENESS)
        except (OSError, AttributeError):
            pass
        try:
            settings = _settings()
            self.built = (settings, _build_library())
        except Exception:       # noqa: BLE001 - library_path builds again and raises the error where it is waited for
            pass


def build_in_background() -> None:
    """Start building the core library beside the caller's own compile, unless it is loaded or a build is
    under way. On a fresh cache a kernel's first use needs the core (about 7 s of CPU in three parallel
    compiles) and, on the devkit backend, the library's precompiled header (about 9 s on one CPU) before its
    module: side by side they take the machine's two CPUs instead of one after the other
    (docs/devkit.md, "First use"). A cached core costs the thread a lookup."""
    global _background
    with _background_lock:
        if _lib is None and _background is None:
            _background = _Background()
            _background.start()


def ensure_loaded():
    """Load the core library (RTLD_GLOBAL) if not yet loaded; kernel modules must be loaded after it."""
    global _lib
    if _lib is None:
        with _load_lock:
            if _lib is None:
                path = library_path()
                cache.pin(path)
                _lib = _ffi.dlopen(str(path), _ffi.RTLD_NOW | _ffi.RTLD_GLOBAL)
    return _lib


def source_root(module_file: Path, root: Path) -> None:
    """Report the relocatable module loaded from `module_file`'s locations under `root` (build/relocate.py)."""
    ensure_loaded().ascgen_source_root(str(module_file).encode(), str(root).encode())


def register_kernel(name: str, kernel_type: str, uses_wait: bool = False, uses_set: bool = False) -> None:
    """Kernel facts for launches made by hand-written host programs (rt::host_launch by name)."""
    if kernel_type not in KERNEL_TYPE_CODE:
        raise SpecError(f"kernel type {kernel_type!r} of {name!r} is not one of {', '.join(KERNEL_TYPES)}")
    ensure_loaded().ascgen_register_kernel(name.encode(), KERNEL_TYPE_CODE[kernel_type], int(uses_wait), int(uses_set))


# ---- running ----------------------------------------------------------------------------------------

def run(request: RunRequest) -> RunResult:
    """Run the request's tasks; returns the RunResult or raises the typed KernelError of the first fault."""
    if _forked_mid_run:
        raise SpecError("this process was forked (os.fork, multiprocessing's 'fork' start method) while another "
                        "thread of its parent was inside a launch: that launch's emulated cores do not exist here, "
                        "so this process cannot launch. Hint: fork before the first launch or while none runs, or "
                        "use multiprocessing.get_context('spawn') (or 'forkserver').")
    lib = ensure_loaded()
    geo, opts = _plan(request)
    keep: list = []
    cfg = _config(request.product, geo, opts, request, keep)
    tasks = _ffi.new("ascgen_task[]", len(request.tasks))
    for i, t in enumerate(request.tasks):
        _fill_task(tasks[i], t, keep)
    bufs = _ffi.new("ascgen_buffer[]", max(1, len(request.buffers)))
    for i, b in enumerate(request.buffers):
        bufs[i].name, bufs[i].dtype = _cstr(b.name, keep), _cstr(b.dtype, keep)
        bufs[i].address, bufs[i].nbytes = int(b.address), int(b.nbytes)
    err = _ffi.new("char[]", 1024)
    started = time.perf_counter()
    with _run_lock:
        if lib.ascgen_run_start(cfg, tasks, len(request.tasks), bufs, len(request.buffers), err, 1024) != 0:
            raise SpecError(_ffi.string(err).decode(errors="replace"))
        _wait(lib)
        kind = lib.ascgen_run_finish()
        result = _collect(lib, geo, cfg)
        fault = _fault(lib) if kind else None
    result.wall_s = time.perf_counter() - started
    if request.echo_output and result.output:
        sys.stdout.write(result.output)
        sys.stdout.flush()
    if fault:
        raise _error(fault, request.sk_options is not None, result)
    return result


def _plan(request: RunRequest) -> tuple[Geometry, SkOptions | None]:
    if not request.tasks:
        raise SpecError("a run needs at least one task")
    for t in request.tasks:
        if not isinstance(t, Task):
            raise SpecError(f"RunRequest.tasks must hold core.Task objects; got {type(t).__name__}")
    if request.sk_options is None:
        if len(request.tasks) != 1:
            raise SpecError(f"{len(request.tasks)} tasks without sk_options: several tasks run only as a SuperKernel")
        t = request.tasks[0]
        return geometry.launch(request.product, t.kernel_type, t.block_dim), None
    opts = request.sk_options
    if isinstance(opts, str):   # a convenience: the option string itself
        opts = SkOptions.parse(opts, request.product, treat_as_effective=request.treat_as_effective)
    if not isinstance(opts, SkOptions):
        raise SpecError(f"RunRequest.sk_options must be an SkOptions or an option string; got {opts!r}")
    if request.treat_as_effective and not opts.effective:
        opts = SkOptions.parse(opts.text, request.product, treat_as_effective=True)
    geo = geometry.superkernel(request.product, [(t.kernel_type, t.block_dim) for t in request.tasks], opts)
    return geo, opts


def _config(product: Product, geo: Geometry, opts: SkOptions | None, request, keep: list):
    cfg = _ffi.new("ascgen_config*")
    ensure_loaded().ascgen_timeline_defaults(cfg)
    cfg.product = _cstr(product.id, keep)
    cfg.npu_arch = product.npu_arch
    cfg.separated = int(product.separated)
    cfg.ub_capacity = product.ub_bytes
    cfg.aic_count, cfg.aiv_count, cfg.ratio = geo.aic, geo.aiv, geo.ratio
    cfg.superkernel = int(opts is not None)
    effective = product.task_sync == "effective" or bool(getattr(request, "treat_as_effective", False))
    if opts is not None:
        cfg.effective = int(opts.effective or effective)
        cfg.early_start = 0 if opts.stream_fusion else opts.early_start
        cfg.feed_sync_all, cfg.debug_sync_all = int(opts.feed_sync_all), int(opts.debug_sync_all)
    else:
        cfg.effective, cfg.early_start = int(effective), 1
    aiv_pipe, aic_pipe = (PIPES[p.removeprefix("PIPE_")] for p in product.default_pipes)
    cfg.aiv_pipe_default, cfg.aic_pipe_default = aiv_pipe, aic_pipe
    cfg.detect_races = int(request.detect_races)
    cfg.timeline = int(request.timeline)
    cfg.schedule_seed = limits.schedule_seed(request.schedule_seed)
    cfg.time_limit_s = limits.time_limit(request.time_limit_s)
    cfg.cancel_grace_s = float(getattr(request, "cancel_grace_s", 3.0))
    cfg.echo_output = 0
    return cfg


def _fill_task(dst, t: Task, keep: list) -> None:
    if t.kernel_type not in KERNEL_TYPE_CODE:
        raise SpecError(f'task "{t.name}": kernel type {t.kernel_type!r} is not one of {", ".join(KERNEL_TYPES)}')
    dst.name, dst.source = _cstr(t.name, keep), _cstr(t.source or "", keep)
    entry = t.entry
    dst.entry = _ffi.cast("void(*)(void**)", entry if isinstance(entry, int) else _ffi.cast("uintptr_t", entry))
    dst.args = _ffi.NULL if t.args is None else _ffi.cast("void**", t.args)
    dst.block_dim, dst.kernel_type = int(t.block_dim), KERNEL_TYPE_CODE[t.kernel_type]
    dst.uses_wait, dst.uses_set = int(bool(t.uses_wait)), int(bool(t.uses_set))
    dst.uses_sync_all = int(bool(t.uses_sync_all))


def _cstr(text: str, keep: list):
    buf = _ffi.new("char[]", (text or "").encode())
    keep.append(buf)
    return buf


def _wait(lib) -> None:
    try:
        while not lib.ascgen_run_wait(_WAIT_SLICE_S):
            pass
    except KeyboardInterrupt:
        lib.ascgen_run_interrupt()
        lib.ascgen_run_finish()
        raise


def _s(p) -> str:
    return _ffi.string(p).decode(errors="replace") if p != _ffi.NULL else ""


def _collect(lib, geo: Geometry, cfg) -> RunResult:
    res = RunResult(output=_s(lib.ascgen_result_output()), geometry=geo.as_dict())
    lint = _ffi.new("ascgen_lint*")
    for i in range(lib.ascgen_result_lint_count()):
        lib.ascgen_result_lint(i, lint)
        res.lints.append({"file": _s(lint.file), "line": lint.line, "severity": _s(lint.severity),
                          "rule": _s(lint.rule), "message": _s(lint.message)})
    race = _ffi.new("ascgen_race*")
    for i in range(lib.ascgen_result_race_count()):
        lib.ascgen_result_race(i, race)
        res.races.append({"earlier": _access(race.earlier), "later": _access(race.later),
                          "call_file": _s(race.call_file), "call_line": race.call_line})
    ev = _ffi.new("ascgen_event*")
    for i in range(lib.ascgen_result_event_count()):
        lib.ascgen_result_event(i, ev)
        res.events.append({"core": ev.core, "core_label": _s(ev.core_label), "task": ev.task,
                           "kind": MARKS[ev.kind] if 0 <= ev.kind < len(MARKS) else str(ev.kind), "t": ev.t,
                           "file": _s(ev.file), "line": ev.line})
    res.timeline_params = {k: getattr(cfg, k) for k in ("flag_round_cycles", "task_launch_cycles",
                                                        "mte_bytes_per_cycle", "vec_elems_per_cycle",
                                                        "cube_elems_per_cycle", "scalar_cycles")}
    return res


def _access(a) -> dict:
    return {"core": a.core, "core_label": _s(a.core_label), "task": a.task, "kernel": _s(a.kernel),
            "addr": a.addr, "bytes": a.bytes, "write": bool(a.write), "file": _s(a.file), "line": a.line,
            "window": a.window, "buffer": _s(a.buffer), "offset": a.offset, "dtype": _s(a.dtype)}


def _fault(lib) -> dict:
    f = _ffi.new("ascgen_fault*")
    lib.ascgen_result_fault(f)
    return {"kind": f.kind, "message": _s(f.message), "core": _s(f.core) or None, "task": f.task,
            "kernel": _s(f.kernel) or None, "file": _s(f.file) or None, "line": f.line or None,
            "threads_left": lib.ascgen_threads_left()}


def _error(fault: dict, superkernel: bool, result: RunResult | None) -> KernelError:
    site = KernelSite(task=fault["task"] if superkernel and fault["task"] >= 0 else None, kernel=fault["kernel"],
                      core=fault["core"], file=fault["file"], line=fault["line"])
    details = dict(fault)
    if result is not None:
        details.update(output=result.output, lints=result.lints, geometry=result.geometry)
    return _ERRORS.get(fault["kind"], KernelAssertError)(fault["message"], site, details)


# ---- hand-written host programs ---------------------------------------------------------------------

def run_host(product: Product, main, argv, *, time_limit_s: float = 60.0, detect_races: bool = False,
             echo_output: bool = True) -> int:
    """Call a host program's main (cffi `int(*)(int, char**)`) with `argv` on this thread; its `<<<>>>`
    launches run through rt::host_launch with kernel facts from register_kernel(). Returns main's exit
    code; raises the typed KernelError of the first failed launch. Printf lines of kernels are echoed as
    they come when echo_output (so they interleave correctly with the host's own output)."""
    lib = ensure_loaded()
    keep: list = []
    request = RunRequest(product=product, tasks=(), detect_races=detect_races, time_limit_s=time_limit_s)
    cfg = _config(product, Geometry("aiv", 0, 1, 0), None, request, keep)
    cfg.echo_output = int(echo_output)
    args = [_cstr(str(a), keep) for a in argv]
    argv_c = _ffi.new("char*[]", [*args, _ffi.NULL])
    stopped = _ffi.new("int*")
    main_fn = _ffi.cast("int(*)(int, char**)", main if isinstance(main, int) else _ffi.cast("uintptr_t", main))
    sys.stdout.flush()
    with _run_lock:
        lib.ascgen_host_session_begin(cfg)
        try:
            code = lib.ascgen_call_main(main_fn, len(args), argv_c, stopped)
        finally:
            kind = lib.ascgen_host_session_end()
        fault = _fault(lib) if kind else None
        output = _s(lib.ascgen_result_output())
    if fault:
        result = RunResult(output=output)
        raise _error(fault, False, result)
    if stopped[0]:
        raise KernelAssertError("the host program was stopped by the emulator without a recorded fault "
                                "(a launch outside a host session?)")
    return code
