"""One build for the same kernel in any folder: the source's folder is kept out of the module and its key.

A kernel source's folder (its *root*) used to reach the module in three ways: the wrapper's #include of the
absolute path, the `-I<root>` flag, and every `__FILE__` / `__builtin_FILE()` and line-table path the
compiler writes. So a copy of the kernel in another folder (a second checkout, a CI clone, a test's
temporary folder) built again. A relocatable build instead
* includes the source by its bare name, found through `-iquote<root>` before any other folder;
* compiles with `-ffile-prefix-map=<root>/=<TOKEN>/`, so every path the compiler records under the root reads
  `<TOKEN>/k.cpp`, `<TOKEN>/inc/v.h`, `<TOKEN>/../common/w.h`;
* writes the root as TOKEN in the cache key's flags (`-I<root>/inc` -> `-I<TOKEN>/inc`; a `-D` value naming the
  root is left as it is: the compiler does not remap it, so it must stay in the key) and in the recorded
  dependency list (deps.py), whose files are read back under the folder of the build being looked up.

At run time each loaded module's root is registered with the core (`ascgen_source_root`), and a reported
location that starts with TOKEN is read back under the root of the module its string lives in (found with
dladdr), so reports name the user's own file exactly as before (runtime/core/code_site.cpp). A module
loaded for two roots in one process is loaded from two copies of its file (module.py), so each copy's strings
have one root.
"""
from __future__ import annotations

import os
from pathlib import Path

TOKEN = "/<ascgen-source-folder>"     # absolute, so addr2line does not prefix the compile folder


def flags(root: Path) -> list[str]:
    """What a relocatable compile adds: the root first on the quoted-include path, and the path remapping."""
    return [f"-iquote{root}", f"-ffile-prefix-map={root}/={TOKEN}/"]


def tokenised(path: str, root: Path | None) -> str:
    """`path` with a leading `root/` written as `TOKEN/` (unchanged outside the root, or with no root)."""
    if root is None:
        return path
    prefix = f"{root}{os.sep}"
    return TOKEN + path[len(str(root)):] if path == str(root) or path.startswith(prefix) else path


def resolved(name: str, root: Path | None) -> str:
    """A recorded or reported name read back under `root` (the inverse of tokenised)."""
    if root is None or not (name == TOKEN or name.startswith(TOKEN + "/")):
        return name
    return str(root) + name[len(TOKEN):]


def key_flags(flag_list, root: Path | None) -> list[str]:
    """The flags as the cache key sees them: include-folder flags under the root tokenised; nothing else."""
    if root is None:
        return list(flag_list)
    out = []
    for f in flag_list:
        for opt in ("-I", "-iquote", "-isystem", "-idirafter"):
            if f.startswith(opt) and os.path.isabs(f[len(opt):]):
                f = opt + tokenised(f[len(opt):], root)
                break
        if f.startswith("-ffile-prefix-map=") and f.endswith(f"={TOKEN}/"):
            f = f"-ffile-prefix-map={TOKEN}/={TOKEN}/"
        out.append(f)
    return out
