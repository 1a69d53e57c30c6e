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


def render(include_path: str | None, inline_text: str | None, user_name: str, digest: str,
           instances, host_main: bool = False, scopes: dict | None = None) -> str:
    """The wrapper's text. Either `include_path` (a file on disk, included by absolute path) or
    `inline_text` (a source given as a string, placed under `#line 1 "<user_name>"`)."""
    lines = [
        f"// ascgen module wrapper v{WRAPPER_VERSION} for {user_name}",
        f"// user source sha256 {digest} (part of the cache key: an edit rebuilds the module)",
        '#include "kernel_operator.h"',
    ]
    if host_main:
        lines.append(f"#define main {USER_MAIN}")
    if include_path is not None:
        escaped = include_path.replace("\\", "\\\\").replace('"', '\\"')
        lines.append(f'#include "{escaped}"')
    else:
        lines.append(f'#line 1 "{user_name}"')
        lines.append(inline_text)
        lines.append('#line 1 "<ascgen module wrapper>"')
    if host_main:
        lines.append("#undef main")
    lines += [
        "#define ASCGEN_ENTRY_HALF half",
        "#define ASCGEN_ENTRY_BF16 bfloat16_t",
        '#include "ascgen/host_trampoline.h"',
        *_trampolines(instances, scopes or {}),
    ]
    lines.append(f'extern "C" __attribute__((visibility("default"))) void {CRASH_HANDLER_SYMBOL}() '
                 '{ ::ascgen::crash::install(); }')
    if host_main:
        lines.append(f'extern "C" __attribute__((visibility("default"))) int {HOST_MAIN_SYMBOL}(int argc, char** argv) '
                     f'{{ return ::ascgen::entry::call_main(&{USER_MAIN}, argc, argv); }}')
    return "\n".join(lines) + "\n"
