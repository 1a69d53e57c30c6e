"""What the devkit model's headers define and declare at global scope, per architecture, read from
`g++ -E` of stub_def.h (macros expanded, each line marked with its header).

A global function with a body is a definition; one ending in `;` a declaration. Namespaces other than the
global one (ascgen_devkit's helpers), class bodies, and extern "C" entry points are skipped. Checked once
against libclang's AST of the same headers (the same sets on every arch), at a tenth of the cost.
"""
from __future__ import annotations

import os
import re
import subprocess
from collections import defaultdict

from ascgen import resources
from ascgen.runtime import build

MARK = re.compile(r'^# (\d+) "([^"]*)"')
TOKEN = re.compile(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|[A-Za-z_]\w*|::|\S')
NOT_A_NAME = {"operator", "decltype", "sizeof", "alignas", "__attribute__", "noexcept", "static_assert"}


def model_root() -> str:
    return str(resources.runtime_dir() / "devkit" / "include")


def preprocess(arch: int) -> str:
    runtime = resources.runtime_dir()
    cmd = [build.find_compiler(), "-E", "-x", "c++", "-std=c++17", f"-D__NPU_ARCH__={arch}", "-DASCENDC_CPU_DEBUG=1",
           f"-I{model_root()}", *(f"-I{d}" for d in resources.include_dirs()), f"-I{resources.common_dir()}",
           str(runtime / "devkit" / "include" / "stub_def.h")]
    return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout


def _tokens(text: str) -> list[tuple[str, str]]:
    """(token, header under ascgen_devkit/) of the model's own lines; directives (pragmas) dropped."""
    root = os.path.join(model_root(), "ascgen_devkit") + os.sep
    out, current = [], None
    for line in text.splitlines():
        m = MARK.match(line)
        if m:
            path = os.path.normpath(m.group(2))
            current = path[len(root):] if path.startswith(root) else None
        elif current and not line.lstrip().startswith("#"):
            out += [(t, current) for t in TOKEN.findall(line)]
    return out


def _strip_template(words: list[str]) -> list[str]:
    while words[:2] == ["template", "<"]:
        depth, j = 0, 1
        for j in range(1, len(words)):
            depth += (words[j] == "<") - (words[j] == ">")
            if depth == 0:
                break
        words = words[j + 1:]
    return words


def _function(words: list[str]) -> str | None:
    """The unqualified function a statement declares: the name before its first '(' (template lists skipped)."""
    head = _strip_template(words)
    if not head or head[0] in ("typedef", "using", "struct", "class", "union", "enum", "friend", "namespace"):
        return None
    for j, w in enumerate(head):
        if w == "=":
            return None                      # a variable with an initialiser
        if w == "(":
            if j and re.fullmatch(r"[A-Za-z_]\w*", head[j - 1]) and head[j - 1] not in NOT_A_NAME \
                    and not (j >= 2 and head[j - 2] == "::"):
                return head[j - 1]
            return None
    return None


def scan(arch: int) -> dict[str, dict[str, set[str]]]:
    """name -> {"def": headers, "decl": headers} for the global functions of ascgen_devkit/ on `arch`."""
    toks = _tokens(preprocess(arch))
    found: dict = defaultdict(lambda: defaultdict(set))
    scopes: list[bool] = []       # per open namespace-like brace: is it still the global scope?
    stmt: list[tuple[str, str]] = []
    i = 0
    while i < len(toks):
        t = toks[i][0]
        words = [w for w, _ in stmt]
        if t == "{":
            if "namespace" in words[:3] or (words[:1] == ["extern"] and len(words) <= 2):
                scopes.append(False if "namespace" in words else True)     # extern "C" { stays global
                stmt, i = [], i + 1
                continue
            name = _function(words)
            if name and all(scopes) and not (words[:1] == ["extern"]):
                found[name]["def"].add(stmt[0][1])
            depth = 0
            while i < len(toks):                        # skip the body
                depth += (toks[i][0] == "{") - (toks[i][0] == "}")
                i += 1
                if depth == 0:
                    break
            stmt = [] if name else stmt + [("{}", toks[i - 1][1])]
            continue
        if t == "}":
            if scopes:
                scopes.pop()
            stmt, i = [], i + 1
            continue
        if t == ";":
            name = _function(words)
            if name and all(scopes) and words[:1] != ["extern"]:
                found[name]["decl"].add(stmt[0][1])
            stmt, i = [], i + 1
            continue
        stmt.append(toks[i])
        i += 1
    return found
