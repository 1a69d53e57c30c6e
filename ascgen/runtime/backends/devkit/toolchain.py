"""The devkit backend's toolchain: kernels compiled against the real Ascend C library (asc-devkit) in its CPU-debug
configuration, with ascgen's own CPU model below the CCE intrinsics (runtime/devkit, see docs/devkit.md).

The library tree is found only through config.asc_devkit() (ASCGEN_ASC_DEVKIT); it is never copied into the project. What this
module adds to a builtin build (backends/builtin.py):

* include path: runtime/devkit/include (the CPU-model headers), the library's generated
  kernel_tiling/kernel_tiling.h (made by the tree's own script into the cache) and `lib/` (the advanced
  API's headers in CANN's installed layout: links into the tree's include/adv_api), the library's folders,
  then runtime/include (acl/, ascgen/) last, so `kernel_operator.h` is the library's;
* -DASCENDC_CPU_DEBUG=1 -D__NPU_ARCH__=<arch> -DASCGEN_DEVKIT=1, -fvisibility=hidden -fno-gnu-unique
  (one module copy per core, runtime/devkit/include/ascgen_devkit/copies.h), -g1 -fno-omit-frame-pointer
  (reports name the user's line from the intrinsic's return addresses, ascgen_devkit/site.h);
* a precompiled header of the library per product and flag set, built once into the cache;
* a check that the module needs no intrinsic the model lacks: an undefined symbol is a CompileError
  naming the intrinsic and, from a relink with -z defs, the library function that calls it.
"""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from ascgen import config, console, products, resources
from ascgen.errors import CompileError, SpecError, UnsupportedProductError
from ascgen.runtime import build
from ascgen.runtime.backends.devkit import intrinsics as devkit_intrinsics
from ascgen.runtime.backends.devkit import layout as devkit_layout
from ascgen.runtime.build import cache as cache_folder

# The architectures whose intrinsics the CPU model implements: the intrinsic table's columns (dav_m200: those
# it shares with dav_c220 in the same form; dav_3510: its register ISA, runtime/devkit/include/ascgen_devkit/
# dav3510; the others are declared only, so a kernel reaching one is refused by name at load time).
SUPPORTED_ARCHES = devkit_intrinsics.ARCH_NAMES
# Why the other architectures are refused: what their CPU mode needs that the model lacks (docs/devkit.md).
REFUSED_ARCHES = {
    3002: "dav_m300: not investigated yet",
    1001: "dav_c100: not investigated yet",
}         # the model implements this architecture's intrinsics
# The library's own include folders in its CPU-debug configuration, relative to the tree.
LIBRARY_DIRS = ("include", "include/adv_api", "include/adv_api/matmul", "include/aicpu_api", "include/basic_api",
                "include/c_api", "include/simt_api", "include/utils", "impl", "impl/adv_api", "impl/basic_api",
                "impl/c_api", "impl/simt_api", "impl/utils", ".")
TILING_SCRIPT = "impl/adv_api/cmake/scripts/gen_kernel_tiling_data_def.py"
# -fno-strict-aliasing: kernel code copies structs through other pointer types (softmaxflashv3 reads its
# tiling struct as uint32_t words into a struct holding a float); GCC's type-based aliasing at -O2 drops
# such a store, so the emulator would run a different program than the device does.
MODEL_FLAGS = ("-fvisibility=hidden", "-g1", "-fno-omit-frame-pointer", "-fno-strict-aliasing",
               "-Wno-return-type")   # -Wno-return-type: the library has no-return paths
PCH_NAME = "ascgen_devkit_pch.h"


def model_flags() -> tuple[str, ...]:
    """MODEL_FLAGS plus the kernel modules' native flags (build.native_flags: AVX2 for the vector engine's
    flat loops and gemm.h, -ffp-contract=off so no float op is fused); the PCH is built with the same."""
    return (*MODEL_FLAGS, *_unique_flags(), *build.native_flags())


def _unique_flags() -> tuple[str, ...]:
    """GCC marks a template's static data STB_GNU_UNIQUE, which makes dlopen merge it across the per-core
    module copies (one UB for all cores); -fno-gnu-unique keeps each copy's own. clang never emits such
    symbols, and rejects the flag."""
    return () if "clang" in build.compiler_identity(build.find_compiler()).lower() else ("-fno-gnu-unique",)


def tree() -> Path:
    """The asc-devkit tree (config.asc_devkit(): ASCGEN_ASC_DEVKIT or a CANN installation), or SpecError
    saying how to provide it."""
    value = config.asc_devkit()
    if value is None:
        raise SpecError(f"the devkit backend needs the asc-devkit library: {config.ASC_DEVKIT_HINT}")
    root = Path(value).expanduser().resolve()
    if not (root / "include" / "kernel_operator.h").is_file() or not (root / "impl").is_dir():
        raise SpecError(f"{value} is not an asc-devkit tree (no include/kernel_operator.h and impl/): "
                        f"{config.ASC_DEVKIT_HINT}")
    return root


def check_product(product) -> None:
    if product.npu_arch in SUPPORTED_ARCHES:
        return
    have = "; ".join(f"{name} ({', '.join(p.id for p in products.all() if p.npu_arch == arch)})"
                     for arch, name in SUPPORTED_ARCHES.items())
    why = REFUSED_ARCHES.get(product.npu_arch, "an architecture the model does not know")
    raise UnsupportedProductError(
        f"the devkit backend does not support {product.id} (__NPU_ARCH__ {product.npu_arch}, {why}). Its CPU model "
        f"implements {have}. Use backend='builtin' for {product.id} (docs/devkit.md, \"Products\").")


# dav_3510's Matmul inputs the model cannot run faithfully, refused at load time naming the line (only the
# direct spelling Matmul<MatmulType<TPosition::X, ...>, MatmulType<...>> is recognised):
# * UB (VECIN / VECOUT / VECCALC). The library's CPU build has no ENABLE_CV_COMM_VIA_SSBUF, so its dav_3510
#   Matmul runs the workspace mode: the client copies a UB input to GM as a flat tensor and the server reads
#   it back with the matrix's own row stride, so rows padded in UB land shifted (matmul_vecout: K = 31
#   halves, 930 of 961 results wrong). The SSBUF mode, which copies UB straight into L1, is not modelled.
# (TSCM runs: the AIVs' copy into the AIC's L1 is ordered after the AIC's TPipe fill, ascgen_devkit/peer.h.)
_MATMUL_AB = re.compile(r"\bMatmul\s*<\s*(?:AscendC::)?MatmulType\s*<\s*(?:AscendC::)?TPosition::(\w+)[^>]*>\s*,"
                        r"\s*(?:AscendC::)?MatmulType\s*<\s*(?:AscendC::)?TPosition::(\w+)", re.S)
_REFUSED_POSITIONS = {
    **dict.fromkeys(("VECIN", "VECOUT", "VECCALC"),
                    "in this CPU build the library's dav_3510 Matmul runs its workspace mode, which passes a UB "
                    "input through GM with the matrix's row stride instead of the UB's, so padded rows come out "
                    "shifted (wrong numbers); the SSBUF mode that copies UB straight into L1 is not modelled"),
}


def check_matmul_inputs(text: str, filename: str, product) -> None:
    if product.npu_arch != 3510:
        return
    for m in _MATMUL_AB.finditer(text):
        for name, pos in zip("AB", m.groups()):
            if pos in _REFUSED_POSITIONS:
                line = text.count("\n", 0, m.start()) + 1
                raise CompileError(
                    f"{filename}:{line}: a Matmul whose {name} input is in TPosition::{pos} on {product.id}: "
                    f"{_REFUSED_POSITIONS[pos]}. Put the input in GM, or use backend='builtin' (docs/devkit.md, "
                    "\"The dav_3510 cube\").")


def model_dir() -> Path:
    return resources.runtime_dir() / "devkit" / "include"


def _digest(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:16]


def _tree_stamp(root: Path) -> str:
    """Identifies the library version cheaply: the tree's path and the stamps of its top headers."""
    files = [root / "include" / "kernel_operator.h", root / "impl" / "basic_api" / "kernel_operator.h",
             root / TILING_SCRIPT]
    return _digest(str(root), *(f"{f}:{f.stat().st_mtime_ns}:{f.stat().st_size}" for f in files if f.exists()))


def _model_stamp() -> str:
    # The model's headers and the shared ones it includes: the precompiled library header depends on all of
    # them. The builtin library's folder is among them: the model includes its ascgen/host_icpu.h (dav_3510's
    # intrinsics.h, tikicpulib.h); left out, an edited host_icpu.h met the PCH's old copy (a redefinition
    # error where a source includes it again, the old code where it does not).
    folders = (model_dir(), *resources.include_dirs(), resources.common_dir())
    files = sorted(p for d in folders for p in d.rglob("*") if p.is_file())
    h = hashlib.sha256()
    for f in files:
        h.update(f.name.encode() + f.read_bytes())
    return h.hexdigest()[:16]


def tiling_dir(root: Path) -> Path:
    """The folder holding kernel_tiling/kernel_tiling.h, generated by the tree's own script (once), and
    `lib`, the advanced API's headers as CANN installs them (the examples include "lib/matmul_intf.h")."""
    out = config.cache_dir() / f"devkit-tiling-{_tree_stamp(root)}"
    _link_lib(out, root)
    header = out / "kernel_tiling" / "kernel_tiling.h"
    _record_use(out)
    if not header.is_file():
        header.parent.mkdir(parents=True, exist_ok=True)
        tmp = header.with_name(f".kernel_tiling.{os.getpid()}.h")
        proc = subprocess.run([sys.executable, str(root / TILING_SCRIPT), str(root / "include" / "adv_api"), str(tmp)],
                              capture_output=True, text=True, timeout=120)
        if proc.returncode != 0 or not tmp.is_file():
            raise CompileError(f"generating kernel_tiling.h with {root / TILING_SCRIPT} failed:\n{proc.stderr[-2000:]}")
        os.replace(tmp, header)
    return out


def _record_use(folder: Path) -> None:
    """A use of a folder the cache evicts whole (cache.WHOLE_FOLDERS: its newest mtime is its last use), on a
    file of its own: touching a header instead changed the mtime of a file the precompiled library header
    includes, which clang's PCH check refuses ("has been modified since the precompiled header was built")."""
    marker = folder / "last-use"
    try:
        marker.touch()
    except OSError:
        pass                       # a read-only cache: eviction order only


# The links CANN's install adds to the advanced API's headers (matmul_intf.h at the top, matrix/matmul...),
# as the tree's own install script declares them: file(CREATE_LINK <target> <base>/asc/include/adv_api/<path>).
ADV_API_LINKS = "impl/adv_api/cmake/kernel_headers.cmake"
_CREATE_LINK = re.compile(r"file\(\s*CREATE_LINK\s+(\S+)\s+\$\{ASCENDC_INSTALL_BASE_PATH\}/asc/include/adv_api/(\S+)"
                          r"\s+SYMBOLIC\s*\)")


def _link_lib(out: Path, root: Path) -> None:
    """out/lib: the installed layout of the advanced API's headers, as links into the tree (every header of
    include/adv_api, plus the install script's extra links). Built once, renamed into place whole."""
    lib = out / "lib"
    if lib.is_dir():
        return
    src = root / "include" / "adv_api"
    links = {f.relative_to(src): f for f in src.rglob("*") if f.is_file()}
    script = root / ADV_API_LINKS
    for target, path in _CREATE_LINK.findall(script.read_text(errors="replace") if script.is_file() else ""):
        resolved = Path(os.path.normpath(src / Path(path).parent / target))
        if resolved.exists():
            links.setdefault(Path(path), resolved)
    out.mkdir(parents=True, exist_ok=True)
    tmp = out / f".lib.{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    for rel, target in links.items():
        (tmp / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp / rel).symlink_to(target, target_is_directory=target.is_dir())
    try:
        os.rename(tmp, lib)      # atomic: a concurrent builder sees the folder whole or not at all
    except OSError:              # another process won the race
        shutil.rmtree(tmp, ignore_errors=True)


def installed_layout_dir(root: Path) -> Path:
    """CANN's installed header names over the tree, as links from the tree's own CMake rules (layout.py)."""
    out = devkit_layout.farm(root, config.cache_dir() / f"devkit-layout-{_tree_stamp(root)}")
    cache_folder.touch(out / devkit_layout.MARKER)   # a use of the folder (evicted whole: cache.WHOLE_FOLDERS)
    return out


def include_dirs(root: Path) -> list[Path]:
    # the installed layout last: it only serves names the library's own folders do not have
    return [model_dir(), tiling_dir(root), *(root / d for d in LIBRARY_DIRS),
            *devkit_layout.include_dirs(installed_layout_dir(root))]


# What the SuperKernel compiler defines so the library's SetNextTaskStart / WaitPreTaskEnd emit their flag
# sequences (early start V1). Always on: outside a SuperKernel the core treats the calls as no-ops, as it
# does for the builtin backend; runtime/devkit/include/ascgen_devkit/tasksync.h recognises the sequences.
SK_DEFINES = {"__ASCENDC_ENABLE_SET_NEXT_TASK_START": 1, "__ASCENDC_ENABLE_WAIT_PRE_TASK_END": 1,
              "__ASCENDC_SUPERKERNEL_EARLY_START_V1": 1}


def defines(product) -> dict:
    return {"ASCENDC_CPU_DEBUG": 1, "__NPU_ARCH__": product.npu_arch, "ASCGEN_DEVKIT": 1, **SK_DEFINES,
            # part of every flag list, so of every cache key: the model's headers and the library's version
            "ASCGEN_DEVKIT_STAMP": f"0x{_model_stamp()}{_tree_stamp(tree())[:8]}"}


# ---- precompiled header -----------------------------------------------------------------------------

def pch_flags(product, product_defines: dict) -> list[str]:
    """["-include", <header>] for a precompiled kernel_operator.h matching these flags, built once.
    GCC checks the PCH against each compile (-Winvalid-pch warns and falls back to the headers if a
    define the library tests differs), so user defines such as SCENARIO_NUM share one PCH."""
    if not config.devkit_pch():
        return []
    root = tree()
    incs = [*include_dirs(root), *resources.include_dirs()]
    flags = build.build_flags(incs, product_defines, model_flags())
    flags = [f for f in flags if f != "-shared"]
    compiler = build.find_compiler()
    cpu = build.host_cpu_id() if "-march=native" in flags else ""     # what -march=native compiled for
    key = _digest(*flags, build.compiler_identity(compiler), cpu)
    folder = config.cache_dir() / f"devkit-pch-{product.npu_arch}-{key}"
    header, gch = folder / PCH_NAME, folder / (PCH_NAME + ".gch")
    if gch.is_file():
        # a use: the cache's least-recently-used eviction (after another process's build) must not pick the
        # PCH a compile is about to read, nor make every later build precompile the library again
        cache_folder.touch(gch)
        return ["-include", str(header), "-Winvalid-pch"]
    folder.mkdir(parents=True, exist_ok=True)
    with build._lock(folder / "build.lock"):        # concurrent builders wait for one PCH, not build several
        _build_pch(compiler, flags, product, header, gch)
    return ["-include", str(header), "-Winvalid-pch"]


def _build_pch(compiler, flags, product, header: Path, gch: Path) -> None:
    folder = header.parent
    if not gch.is_file():
        header.write_text('// ascgen devkit backend: the library, precompiled\n#include "kernel_operator.h"\n')
        tmp = folder / f".{PCH_NAME}.{os.getpid()}.gch"
        with console.long_step(f"precompiling the Ascend C library for {product.id}",
                               expect="about 2 minutes, once per product"):
            proc = build.run_tool([compiler, *flags, "-x", "c++-header", str(header), "-o", str(tmp)])
        if proc.returncode != 0:
            tmp.unlink(missing_ok=True)
            raise CompileError("precompiling the asc-devkit headers failed:\n" + "\n".join(proc.stderr.splitlines()[:30]))
        os.replace(tmp, gch)


# ---- missing intrinsics -----------------------------------------------------------------------------

# The function an undefined symbol names (demangled): `[return type ]name[<template args>](...)`, the name
# global or in ascgen_devkit::unimpl (the forms dav3510/vconv.h forwards to).
_FUNCTION = re.compile(r"(?:[\w:]+ )?(?:ascgen_devkit::(?:unimpl::)?)?([A-Za-z_]\w*)(?:<.*>)?\(")


def _intrinsic(symbol: str) -> str | None:
    """The intrinsic an undefined symbol is: a name the intrinsic table declares (backends/devkit/intrinsics.py), or
    anything returning the declared-only ascgen_devkit::Missing (the SIMT stand-ins of dav3510/simt.h)."""
    m = _FUNCTION.match(symbol)
    if not m or m.group(1) == "operator":
        return None
    if m.group(1) in devkit_intrinsics.declared_names() or symbol.startswith("ascgen_devkit::Missing "):
        return m.group(1)
    return None


def undefined_symbols(so: Path) -> list[str]:
    """Undefined, unversioned symbols other than the core's (rt::): what the model does not provide."""
    proc = subprocess.run(["nm", "-D", "--undefined-only", "-C", str(so)], capture_output=True, text=True)
    out = []
    for line in proc.stdout.splitlines():
        name = line.strip()
        if not name.startswith("U "):
            continue
        name = name[2:]
        if "@" in name or name.startswith("ascgen::rt::"):
            continue
        out.append(name)
    return out


# Spellings that make a demangled parameter list readable: a mode constant as Name=value, the library's
# register wrappers by their element type.
_FORM_EDITS = ((re.compile(r"std::integral_constant<(\w+), \(\w+\)(-?\d+)>"), r"\1=\2"),
               (re.compile(r", (?:AscendC::Reg::)?RegTraitNumOne|AscendC::Reg::|ascgen_devkit::d3510::|&| const\b"), ""))


def _form(symbol: str) -> str:
    """The parameter list of a demangled symbol, shortened: `(VReg<float, 4>, float*, Dist=17)`, which tells
    the missing form of a partly modelled intrinsic (its types and mode constants)."""
    depth = 0
    for i in range(len(symbol) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(symbol[i], 0)
        if depth == 0:
            form = symbol[i:]
            for pattern, repl in _FORM_EDITS:
                form = pattern.sub(repl, form)
            return form
    return ""


def not_intrinsics(symbols) -> list[str]:
    """The undefined symbols that are no intrinsic or hook of the model: globals of the program or a library."""
    return sorted(s for s in symbols if "ascgen_devkit::Missing" not in s and not _intrinsic(s))


def missing_report(so: Path, relink=None) -> str | None:
    """A message naming every intrinsic/hook the module needs and the model lacks, or None; an intrinsic
    the model has some forms of is named with the forms it lacks."""
    symbols = undefined_symbols(so)
    if not symbols:
        return None
    intrinsics = sorted({name for s in symbols for name in [_intrinsic(s)] if name})
    forms = {name: sorted({_form(s) for s in symbols if _intrinsic(s) == name and "unimpl::" in s})
             for name in intrinsics}
    others = not_intrinsics(symbols)
    cmd = relink() if relink else None
    callers = _callers(cmd) if cmd else {}
    lines = []
    for name in intrinsics:
        who = callers.get(name)
        lines.append(f"  intrinsic {name}" + (f" [{'; '.join(forms[name])}]" if forms[name] else "") +
                     (f" (needed by {who})" if who else ""))
    lines += [f"  hook or global {s}" for s in others]
    return ("the devkit backend's CPU model does not implement what this kernel needs:\n" + "\n".join(lines) +
            "\nHint: use backend='builtin' for this kernel, or implement the intrinsic under runtime/devkit "
            "(docs/devkit.md).")


def _callers(cmd: list[str]) -> dict:
    """Relink with -z defs: the linker names the function that references each undefined intrinsic."""
    try:
        proc = subprocess.run([*cmd, "-Wl,-z,defs", "-Wl,--unresolved-symbols=report-all"], capture_output=True,
                              text=True, timeout=build.COMPILE_TIMEOUT_S)
    except subprocess.SubprocessError:
        return {}
    found: dict = {}
    func = None
    for line in proc.stderr.splitlines():
        m = re.search(r"in function [`'](.+)':?$", line)
        if m:
            func = m.group(1)
            continue
        m = re.search(r"undefined reference to [`'](.+)'$", line)
        name = _intrinsic(m.group(1)) if m else None
        if name and func and name not in found:
            found[name] = func.split("(")[0]
    return found
