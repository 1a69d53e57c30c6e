"""`load()` a kernel source into a Module; launch its kernels on the emulated cores.

    mod = ascgen.runtime.load("add_relu.cpp", product="ascend910_93")
    mod.launch("add_relu", 8, x, y, z, np.uint32(x.size))       # numpy arrays are written in place

load: analyse the source (entry points, kernel types, task-sync use; analysis.py) -> generate the wrapper
TU with one trampoline per kernel (build/wrapper.py) -> compile it, cached (build.compile_shared) -> dlopen.
What depends on the Ascend C library compiled against (include path, macros, flags, wrapper, entry symbol,
hidden launch buffers, checks) comes from the module's Backend (backends/).
launch: bind the arguments (binding.py) -> one Task -> core.run(RunRequest). `Module.task()` gives the
bound Task to SuperKernel ("Modules -> SuperKernel" in docs/architecture.md).
"""
from __future__ import annotations

import atexit
import ctypes
import hashlib
import os
import shutil
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import cffi

from ascgen import config, products
from ascgen.errors import CompileError, KernelError, SpecError
from ascgen.runtime import analysis, backends, binding, build, gm_guard, host_rewrite, limits
from ascgen.runtime.backends.base import BuildOptions
from ascgen.runtime.build import cache, wrapper
from ascgen.source.launches import has_launches
from ascgen.source.signature import KERNEL_TYPES, KernelEntry, SourceInfo

if TYPE_CHECKING:          # the core module is imported late at run time: loading it builds the core library
    from ascgen.runtime.core import RunResult

_open_lock = threading.Lock()


def _after_fork_in_child() -> None:
    global _open_lock
    _open_lock = threading.Lock()      # another thread of the parent may have held it (core._after_fork_in_child)


os.register_at_fork(after_in_child=_after_fork_in_child)
_libs: dict[str, ctypes.CDLL] = {}      # .so path -> handle (a library is opened once per process)
_mem = None

DEFAULT_PRODUCT = "ascend910b"
# GCC's kernel-address instrumentation in call mode: every load and store calls __asan_{load,store}N_noabort,
# which the core library defines (runtime/core/raw_gm.cpp); no sanitizer runtime is linked.
RAW_GM_FLAGS = ("-fsanitize=kernel-address", "--param", "asan-instrumentation-with-call-threshold=0",
                "--param", "asan-stack=0", "--param", "asan-globals=0")


def _ffi():
    """A cffi FFI for the argument slots handed to the core (`Task.args` is a `void*[]` cdata). The core's
    committed out-of-line module when present: no C parsing at run time, so a cached load stays cheap."""
    global _mem
    if _mem is None:
        try:
            from ascgen.runtime._autogen.core_cffi import ffi
        except ImportError:
            ffi = cffi.FFI()
        _mem = ffi
    return _mem


def _core():
    from ascgen.runtime import core          # imported late: the core library is built on first use
    return core


@dataclass(frozen=True)
class BoundTask:
    """One kernel call with its arguments bound: what SuperKernel.add() and Module.launch() run."""
    task: object                    # core.Task
    buffers: tuple                  # core.GmBuffer per array argument
    keepalive: tuple = field(repr=False, default=())
    readonly: tuple = field(repr=False, default=())   # binding.Bound.readonly: checked after the run
    slots: object = field(repr=False, default=None)   # the uint64_t[] the task's args point into
    pointers: tuple = field(repr=False, default=())   # binding.Bound.pointers: (slot index, array)


@dataclass(frozen=True)
class KernelInfo:
    """What a Module knows about one kernel instance ("add_custom" or "add_custom<2048>")."""
    name: str
    kernel: KernelEntry
    kinds: tuple[str, ...]          # compiler-resolved parameter types ("ptr:float32", "uint32")
    entry: int                      # address of the trampoline `void entry(void** args)`

    @property
    def params(self) -> tuple[tuple[str, str], ...]:
        names = self.kernel.params
        if len(names) == len(self.kinds):
            return tuple((p.name, p.ctype) for p in names)
        return tuple((f"arg{i}", k) for i, k in enumerate(self.kinds))


def _read_source(source_or_path) -> tuple[str, str, Path | None]:
    """(text, name for messages, path or None) of a path or of source text."""
    if isinstance(source_or_path, os.PathLike) or (
            isinstance(source_or_path, str) and "\n" not in source_or_path and len(source_or_path) < 4096
            and "{" not in source_or_path):
        path = Path(source_or_path).expanduser().resolve()
        if not path.is_file():
            raise SpecError(f"kernel source {source_or_path} not found (looked at {path}). "
                            "Hint: pass a path to a .cpp/.asc file or the source text itself.")
        return path.read_text(errors="replace"), str(path), path
    if not isinstance(source_or_path, str):
        raise SpecError(f"load() takes a path or source text; got {type(source_or_path).__name__}")
    return source_or_path, "kernel.cpp", None


_roots: dict[str, Path] = {}            # loaded relocatable module file -> the source folder it reports under
_root_copies: dict[tuple[str, Path], Path] = {}
_copies_dir: Path | None = None


def _file_for_root(path: Path, root: Path | None) -> Path:
    """The file to load `path` from for reports under `root`: itself, or, when this process already loaded
    it for another folder, a private copy (one image per folder: the core finds a name's folder by the
    image that holds it, build/relocate.py). The copies live until the process ends."""
    global _copies_dir
    if root is None or _roots.setdefault(str(path), root) == root:
        return path
    if (str(path), root) not in _root_copies:
        if _copies_dir is None:
            _copies_dir = Path(tempfile.mkdtemp(prefix="ascgen-module-copies-"))     # 0700: ours alone
            atexit.register(shutil.rmtree, _copies_dir, True)
        copy = _copies_dir / f"{len(_root_copies)}-{path.name}"
        shutil.copyfile(path, copy)
        _roots[str(copy)] = root
        _root_copies[(str(path), root)] = copy
    return _root_copies[(str(path), root)]


def _dlopen(path: Path, root: Path | None = None) -> ctypes.CDLL:
    """Open a kernel module (RTLD_LOCAL: modules may define the same kernel names); ctypes, because only
    symbol addresses are needed and it parses no C declarations. `root`: a relocatable module's source
    folder, which its reports name."""
    with _open_lock:
        cached, path = path, _file_for_root(path, root)
        lib = _libs.get(str(path))
        if lib is None:
            _core().ensure_loaded()                 # the rt:: symbols must be global before a kernel loads
            cache.pin(cached)                       # never evicted while loaded (the devkit copies read it)
            lib = ctypes.CDLL(str(path), mode=os.RTLD_NOW | os.RTLD_LOCAL)
            if root is not None:
                _core().source_root(path, root)
            _libs[str(path)] = lib
        return lib


def _symbol(lib: ctypes.CDLL, path: Path, name: str, restype=None, argtypes=()):
    """A function of a loaded module by name."""
    try:
        fn = getattr(lib, name)
    except AttributeError as exc:
        raise SpecError(f"{path} has no symbol {name}: the module is older than this ascgen. "
                        "Hint: clear the cache (ASCGEN_CACHE_DIR).") from exc
    fn.restype, fn.argtypes = restype, list(argtypes)
    return fn


def _address(fn) -> int:
    address = ctypes.cast(fn, ctypes.c_void_p).value
    if address is None:
        raise SpecError(f"symbol {fn.__name__} resolved to a null address")
    return address


def arch_defines(product) -> dict:
    """The macros the real toolchain defines per target: __NPU_ARCH__, and __CCE_AICORE__ where it exists
    (operator sources branch on both). Part of the cache key, so a module is built per architecture."""
    out = {"__NPU_ARCH__": product.npu_arch}
    if getattr(product, "cce_aicore", None) is not None:
        out["__CCE_AICORE__"] = product.cce_aicore
    return out


def locate_at_definition(exc: KernelError, kernel: KernelEntry) -> None:
    """A fault before the core recorded any line (an exception thrown before the first API call) gets the
    kernel's definition as its place, said as such, instead of `?`."""
    if exc.site.file or not getattr(kernel, "file", None):
        return
    exc.site.file, exc.site.line = kernel.file, kernel.line
    where = f"{Path(kernel.file).name}:{kernel.line}"
    text = str(exc).replace(" ? in ", f" {where} in ", 1)
    note = (f"  Note: no source line was recorded before the fault; the kernel is defined at {kernel.file}:"
            f"{kernel.line}\n")
    at = text.rfind("SUMMARY:")
    exc.args = (text[:at] + note + text[at:] if at >= 0 else text + "\n" + note,)


def _checked_defines(defines) -> dict:
    """The user's macros: identifier names, single-line values (they become #define lines)."""
    if defines is None:
        return {}
    if not isinstance(defines, dict):
        raise SpecError(f"defines must be a dict of macro name -> value (or None); got {type(defines).__name__}")
    out = {}
    for name, value in defines.items():
        if not isinstance(name, str) or not name.isascii() or not (name[:1].isalpha() or name[:1] == "_") \
                or not all(c.isalnum() or c == "_" for c in name):
            raise SpecError(f"define {name!r}: not a macro name (letters, digits and _, not starting with a digit)")
        text = None if value is None else str(value)
        if text is not None and ("\n" in text or "\r" in text or "\0" in text):
            raise SpecError(f"define {name}: the value {text!r} spans several lines; a macro value is one line")
        out[name] = text
    return out


class Module:
    """A compiled kernel source. Create it with `load()`."""

    def __init__(self, text: str, name: str, path: Path | None, product, *, defines=None, include_dirs=(),
                 kernel_type: str | None = None, instances=(), host_main: bool = False, extra_flags=(),
                 compile_path: Path | None = None, extra_sources=(), backend: str = backends.DEFAULT):
        self.backend = backends.create(backend)
        self.product = products.get(product)
        self.backend.check_product(self.product)
        self.source = name
        self.path = path
        self.compile_path = compile_path or path      # a rewritten copy for host programs (commands/run.py)
        if compile_path is None and has_launches(text):
            # Host code with <<<>>> launches (an emitted --host kernel file): compile the rewritten copy.
            self.compile_path = host_rewrite.compilable_copy(text, name)
        self.text = text
        self.arch_defines = arch_defines(self.product)
        self.user_defines = _checked_defines(defines)
        self.defines = {**self.arch_defines, **self.user_defines}
        self.include_dirs = [Path(d).resolve() for d in include_dirs]
        self._user_dirs = len(self.include_dirs)       # the backend's analysis folders go after these
        if path is not None:
            self.include_dirs.append(path.parent)
        self.extra_flags = tuple(extra_flags) + (RAW_GM_FLAGS if config.raw_gm_races() else ())
        if kernel_type is not None and kernel_type not in KERNEL_TYPES:
            raise SpecError(f"kernel_type {kernel_type!r} is not one of {', '.join(KERNEL_TYPES)}")
        self.kernel_type_override = kernel_type
        self.is_program = host_main
        self._analysis_dirs = self.backend.analysis_include_dirs()
        analysis_defines = {**self.backend.analysis_defines(self.product), **self.defines}
        try:
            self.info: SourceInfo = analysis.analyse_source(text, name, self._analysis_path(), analysis_defines,
                                                            self.backend.library_dirs())
        except CompileError as exc:
            self._raise_hinted(exc, text, name)
            raise
        # Further translation units of a program (commands/run.py); their kernels are launched from host code only.
        self.extra_sources = [Path(os.path.abspath(s)) for s in extra_sources]     # links kept: load_program
        self.include_dirs += [s.parent for s in self.extra_sources if s.parent not in self.include_dirs]
        self.extra_infos = [analysis.analyse_source(s.read_text(errors="replace"), str(s), self._analysis_path(),
                                                    analysis_defines, self.backend.library_dirs())
                            for s in self.extra_sources]
        self.backend.check_source(self)
        self._kernels: dict[str, KernelInfo] = {}
        self._lock = threading.Lock()
        plain = [k.name for k in self.info.kernels if k.template is None]
        self._build([*plain, *instances])

    # ---- building --------------------------------------------------------------------------------

    @property
    def source_root(self) -> Path | None:
        """The folder of a source compiled as it is (not a rewritten copy): its build is relocatable
        (build/relocate.py), so the same source in another folder uses the same cached module."""
        return self.path.parent if self.path is not None and self.compile_path == self.path else None

    def _analysis_path(self) -> list[Path]:
        """The include path of the source analysis: the user's folders, the backend's stand-ins, the source's own."""
        n = self._user_dirs
        return [*self.include_dirs[:n], *self._analysis_dirs, *self.include_dirs[n:]]

    def _build(self, instances) -> None:
        _core().build_in_background()       # needed to load the module; independent of its compile
        extra = self._wrapped_extra_sources()
        sources = [build.SourceText(self.backend.wrapper_text(self, instances),
                                    f"<ascgen wrapper of {Path(self.source).name}>"), *extra]
        options: BuildOptions | None = self.backend.build_options(self, extra)
        while options is not None:          # at most twice: a fallback has no fallback of its own
            try:
                so = build.compile_shared(sources, include_dirs=options.include_dirs, defines=options.defines,
                                          extra_flags=options.flags, link_libs=options.link_libs, name=options.name,
                                          source_root=self.source_root)
            except CompileError as exc:
                self._raise_hinted(exc, self.text, self.source)
                raise
            options = self.backend.after_link(self, so, sources, options)
        self.so_path = so
        self._lib = _dlopen(so, self.source_root)
        for inst in instances:
            self._register(inst)

    def _raise_hinted(self, exc: CompileError, text: str, source: str) -> None:
        """Raise `exc` with the advanced-API hint when this builtin-backend source includes the library's
        headers (the raw "No such file" alone does not say where to go); else return."""
        hint = self.backend.compile_hint(text, source)
        if hint:
            raise CompileError(f"{exc}\n{hint}") from exc

    def _wrapped_extra_sources(self) -> list:
        """The program's other source files, each behind the wrapper's prelude (their <<<>>> launches rewritten)."""
        extra = []
        for s in self.extra_sources:
            s_text = s.read_text(errors="replace")
            path = host_rewrite.compilable_copy(s_text, str(s)) if has_launches(s_text) else s
            digest = hashlib.sha256(s_text.encode()).hexdigest()
            extra.append(build.SourceText(wrapper.prelude_source(str(path), digest, self.user_defines),
                                          f"<ascgen wrapper of {s.name}>"))
        return extra

    def _register(self, instance: str) -> KernelInfo:
        kernel = self.info.kernel(instance)
        if kernel is None:      # instances come from the analysis of this source, so it always has them
            raise SpecError(f"{self.source}: kernel {instance!r} is not among the analysed kernels")
        sig = self.symbol(wrapper.sig_symbol(instance), ctypes.c_char_p)
        entry = self.symbol(self.backend.entry_symbol(instance))
        kinds = tuple(k for k in sig().decode().split(",") if k)
        info = KernelInfo(instance, kernel, kinds, _address(entry))
        self._kernels[instance] = info
        return info

    def symbol(self, name: str, restype=None):
        """A function of the loaded module by name (SpecError if the module lacks it)."""
        return _symbol(self._lib, self.so_path, name, restype)

    def host_main(self) -> int:
        """Address of the program's renamed `main` (modules built with host_main=True): int(*)(int, char**)."""
        return _address(self.symbol(wrapper.HOST_MAIN_SYMBOL, ctypes.c_int))

    def install_crash_handler(self) -> None:
        """Isolated workers only: report a crash (signal) with core and code offset before dying."""
        self.symbol(wrapper.CRASH_HANDLER_SYMBOL)()

    # ---- queries ---------------------------------------------------------------------------------

    @property
    def kernels(self) -> tuple[str, ...]:
        """Names of the kernels defined by the source (templates without arguments)."""
        return tuple(k.name for k in self.info.kernels)

    def kernel_type(self, name: str) -> str:
        return self.kernel_type_override or self._kernel_info(name).kernel.kernel_type

    def _kernel_info(self, name: str) -> KernelInfo:
        if not isinstance(name, str):
            known = ", ".join(self.kernels) or "none"
            raise SpecError(f"the kernel name must be a string; got {name!r} ({type(name).__name__}). "
                            f"Kernels of {self.source}: {known}.")
        name = " ".join(name.split())
        with self._lock:
            found = self._kernels.get(name)
            if found is not None:
                return found
            kernel = self.info.kernel(name)
            if kernel is None:
                known = ", ".join(self.kernels) or "none"
                raise SpecError(f'{self.source} has no kernel "{name}" (kernels: {known}). '
                                "Hint: kernels are functions declared __global__.")
            if kernel.template is not None and "<" not in name:
                raise SpecError(f'kernel "{name}" in {self.source} is a template <{kernel.template}>; '
                                f'name an instance, e.g. launch("{name}<...>", ...).')
            # A template instance not compiled yet: rebuild the wrapper with it (cached by content).
            wanted = [*self._kernels, name]
            self._build(wanted)
            return self._kernels[name]

    # ---- launching -------------------------------------------------------------------------------

    def set_tiling_key(self, key: int) -> None:
        """The value TILING_KEY_IS(k) compares with, for this module's next launches (one per module)."""
        if isinstance(key, bool) or not isinstance(key, int) or not 0 <= key < 2 ** 64:
            raise SpecError(f"tiling_key must be an integer in [0, 2**64); got {key!r}")
        try:
            ctypes.c_uint64.in_dll(self._lib, "ascgen_tiling_key").value = key
        except ValueError as exc:
            raise SpecError(f"{self.source}: the module has no tiling key variable (ascgen_tiling_key); "
                            "is kernel_operator.h included?") from exc

    def task(self, name: str, block_dim: int, *args, kernel_type: str | None = None,
             tiling_key: int | None = None, extra_buffers=()) -> BoundTask:
        """Bind `args` to kernel `name` and return the Task (for SuperKernel.add and launch).
        `extra_buffers`: arrays (a sequence, or a dict name -> array) the kernel reaches only through
        addresses stored in its arguments (a TensorList's ListTensorDesc, a pointer table): registered as GM
        of the launch, so their accesses are checked and race-recorded like an argument's."""
        core = _core()
        info = self._kernel_info(name)
        if tiling_key is not None:
            self.set_tiling_key(tiling_key)
        if isinstance(block_dim, bool) or not isinstance(block_dim, int) or block_dim < 1:
            raise SpecError(f'{name}: block_dim must be a positive integer; got {block_dim!r}')
        ktype = kernel_type or self.kernel_type_override or info.kernel.kernel_type
        if ktype not in KERNEL_TYPES:
            raise SpecError(f"kernel_type {ktype!r} is not one of {', '.join(KERNEL_TYPES)}")
        self.backend.check_launch(self, ktype, block_dim)
        bound = binding.bind(name, info.params, list(info.kinds), args, getattr(info.kernel, "gm_casts", ()))
        for pname, arr in self.backend.hidden_buffers(self, info):
            binding.append_buffer(bound, pname, arr)
        extras = _extra_buffers(name, extra_buffers, bound.buffers)
        n = len(bound.slots)
        slots = _ffi().new("uint64_t[]", max(n, 1))
        argv = _ffi().new("void*[]", max(n, 1))
        for i, v in enumerate(bound.slots):
            slots[i] = v
            argv[i] = slots + i
        task = core.Task(name=name, entry=info.entry, args=argv, block_dim=block_dim, kernel_type=ktype,
                         uses_wait=self.info.uses_wait, uses_set=self.info.uses_set,
                         uses_sync_all=self.info.uses_sync_all, source=self.source)
        buffers = tuple(core.GmBuffer(name=pname, address=arr.ctypes.data, nbytes=arr.nbytes,
                                      dtype=arr.dtype.name) for pname, arr in [*bound.buffers, *extras])
        return BoundTask(task, buffers, (slots, argv, *bound.keepalive, *(a for _, a in extras), self),
                         tuple(bound.readonly), slots, tuple(bound.pointers))

    def launch(self, name: str, block_dim: int, *args, kernel_type: str | None = None,
               time_limit_s: float = 60.0, detect_races: bool = False, schedule_seed: int | None = None,
               isolated: bool = False, timeline: bool = False, tiling_key: int | None = None,
               extra_buffers=()) -> RunResult:
        """Run kernel `name` on `block_dim` blocks; arrays are written in place. Returns core.RunResult.
        `isolated=True` runs it in a subprocess so a crash raises KernelCrashError (isolate.py).
        `extra_buffers`: GM the kernel reaches through addresses in its arguments (see task())."""
        time_limit_s = limits.time_limit(time_limit_s)
        if isolated and len(extra_buffers):
            raise SpecError(f"{name}: extra_buffers cannot be used with isolated=True: the addresses stored in "
                            "the kernel's descriptors are this process's, and the isolated worker runs on copies")
        if isolated:
            from ascgen.runtime import isolate
            return isolate.launch(self, name, block_dim, args, kernel_type=kernel_type, time_limit_s=time_limit_s,
                                  tiling_key=tiling_key)
        core = _core()
        bound = self.task(name, block_dim, *args, kernel_type=kernel_type, tiling_key=tiling_key,
                          extra_buffers=extra_buffers)
        with gm_guard.guarded([bound]) as guard:
            request = core.RunRequest(product=self.product, tasks=(bound.task,), buffers=guard.buffers(bound.buffers),
                                      detect_races=detect_races, schedule_seed=schedule_seed,
                                      time_limit_s=time_limit_s, timeline=timeline)
            try:
                result = core.run(request)
            except KernelError as exc:
                locate_at_definition(exc, self._kernel_info(name).kernel)
                raise
            guard.finish(name)
        binding.check_untouched(name, bound.readonly)
        del bound                       # the arrays stay alive in the caller; slots may go now
        return result

    def __repr__(self) -> str:
        return f"<ascgen Module {self.source} on {self.product.id} ({self.backend.name}): {', '.join(self.kernels)}>"


def _extra_buffers(kernel: str, extra, arg_buffers) -> list:
    """(name, array) of Module.task's extra_buffers, checked: C-contiguous numpy arrays, none overlapping
    another buffer of the launch (the core registers each as one allocation)."""
    import numpy as np
    items = list(extra.items()) if isinstance(extra, dict) else [(f"extra_buffers[{i}]", a) for i, a in enumerate(extra)]
    out = []
    spans = [(a.ctypes.data, a.ctypes.data + a.nbytes, n) for n, a in arg_buffers]
    for bname, arr in items:
        if not isinstance(arr, np.ndarray) or not arr.flags.c_contiguous or arr.nbytes == 0:
            raise SpecError(f"{kernel}: {bname} must be a non-empty C-contiguous numpy array; got "
                            f"{type(arr).__name__}{'' if not isinstance(arr, np.ndarray) else ' ' + str(arr.shape)}")
        lo, hi = arr.ctypes.data, arr.ctypes.data + arr.nbytes
        for s_lo, s_hi, other in spans:
            if lo < s_hi and s_lo < hi:
                raise SpecError(f"{kernel}: {bname} overlaps {other}, already a GM buffer of this launch; pass "
                                "each array once")
        spans.append((lo, hi, str(bname)))
        out.append((str(bname), arr))
    return out
