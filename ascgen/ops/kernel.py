"""An operator's kernel, built as its repository builds it, and launched with what its host tiling produced.

The build follows the op build of CANN's operator repositories:

* the kernel source for a product: the `add_kernel_sources(KERNEL_SRC arch35/add.cpp COMPUTE_UNITS
  ascend950 ...)` entry for the product in the op's CMakeLists (ops-math) or op_kernel's (ops-nn), else `op_kernel/<opFile>.cpp` with the
  definition's `opFile.value` for the product (ops-nn: `add_rms_norm_apt` on ascend950), else
  `op_kernel/<op>.cpp`;
* the include path and kernel tree of the repository's CMake (ut/plan.kernel_include_path: the op's and its
  dependency ops' op_kernel copied under `${ASCEND_KERNEL_SRC_DST}/<op>`, so `#include "../rms_norm/x.h"`
  resolves, and the common kernel folders); the dependency ops are the op_host CMakeLists'
  `add_modules_sources(... DEPENDENCIES norm_common rms_norm)`;
* the generated tiling header (source/op_tiling.py: the op_host tiling classes as structs, GET_TILING_DATA),
  force-included as the build does;
* per binary, `-DDTYPE_<NAME>=<C type>`, `-DORIG_DTYPE_<NAME>=DT_...`, `-DFORMAT_<NAME>=FORMAT_...` for every
  input and output (an output named like an input gets the `_REF` suffix), as `ascendc_impl_build.py` writes
  them (ops/dtypes.py holds the types), and `__CCE_KT_TEST__`, the macro of CANN's CPU-debug builds;
* one binary per tiling key, as the op compiler builds them: `-DTILING_KEY_VAR=<key>` (keyed()).

The launch passes the kernel's parameters in the op build's order: the inputs, the outputs, the workspace,
the tiling data; the block dim and the tiling key are the tiling function's.
"""
from __future__ import annotations

import functools
import os
import subprocess
import threading
import warnings
import weakref
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from ascgen import config, products
from ascgen.errors import OpTilingError, SpecError
from ascgen.ops import dtypes, host_build, tpl
from ascgen.source import op_tiling
from ascgen.ut import cmake, plan

_modules: dict = {}
_modules_lock = threading.Lock()


def kernel_source(op_dir: Path, product) -> Path:
    """The kernel source the op build compiles for the product (module docstring)."""
    kernel_dir = op_dir / "op_kernel"
    if not kernel_dir.is_dir():
        raise OpTilingError(f"{op_dir}: no op_kernel folder, so no kernel to run (an operator folder holds "
                            "op_kernel/ with its kernel source beside op_host/)")
    # add_kernel_sources is called in the op's CMakeLists or in op_kernel's (ops-nn's func.cmake takes both,
    # KERNEL_SRC relative to op_kernel either way: vfusion/modulate's arch35 kernel is named in op_kernel's)
    declared = cmake.declared_kernel(op_dir, product.id)
    if declared is not None:
        return declared
    stem = plan.op_file(op_dir, op_dir.name, product.id)
    for name in ([stem] if stem else []) + [op_dir.name]:
        if (kernel_dir / f"{name}.cpp").is_file():
            return kernel_dir / f"{name}.cpp"
    raise OpTilingError(f"{op_dir.name}: no kernel source for {product.id}: neither an add_kernel_sources entry "
                        f"for it in CMakeLists.txt nor op_kernel/{(stem + '.cpp or ') if stem else ''}"
                        f"{op_dir.name}.cpp")


def binary_defines(definition, ins, outs) -> dict:
    """The DTYPE_ / ORIG_DTYPE_ / FORMAT_ macros of the binary for these tensors (ascendc_impl_build.py)."""
    defines: dict = {}
    names = set()
    for kind, tensors in (("input", ins), ("output", outs)):
        for i, t in enumerate(tensors):
            if t is None:
                continue            # an optional input left out: no macros (ascendc_impl_build skips it too)
            name = (definition.input_name(i) if kind == "input" else definition.output_name(i)).upper()
            if kind == "input":
                names.add(name)
            elif name in names:
                name += "_REF"
            where = f"{definition.op_type} {kind} {i} ({name.lower()})"
            defines[f"DTYPE_{name}"] = dtypes.kernel_type(t.dtype, where)
            defines[f"ORIG_DTYPE_{name}"] = t.dtype
            defines[f"FORMAT_{name}"] = t.format
    return defines


@dataclass(frozen=True)
class KernelBuild:
    source: Path
    include_dirs: tuple[Path, ...]
    tiling_header: Path
    defines: tuple[tuple[str, str], ...]
    flags: tuple[str, ...]


def kernel_build(op_dir: Path, product, definition, ins, outs, extra_defines: dict | None = None) -> KernelBuild:
    op_dir = Path(op_dir).resolve()
    repository = host_build.repository_of(op_dir)
    deps = host_build.dependencies(op_dir)
    rule = cmake.Rule(repository, op_dir.name, (), (), deps, op_dir / cmake.UT_SUBDIR, op_dir, False,
                      f"{op_dir}/op_host/CMakeLists.txt")

    devkit = config.asc_devkit()
    if devkit is None:
        raise SpecError(f"running {op_dir.name}'s kernel needs the asc-devkit tree: {config.ASC_DEVKIT_HINT}")
    dep_dirs = [d for d in (host_build.op_folder(repository, op_dir, name) for name in deps) if d is not None]
    variables, include_dirs = plan.kernel_include_path(rule)
    # Compiled from its copy in the kernel tree, as the build does: a header's `#include "../../rms_norm/x.h"`
    # resolves against the copy's neighbours; the debug information names the original files again.
    copies = Path(variables[plan.KERNEL_SRC_DST])
    source = kernel_source(op_dir, product)
    prefix_maps = [f"-ffile-prefix-map={copy}={original}" for copy, original in plan.copy_maps(rule, variables)]
    text = op_tiling.kernel_tiling_header(op_dir, asc_devkit=devkit, op_type=definition.op_type,
                                          search_dirs=(repository,), dependency_ops=dep_dirs,
                                          skip_dirs=cmake.other_tiling_dirs(op_dir, product.id))
    header = plan.cached_text(f"tiling/{op_dir.name}", f"{op_dir.name}_tiling_data.h", _c_data_types() + text)
    defines = {**binary_defines(definition, ins, outs), "__CCE_KT_TEST__": "1",
               **{k: None if v is None else str(v) for k, v in (extra_defines or {}).items()}}
    return KernelBuild(copies / op_dir.name / source.relative_to(op_dir / "op_kernel"), tuple(include_dirs), header,
                       tuple(sorted(defines.items())), tuple(prefix_maps))


def keyed(build: KernelBuild, key: int) -> KernelBuild:
    """The build of one tiling key's binary. The op compiler compiles the kernel once per key with
    -DTILING_KEY_VAR=<key> (the library's kernel_utils_macros.h then declares no g_tilingKey), so
    `TILING_KEY_IS(k)` is a constant, the other keys' branches are not compiled, and `#if TILING_KEY_VAR == k`
    (ops-nn quant_matmul_reduce_sum, ops-math top_k_v2) sees the key: read as g_tilingKey, an identifier the
    preprocessor takes for 0, it would always take key 0's side."""
    return replace(build, defines=tuple(sorted({**dict(build.defines), "TILING_KEY_VAR": str(key)}.items())))


def _c_data_types() -> str:
    """The include of metadef's C data type enumerators for the kernel's tiling header: a tiling-key header's
    ASCENDC_TPL_DATATYPE_DECL names them (tpl.c_types_header), and CANN's kernel build has them in scope (a UT
    building without it passes the ones it uses: ops-nn data_format_dim_map, -DC_DT_INT32=3). Empty without
    metadef: a kernel naming them then fails to compile with the name."""
    header = tpl.c_types_header()
    return f'#include "{header}"\n' if header is not None else ""


def module(build: KernelBuild, product):
    """The devkit Module of a kernel build, one per build in this process (the compile itself is cached)."""
    from ascgen.runtime.module import Module
    from ascgen.runtime.program import program_flags
    key = (build, products.get(product).id)
    with _modules_lock:
        found = _modules.get(key)
        if found is None:
            defines = dict(build.defines)
            path = build.source          # the copy's own path, not the file it links to (kernel_build)
            found = Module(path.read_text(errors="replace"), str(path), path, product, defines=defines, include_dirs=build.include_dirs,
                           extra_flags=(*program_flags([build.tiling_header], defines=defines), *build.flags),
                           backend="devkit")
            _modules[key] = found
    return found


def entry_name(mod, op_dir: Path) -> str:
    """The kernel entry: the one the module defines named after the op folder, else its only one."""
    return entry_of(mod.kernels, mod.source, op_dir)


def entry_of(names, source, op_dir: Path) -> str:
    """The entry among a source's kernel names: the one named after the op folder, else the only one."""
    if op_dir.name in names:
        return op_dir.name
    if len(names) == 1:
        return names[0]
    raise OpTilingError(f"{source}: defines the kernels {', '.join(names)}; none is named {op_dir.name}")


def source_info(build: KernelBuild, product):
    """The source analysis of the kernel (its entries, template or not) without compiling it: the analysis
    the Module of the build runs, with the same include path and macros (so the same cached result)."""
    from ascgen.runtime import analysis, backends
    from ascgen.runtime.module import arch_defines
    prod = products.get(product)
    backend = backends.create("devkit")
    include_dirs = [*(Path(d).resolve() for d in build.include_dirs), *backend.analysis_include_dirs(),
                    build.source.parent]
    defines = {**backend.analysis_defines(prod), **arch_defines(prod), **dict(build.defines)}
    return analysis.analyse_source(build.source.read_text(errors="replace"), str(build.source), include_dirs,
                                   defines)


def instance(mod, name: str, build: KernelBuild, product, key: int) -> str:
    """The kernel to launch for a tiling key: the entry itself, or for a template kernel the instance its
    ASCENDC_TPL declaration decodes the key into (ops/tpl.py)."""
    entry = mod.info.kernel(name)
    if entry is None or entry.template is None:
        return name
    template = template_of(build, product, f"{mod.source}: kernel {name} is a template <{entry.template}>",
                           f"tiling key {key}")
    return tpl.instance_name(name, tpl.decode(key, list(template.arguments), f"{template.header}"))


def template_of(build: KernelBuild, product, what: str, purpose: str) -> tpl.Template:
    """The ASCENDC_TPL declaration of a template kernel: the header declaring ASCENDC_TPL_ARGS_DECL among
    those the kernel source includes as the build compiles it (its `#if`s honoured), read with the build's
    include path and macros. Not any header of the folder: ops-math is_finite keeps its ascend950
    declaration in op_kernel/arch35/ beside the ascend910b one, and taking the first by name decoded a
    910b key with the 950 arguments. `what` / `purpose` name the kernel and what the declaration is needed
    for, in the errors."""
    from ascgen.runtime import build as builds
    include_dirs, defines = compile_path(build, product)
    included = _included_files(build.source, tuple(include_dirs), tuple(sorted(defines.items())),
                               build.tiling_header)
    declaring = [h for h in included if h.suffix in (".h", ".hpp") and tpl.declaration_header([h]) is not None]
    if not declaring:
        raise OpTilingError(f"{what}, and no header it includes declares its arguments (ASCENDC_TPL_ARGS_DECL) "
                            f"to select an instance for {purpose}")
    if len(declaring) > 1:
        raise OpTilingError(f"{what}: the headers it includes declare ASCENDC_TPL_ARGS_DECL more than once "
                            f"({', '.join(map(str, declaring))}); which one selects the instance for {purpose} "
                            "is not known")
    return tpl.read_template(declaring[0], builds.find_preprocessor(), [build.source.parent, *include_dirs],
                             defines)


@functools.lru_cache(maxsize=64)
def _included_files(source: Path, include_dirs: tuple, defines: tuple, forced: Path) -> tuple[Path, ...]:
    """The files the source includes (the preprocessor's dependency list), outside the library's and
    ascgen's own folders, each once."""
    from ascgen.runtime import build as builds
    flags = [f"-I{d}" for d in include_dirs] + [f"-D{k}={v}" for k, v in defines]
    proc = subprocess.run([builds.find_preprocessor(), "-std=c++17", "-M", "-MG", "-x", "c++", *flags,
                           "-include", str(forced), str(source)], capture_output=True, text=True)
    if proc.returncode != 0:
        raise OpTilingError(f"{source}: listing the headers it includes failed:\n" + proc.stderr[-2000:])
    library = library_roots()
    seen: dict[str, Path] = {}
    for word in proc.stdout.replace("\\\n", " ").split()[1:]:
        real = os.path.realpath(word)
        if not any(real.startswith(root + os.sep) for root in library):
            seen.setdefault(real, Path(word))
    return tuple(seen.values())


def library_roots() -> tuple[str, ...]:
    """Folders whose files are not the op's: the library's tree and ascgen's runtime headers (real paths)."""
    from ascgen import resources
    from ascgen.runtime.backends.devkit import toolchain
    return tuple(os.path.realpath(p) for p in (toolchain.tree(), resources.runtime_dir()))


def compile_path(build: KernelBuild, product) -> tuple[list[Path], dict]:
    """The include folders and macros the devkit backend compiles the kernel with, in its order (the
    library's folders, ascgen's, the op's, the common one; the product's macros, then the binary's):
    to read the source as the build sees it."""
    from ascgen import resources
    from ascgen.runtime.backends.devkit import toolchain
    from ascgen.runtime.module import arch_defines
    prod = products.get(product)
    include_dirs = [*toolchain.include_dirs(toolchain.tree()), *resources.include_dirs(), *build.include_dirs,
                    resources.common_dir()]
    return include_dirs, {**arch_defines(prod), **toolchain.defines(prod), **dict(build.defines)}


# aclrtMalloc's rounding: the size up to a multiple of 32 bytes, plus 32 bytes (CANN's runtime API reference,
# aclrtMalloc / aclrtMallocAlign32: "ALIGN_UP[len,32]+32"). Kernels rely on it: a tail tile copied with a
# 32-byte-aligned length (DataCopy) reads and writes into that slack, which on the device is the tensor's own.
ALLOC_ALIGN = 32
POISON = 0xFF
# The allocations device_array() handed out: id -> (weak reference, the tensor's bytes). A tensor passed to a
# later launch is recognised by its memory, so two tasks given the same array share one GM allocation.
_allocations: dict[int, tuple[weakref.ref, int]] = {}


def device_buffer(shape, dtype, fill: int = POISON, data: np.ndarray | None = None):
    """(the buffer the kernel gets, the tensor's view of it): a GM tensor as aclrtMalloc would allocate it,
    `data` copied in, the rest `fill` bytes. 0xFF (the default, the device does not clear memory) is NaN in
    every float type and -1 in every signed integer, so an element the kernel never writes shows."""
    dtype = np.dtype(dtype)
    nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    total = -(-max(nbytes, 1) // ALLOC_ALIGN) * ALLOC_ALIGN + ALLOC_ALIGN
    raw = np.full(total, fill, np.uint8)
    view = raw[:nbytes].view(dtype).reshape(shape)
    if data is not None:
        view[...] = data
    return _whole(raw, dtype), view


def _whole(raw: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """The allocation as the kernel's GM buffer: in the tensor's type where the size allows."""
    return raw.view(dtype) if raw.nbytes % dtype.itemsize == 0 else raw


def device_array(shape, dtype, data: np.ndarray | None = None) -> np.ndarray:
    """A tensor in device memory, for outputs and chained tensors: a numpy array of `shape` and `dtype`
    whose allocation has aclrtMalloc's slack behind it and starts poisoned (device_buffer). Given as an
    output of one operator and as an input of the next, it is the same GM memory for both (docs/ops.md,
    "Operators in a SuperKernel")."""
    _, view = device_buffer(tuple(int(d) for d in shape), dtypes.numpy_of(dtypes.enum_of(dtype, "device_array"),
                                                                           "device_array"), data=data)
    raw = view.base
    key = id(raw)

    def forget(_: weakref.ref) -> None:
        _allocations.pop(key, None)

    _allocations[key] = (weakref.ref(raw, forget), view.nbytes)
    return view


def allocation_of(array, where: str) -> np.ndarray | None:
    """The whole device allocation behind `array` (as the kernel's GM buffer) when device_array() made it,
    else None. Part of such an allocation is refused: the kernel would get a pointer into the middle of it."""
    if not isinstance(array, np.ndarray):
        return None
    root = array
    while isinstance(root.base, np.ndarray):
        root = root.base
    entry = _allocations.get(id(root))
    if entry is None or entry[0]() is not root:
        return None
    if array.ctypes.data != root.ctypes.data or not array.flags.c_contiguous or array.nbytes != entry[1]:
        raise SpecError(f"{where}: the array is a part of a device_array ({array.shape} of its {entry[1]} bytes); "
                        "pass the whole array device_array() returned (a reshape of it is fine): the kernel gets "
                        "the allocation from its start")
    return _whole(root, array.dtype)


@dataclass
class Prepared:
    """One launch of the op's kernel, ready: the module, the instance, the arguments in the op build's order
    (inputs, outputs, workspace, tiling; None: nullptr), the outputs as tensors. What Op.__call__ launches
    and what a SuperKernel task binds (ascgen.runtime.superkernel.TaskSpec)."""
    module: Any
    name: str
    block_dim: int
    tiling_key: int
    args: list
    outputs: list                   # the output tensors (views of their buffers)
    _unwritten: list                # (output index, buffer) to check after the run
    defines: dict                   # the load's extra macros (the unwritten-output hint names __CCE_AICORE__)

    def check_written(self, definition, product, stacklevel: int = 2) -> None:
        """UnwrittenOutput for every poisoned output the kernel left exactly as allocated."""
        for i, buffer in self._unwritten:
            if (buffer.view(np.uint8) == POISON).all():
                warnings.warn(UnwrittenOutput(_unwritten_text(definition, i, self.name, self.tiling_key, product,
                                                              self.defines)),
                              stacklevel=stacklevel + 1)


def prepare(op_dir: Path, product, definition, result, ins, in_specs, out_specs, outputs, *,
            defines: dict | None = None) -> Prepared:
    """Build (cached) the op's kernel for a TilingResult and allocate its GM as on the device: an input given
    as a device_array() is that memory, any other array is copied into a fresh allocation (device_buffer); an
    output is the device_array() given (`outputs`, beside its TensorSpec), else a fresh one. Fresh outputs
    start poisoned; every output is zeroed when the tiling asks for atomic accumulation (need_atomic: CANN's
    framework then clears them first); the workspace poisoned."""
    op_type = definition.op_type
    build = keyed(kernel_build(op_dir, product, definition, in_specs, out_specs, defines), result.tiling_key)
    mod = module(build, product)
    name = instance(mod, entry_name(mod, Path(op_dir)), build, product, result.tiling_key)
    params = mod._kernel_info(name).params
    want = len(ins) + len(out_specs) + 2
    if len(params) != want:
        raise OpTilingError(f"{mod.source}: kernel {name} takes {len(params)} parameters; the op build passes "
                            f"{want} ({len(ins)} inputs, {len(out_specs)} outputs, workspace, tiling)")
    args = [_input_buffer(a, f"{op_type} input {i} ({definition.input_name(i)})") for i, a in enumerate(ins)]
    views, unwritten = [], []
    for i, (given, spec) in enumerate(zip(outputs, out_specs)):
        where = f"{op_type} output {i} ({definition.output_name(i)})"
        buffer = allocation_of(given, where)
        view = given
        if buffer is None:
            buffer, view = device_buffer(spec.shape, dtypes.numpy_of(spec.dtype, where))
        if result.need_atomic:
            buffer.view(np.uint8)[...] = 0
        else:
            unwritten.append((i, buffer))
        args.append(buffer)
        views.append(view)
    workspace, _ = device_buffer((sum(result.workspace_sizes),), np.uint8)
    tiling, _ = device_buffer((len(result.tiling_data),), np.uint8, data=np.frombuffer(result.tiling_data, np.uint8))
    # GM is untyped: bound as bytes, so a kernel reading its tensor through another element type of the same
    # memory (is_finite tests a half's bits as int16_t) is not refused by the binding's cast check; the
    # tensors' types were checked against the op's definition before the tiling ran.
    args = [None if a is None else a.view(np.uint8) for a in args]
    return Prepared(mod, name, result.block_dim, result.tiling_key, [*args, workspace, tiling], views, unwritten,
                    dict(defines or {}))


def _input_buffer(array, where: str):
    if array is None:
        return None                                     # an optional input left out: nullptr
    found = allocation_of(array, where)
    return found if found is not None else device_buffer(array.shape, array.dtype, data=array)[0]


def launch(op_dir: Path, product, definition, result, ins, in_specs, out_specs, outputs, *,
           time_limit_s: float = 60.0, defines: dict | None = None):
    """Build (cached) and launch the op's kernel with a TilingResult (prepare); the outputs as numpy arrays:
    a device_array() given as an output is returned itself, any other output as a copy of its tensor."""
    ready = prepare(op_dir, product, definition, result, ins, in_specs, out_specs, outputs, defines=defines)
    ready.module.launch(ready.name, ready.block_dim, *ready.args, tiling_key=ready.tiling_key,
                        time_limit_s=time_limit_s)
    ready.check_written(definition, products.get(product), stacklevel=3)
    return [view if view is given else view.copy() for view, given in zip(ready.outputs, outputs)]


class UnwrittenOutput(UserWarning):
    """The kernel left an output exactly as allocated: on the device it would hold whatever the memory held."""


def _unwritten_text(definition, i: int, kernel: str, key: int, product, defines: dict) -> str:
    aicore = defines.get("__CCE_AICORE__", product.cce_aicore)
    hint = (f" The kernel was compiled with __CCE_AICORE__={aicore} ({product.id}"
            + (", set by the load's defines" if "__CCE_AICORE__" in defines else "") + "): if its body is under "
            "`#if __CCE_AICORE__ == ...` for another value, it was compiled out.") if aicore is not None else (
            f" {product.id} has no __CCE_AICORE__ in ascgen's product table, so a kernel body under "
            "`#if __CCE_AICORE__ == ...` is compiled out; if that is the cause, load the op with "
            "defines={'__CCE_AICORE__': <value>}")
    return (f"{definition.op_type}: kernel {kernel} wrote no element of output {i} ({definition.output_name(i)}) "
            f"for tiling key {key}: the result is the poison it was allocated with (0xFF bytes), as on the device "
            f"it would be stale memory.{hint}")
