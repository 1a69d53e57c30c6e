"""The wrapper translation unit that turns a user's kernel source into a loadable module.

It includes the user's source (so diagnostics and __builtin_FILE keep the user's path and lines) and
adds, for every kernel instance, two extern "C" functions:

    void        __ascgen_entry_<id>(void** args)   calls the kernel, each argument read from args[i]
    const char* __ascgen_sig_<id>(void)            the parameter types the compiler resolved

and, for hand-written programs, `__ascgen_host_main(argc, argv)` calling the user's renamed `main`.
The argument-passing convention lives in runtime/include/ascgen/host_trampoline.h.
"""
from __future__ import annotations

import hashlib
import re

from ascgen.errors import SpecError

WRAPPER_VERSION = 1
HOST_MAIN_SYMBOL = "__ascgen_host_main"
USER_MAIN = "__ascgen_user_main"
CRASH_HANDLER_SYMBOL = "__ascgen_install_crash_handler"


def symbol_id(instance: str) -> str:
    """A C identifier for a kernel instance ("add_custom<2048>" -> "add_custom_2048__1f3a")."""
    plain = re.sub(r"\W+", "_", instance).strip("_")
    if plain == instance:
        return plain
    return f"{plain}__{hashlib.sha256(instance.encode()).hexdigest()[:6]}"


def entry_symbol(instance: str) -> str:
    return f"__ascgen_entry_{symbol_id(instance)}"


def sig_symbol(instance: str) -> str:
    return f"__ascgen_sig_{symbol_id(instance)}"


def _trampolines(instances, scopes: dict) -> list[str]:
    """`scopes`: kernel name -> "ns::" prefix for kernels declared inside named namespaces."""
    out = []
    for inst in instances:
        target = scopes.get(inst.split("<", 1)[0].strip(), "") + inst
        out.append(f'extern "C" __attribute__((visibility("default"))) void {entry_symbol(inst)}(void** a) '
                   f'{{ ::ascgen::entry::invoke(&{target}, a, "{inst}"); }}')
        out.append(f'extern "C" __attribute__((visibility("default"))) const char* {sig_symbol(inst)}() '
                   f'{{ return ::ascgen::entry::signature(&{target}); }}')
    return out


# Every emulated header a user source may include, included before the user's macros: they are guarded,
# so the user's own #include of them is a no-op and `-D X=5` cannot reach their identifiers (a real
# toolchain's headers do not collide with a user's macro names either).
PRELUDE = ('#include "kernel_operator.h"', '#include "tikicpulib.h"', '#include "acl/acl.h"',
           '#include "ascgen/host_launch.h"')


def line_directive(name: str) -> str:
    """`#line 1 "<name>"` with the name escaped as a C string literal (quotes, backslashes, newlines)."""
    escaped = name.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'#line 1 "{escaped}"'


def include_directive(path: str) -> str:
    """An #include of an absolute path. A header name is not a string literal: backslashes are taken as
    written and there is no escape for a quote, so a path with '"' uses the <...> form."""
    if "\n" in path or ('"' in path and ">" in path):
        raise SpecError(f"cannot #include the source {path!r}: its name holds a newline, or both '\"' and '>'. "
                        "Hint: rename the file.")
    return f'#include <{path}>' if '"' in path else f'#include "{path}"'


def macro_lines(defines: dict | None) -> list[str]:
    """`#define` lines for the user's -D macros (gcc's `-DNAME` means NAME 1)."""
    out = []
    for name, value in (defines or {}).items():
        out.append(f"#define {name} {1 if value is None else value}")
    return out


def prelude_source(path: str, digest: str, defines: dict | None) -> str:
    """A further translation unit of a program, compiled like the main one: emulated headers first, then
    the user's macros, then the source."""
    return "\n".join([f"// ascgen program source wrapper for {path}", f"// source sha256 {digest}", *PRELUDE,
                      *macro_lines(defines), include_directive(path)]) + "\n"


def render(include_path: str | None, inline_text: str | None, user_name: str, digest: str,
           instances, host_main: bool = False, scopes: dict | None = None, defines: dict | None = None) -> str:
    """The wrapper's text. Either `include_path` (a file on disk, included by absolute path) or
    `inline_text` (a source given as a string, placed under `#line 1 "<user_name>"`). `defines`: the
    user's macros, defined after the emulated headers and before the user's source."""
    lines = [
        f"// ascgen module wrapper v{WRAPPER_VERSION} for {user_name}",
        f"// user source sha256 {digest} (part of the cache key: an edit rebuilds the module)",
        *PRELUDE,
        "#define ASCGEN_ENTRY_HALF half",
        "#define ASCGEN_ENTRY_BF16 bfloat16_t",
        '#include "ascgen/host_trampoline.h"',
        *macro_lines(defines),
    ]
    if host_main:
        lines.append(f"#define main {USER_MAIN}")
    if include_path is not None:
        lines.append(include_directive(include_path))
    else:
        lines.append(line_directive(user_name))
        lines.append(inline_text or "")
        lines.append(line_directive("<ascgen module wrapper>"))
    if host_main:
        lines.append("#undef main")
    lines += [*_trampolines(instances, scopes or {})]
    lines.append(f'extern "C" __attribute__((visibility("default"))) void {CRASH_HANDLER_SYMBOL}() '
                 '{ ::ascgen::crash::install(); }')
    if host_main:
        lines.append(f'extern "C" __attribute__((visibility("default"))) int {HOST_MAIN_SYMBOL}(int argc, char** argv) '
                     f'{{ return ::ascgen::entry::call_main(&{USER_MAIN}, argc, argv); }}')
    return "\n".join(lines) + "\n"


def render_module(module, instances) -> str:
    """render() for a Module (module.py): its source, name, program flag, kernel scopes and macros. A
    relocatable module (module.source_root) includes its source by its bare name, found through
    `-iquote<root>` (relocate.py), so the wrapper's text is the same in every folder."""
    digest = hashlib.sha256(module.text.encode()).hexdigest()
    path = module.compile_path
    include = (path.name if module.source_root else str(path)) if path else None
    return render(include, None if path else module.text,
                  path.name if module.source_root else module.source, digest, instances, module.is_program,
                  {k.name: k.scope for k in module.info.kernels if k.scope}, module.user_defines)
