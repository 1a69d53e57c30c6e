"""Discovery: the kernel UT rules of an operator repository, read from its CMake text.

An operator repository (ops-nn, ops-math and every project laid out like them) declares each kernel UT
with one call `AddOpTestCase(...)` in `<op>/tests/ut/op_kernel/CMakeLists.txt` or in the op's own
`CMakeLists.txt`; the function itself is defined in the repository's `cmake/*.cmake`. The two public
definitions differ (ops-nn: `AddOpTestCase([opName] socs options [DEPENDENCY_OPS...] [UT_SRC_DIR d]
[MULTI_KERNEL_TARGET])`; ops-math: `AddOpTestCase(opName socs options tilingSrcFiles)`), so the call is
interpreted by the definition found in the repository, never by the repository's name:

* the definition's named parameters give the positional meaning; a fourth named parameter (ops-math's
  `tilingSrcFiles`) holds op_host sources, which a kernel UT does not compile;
* `"${ARGV0}" MATCHES "^ascend"` in the body: the op name may be left out (then it is the op folder's name);
* `"${arg}" STREQUAL "KEYWORD"` tests in the body name the keyword arguments; one that sets an `_expect...`
  variable takes a value (`UT_SRC_DIR d`), the others are flags; other trailing words are dependency ops;
* `if(EXISTS ".../${opName}_tiling_def.h")`-style tests give the hand-written tiling header the rule
  force-includes; `-DKERNELUT=1` in the body is added when present; `find_value_by_key(${A} ${B} ...)`
  maps short soc names to full ones through the lists `set(A ...)` / `set(B ...)` of `cmake/`.

The repository root is the nearest folder, walking up from the PATH given, that holds `cmake/` and
`tests/ut/`.
"""
from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from ascgen.errors import SpecError

RULE_NAME = "AddOpTestCase"
UT_SUBDIR = Path("tests") / "ut" / "op_kernel"
TILING_KEYS_OPTION = "-DUT_CUSTOM_TILING_DATA_KEYS="     # a rule option the definition takes out (ut.cmake)


@dataclass(frozen=True)
class Convention:
    """How this repository's AddOpTestCase reads its arguments (from its definition)."""
    params: tuple[str, ...]             # named parameters of the function
    optional_name: bool                 # op name may be omitted (first argument starts with "ascend")
    value_keywords: tuple[str, ...]     # keyword arguments taking one value (UT_SRC_DIR)
    flag_keywords: tuple[str, ...]      # keyword flags (MULTI_KERNEL_TARGET)
    tiling_headers: tuple[str, ...]     # suffixes of hand-written tiling headers: "_tiling_def.h"
    kernelut: bool                      # the rule compiles with -DKERNELUT=1
    full_soc: dict = field(default_factory=dict)   # short soc name -> full name (ops-math)
    definition: str = ""                # file:line of the definition
    kernel_from_op_info: bool = False   # kernel and tests named by the op's opFile (get_opfile_from_opsinfo)
    kernel_glob: str = ""               # the definition's file(GLOB ...) of the kernel file, when it globs it
    multi_kernel_compiles_kernel: bool = True   # a flagged rule's targets compile the kernel file too


@dataclass(frozen=True)
class Rule:
    """One AddOpTestCase call."""
    repository: Path
    op: str
    socs: tuple[str, ...]
    options: tuple[str, ...]            # compile options (-DDTYPE_X=float ...)
    deps: tuple[str, ...]               # dependency ops (their kernels are compiled too)
    ut_dir: Path
    op_dir: Path
    multi_kernel: bool
    where: str                          # CMakeLists.txt:line of the call
    # -DUT_CUSTOM_TILING_DATA_KEYS=Op_1,Op_2: the keyed tiling classes the generated <op>_tiling_data.h holds
    # besides the op type's own (ut.cmake passes them to gen_tiling_head_file.py, which splits them at ",")
    tiling_keys: tuple[str, ...] = ()

    @property
    def category(self) -> str:
        rel = self.op_dir.relative_to(self.repository)
        return rel.parts[0] if len(rel.parts) > 1 else ""


def find_root(path: Path) -> Path:
    """The repository root: the nearest folder at or above `path` with `cmake/` and `tests/ut/`."""
    path = path.resolve()
    for folder in (path, *path.parents):
        if (folder / "cmake").is_dir() and (folder / "tests" / "ut").is_dir():
            return folder
    raise SpecError(f"{path}: not inside an operator repository (no folder at or above it holds both cmake/ "
                    "and tests/ut/). Hint: give an op folder, a category folder or the repository root.")


# ---- a small CMake reader --------------------------------------------------------------------------

def strip_comments(text: str) -> str:
    """CMake text without `#` comments (outside quoted strings); lines keep their numbers."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c == "\\":                   # an escape outside quotes (\" in an unquoted argument)
            out.append(text[i:i + 2])
            i += 2
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif c == "#":
            j = text.find("\n", i)
            i = n if j < 0 else j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def calls(text: str, name: str):
    """(line, raw argument text) of every call `name(...)` (case-insensitive, balanced parentheses)."""
    found = []
    for m in re.finditer(rf"(?<![\w$]){re.escape(name)}\s*\(", text, re.I):
        depth, i, quoted = 1, m.end(), False
        while i < len(text) and depth:
            c = text[i]
            if c == "\\":
                i += 2
                continue
            if c == '"':
                quoted = not quoted
            elif not quoted:
                depth += (c == "(") - (c == ")")
            i += 1
        if depth:
            raise SpecError(f"line {text.count(chr(10), 0, m.start()) + 1}: {name}( has no closing parenthesis")
        found.append((text.count("\n", 0, m.start()) + 1, text[m.end():i - 1]))
    return found


_TOKEN = re.compile(r'"((?:[^"\\]|\\.)*)"|((?:[^\s"\\]|\\.)+)', re.S)
_VAR = re.compile(r"\$\{(\w+)\}")


def arguments(raw: str, variables: dict) -> list[str]:
    """The arguments of a call: a quoted argument is one argument; an unquoted one is split at `;` after
    `${VAR}` expansion (CMake's rules, without generator expressions)."""
    def expand(s: str) -> str:
        return _VAR.sub(lambda m: variables.get(m.group(1), m.group(0)), s)
    out = []
    for m in _TOKEN.finditer(raw):
        if m.group(1) is not None:
            out.append(expand(m.group(1)))
        else:
            out += [p for p in expand(m.group(2)).split(";") if p]
    return out


# The keywords of the operator repositories' add_modules_sources (ops-nn cmake/func.cmake).
MODULE_KEYWORDS = {"HOSTNAME", "MODE", "DIR", "OPTYPE", "ACLNNTYPE", "DEPENDENCIES", "COMPUTE_UNIT", "TILING_DIR",
                   "DISABLE_IN_OPP", "PRIVATE", "PUBLIC"}


def module_calls(op_dir: Path) -> list[list[str]]:
    """The arguments of the op's add_modules_sources / add_all_modules_sources calls, in its CMakeLists.txt
    and op_host's."""
    found = []
    for path in (op_dir / "CMakeLists.txt", op_dir / "op_host" / "CMakeLists.txt"):
        text = strip_comments(path.read_text(errors="replace")) if path.is_file() else ""
        found += [arguments(raw, {}) for name in ("add_modules_sources", "add_all_modules_sources")
                  for _, raw in calls(text, name)]
    return found


_SUPPORT_SET = re.compile(r"\bset\s*\(\s*(SUPPORT_COMPUTE_UNIT|SUPPORT_TILING_DIR)\b([^)]*)\)")


def support_lists(op_dir: Path) -> tuple[list[str], list[str]]:
    """(compute units, tiling dirs) the op's CMakeLists names (`set(SUPPORT_COMPUTE_UNIT ...)`,
    `set(SUPPORT_TILING_DIR ...)`, or the literal `COMPUTE_UNIT a b` / `TILING_DIR d` arguments of its
    add_modules_sources call: ops-nn activation/softplus_grad's `COMPUTE_UNIT ascend950 TILING_DIR arch35`),
    empty when it names none (every product, sources in op_host/)."""
    found: dict[str, list[str]] = {}
    for path in (op_dir / "CMakeLists.txt", op_dir / "op_host" / "CMakeLists.txt"):
        text = strip_comments(path.read_text(errors="replace")) if path.is_file() else ""
        for name, values in _SUPPORT_SET.findall(text):
            found[name] = re.findall(r'"?([\w.-]+)"?', values)
    for words in module_calls(op_dir):
        for keyword, name in (("COMPUTE_UNIT", "SUPPORT_COMPUTE_UNIT"), ("TILING_DIR", "SUPPORT_TILING_DIR")):
            values = keyword_values(words, keyword)
            if values and not any("${" in v for v in values):
                found.setdefault(name, values)
    return found.get("SUPPORT_COMPUTE_UNIT", []), found.get("SUPPORT_TILING_DIR", [])


def other_tiling_dirs(op_dir: Path, product_id: str) -> list[Path]:
    """The op_host folders holding other products' tiling sources (`SUPPORT_TILING_DIR` entries that are not
    the product's), which its build leaves out."""
    units, dirs = support_lists(op_dir)
    if not units or len(dirs) != len(units):
        return []
    mine = dirs[units.index(product_id)] if product_id in units else None
    return [op_dir / "op_host" / d for d in sorted(set(dirs)) if d != mine]


def keyword_values(words: list[str], keyword: str) -> list[str]:
    """The words after `keyword` in an add_modules_sources call's arguments, up to the next keyword."""
    if keyword not in words:
        return []
    values = []
    for word in words[words.index(keyword) + 1:]:
        if word in MODULE_KEYWORDS:
            break
        values.append(word)
    return values


def op_dependencies(op_dir: Path) -> tuple[str, ...]:
    """The ops an op builds with: the `DEPENDENCIES a b` of its add_modules_sources call. Their kernels are
    copied beside its kernel, their op_host tiling is linked into its runner."""
    names = [w for words in module_calls(op_dir) for w in keyword_values(words, "DEPENDENCIES")]
    return tuple(dict.fromkeys(w for w in names if re.fullmatch(r"\w+", w)))


def declared_kernel(op_dir: Path, product_id: str) -> Path | None:
    """The kernel source an `add_kernel_sources(KERNEL_SRC arch35/add.cpp COMPUTE_UNITS ascend950 ...)` call
    names for the product (in the op's CMakeLists.txt or op_kernel's; KERNEL_SRC relative to op_kernel), None
    when none does. The op build compiles it, and so does the repositories' UT definition (its
    kernel_src_list from the build's cache: `${ASCEND_KERNEL_SRC_DST}/<op>/<KERNEL_SRC>`)."""
    kernel_dir = op_dir / "op_kernel"
    for folder in (op_dir, kernel_dir):
        path = folder / "CMakeLists.txt"
        text = strip_comments(path.read_text(errors="replace")) if path.is_file() else ""
        for _, raw in calls(text, "add_kernel_sources"):
            words = arguments(raw, {})
            if "KERNEL_SRC" in words and "COMPUTE_UNITS" in words:
                src = words[words.index("KERNEL_SRC") + 1]
                units = words[words.index("COMPUTE_UNITS") + 1:]
                units = units[:next((i for i, w in enumerate(units) if w.isupper()), len(units))]
                if product_id in units and (kernel_dir / src).is_file():
                    return kernel_dir / src
    return None


def set_variables(text: str, base: dict) -> dict:
    """The variables a file defines, in order (the last one wins): `set(NAME values...)` (CACHE/PARENT_SCOPE
    words dropped; a CACHE set without FORCE keeps a value already given, as a `-D` on the command line
    does), `get_filename_component(NAME path MODE)` and `find_path(NAME NAMES n... PATHS p...)` (the first
    folder holding a name; these are how the repositories locate their sibling source trees, e.g. ops-nn
    cmake/modules/FindOPBASE.cmake). `if(EXISTS p)` / `elseif` / `else` chains are followed when `p`
    resolves; a branch under any other condition is read as if taken (the configuration is unknown)."""
    variables = dict(base)
    frames: list[list] = []             # per if(): [this branch active, a branch already taken]
    for name, raw in _commands(text):
        if name in ("if", "elseif", "else", "endif"):
            _branch(frames, name, raw, variables)
            continue
        if not all(active for active, _ in frames):
            continue
        args = arguments(raw, variables)
        if not args:
            continue
        if name == "set":
            values = [a for a in args[1:] if a not in ("CACHE", "PARENT_SCOPE", "FORCE")]
            if "CACHE" in args[1:]:
                if "FORCE" not in args and args[0] in base:
                    continue
                values = args[1:args.index("CACHE")]
            variables[args[0]] = ";".join(values)
        elif name == "get_filename_component" and len(args) >= 3:
            value = _path_component(args[1], args[2])
            if value is not None:
                variables[args[0]] = value
        elif name == "find_path":
            found = _find_path(args[1:])
            if found is not None:
                variables[args[0]] = found
    return variables


_STAGING = ("foreach", "endforeach", "file", "execute_process")


def staged_links(text: str, variables: dict) -> tuple[list[str], list[tuple[str, str]]]:
    """What a CMakeLists.txt lays out when it is configured, for its targets to include from: the folders of
    its `file(MAKE_DIRECTORY d...)` and the (link, target) pairs of its `execute_process(COMMAND
    ${CMAKE_COMMAND} -E create_symlink TARGET LINK)`, also inside `foreach(x ${LIST})` / `foreach(x IN LISTS
    L ITEMS a b)` bodies. ops-math tril's rule links triu's headers into a staging folder that its `-I` option
    names, so the kernel's `../triu/arch35/x.h` resolves. A path naming an unknown variable is left out."""
    folders: list[str] = []
    links: list[tuple[str, str]] = []

    def run(commands, scope):
        i = 0
        while i < len(commands):
            name, raw = commands[i]
            if name == "foreach":
                depth, end = 1, i + 1
                while end < len(commands) and depth:
                    depth += {"foreach": 1, "endforeach": -1}.get(commands[end][0], 0)
                    end += 1
                words = arguments(raw, scope)
                for value in _loop_values(words[1:], scope) if words else []:
                    run(commands[i + 1:end - 1], {**scope, words[0]: value})
                i = end
                continue
            args = [] if name == "endforeach" else arguments(raw, scope)
            if any(_VAR.search(a) for a in args):
                args = []                               # a path ascgen cannot know
            if name == "file" and args[:1] == ["MAKE_DIRECTORY"]:
                folders.extend(args[1:])
            elif name == "execute_process" and "create_symlink" in args[:-2]:
                at = args.index("create_symlink")
                links.append((args[at + 2], args[at + 1]))
            i += 1

    run(_commands(text, _STAGING), variables)
    return folders, links


def _loop_values(words: list[str], variables: dict) -> list[str]:
    """foreach's items: `a b c`, or `IN LISTS L... ITEMS x...`."""
    if words[:1] != ["IN"]:
        return words
    values, mode = [], None
    for w in words[1:]:
        if w in ("LISTS", "ITEMS"):
            mode = w
        elif mode == "LISTS":
            values += [v for v in variables.get(w, "").split(";") if v]
        elif mode == "ITEMS":
            values.append(w)
    return values


_EVALUATED = ("set", "get_filename_component", "find_path", "if", "elseif", "else", "endif")


def _commands(text: str, names=_EVALUATED):
    """(name, raw arguments) of the calls of `names` (by default, the commands `set_variables` reads), in text
    order."""
    spans = []
    for name in names:
        for m in re.finditer(rf"(?<![\w$]){name}\s*\(", text, re.I):
            spans.append((m.start(), name))
    by_start = {start: name for start, name in spans}
    found = {name: iter(calls(text, name)) for name in names}
    out = []
    for start in sorted(by_start):
        name = by_start[start]
        _, raw = next(found[name])
        out.append((name, raw))
    return out


def _branch(frames: list, name: str, raw: str, variables: dict) -> None:
    if name == "if":
        cond = _condition(raw, variables)
        frames.append([cond is not False, cond is True])
    elif not frames:
        return                          # an unbalanced endif/else: nothing to close
    elif name == "elseif":
        frame = frames[-1]
        cond = None if frame[1] else _condition(raw, variables)
        frame[0] = not frame[1] and cond is not False
        frame[1] = frame[1] or cond is True
    elif name == "else":
        frames[-1][0] = not frames[-1][1]
    else:
        frames.pop()


def _condition(raw: str, variables: dict) -> bool | None:
    """`EXISTS p`, `NOT EXISTS p`, `IS_DIRECTORY p` when `p` resolves; None (unknown) otherwise."""
    words = arguments(raw, variables)
    negate = bool(words) and words[0] == "NOT"
    words = words[1:] if negate else words
    if len(words) != 2 or words[0] not in ("EXISTS", "IS_DIRECTORY") or "${" in words[1] or "$<" in words[1]:
        return None
    path = Path(words[1])
    value = path.exists() if words[0] == "EXISTS" else path.is_dir()
    return value != negate


def _path_component(path: str, mode: str) -> str | None:
    if "${" in path or "$<" in path or "$ENV" in path:
        return None
    if mode in ("DIRECTORY", "PATH"):
        return os.path.dirname(path)
    if mode == "NAME":
        return os.path.basename(path)
    if mode == "ABSOLUTE":
        return os.path.normpath(path)
    if mode == "REALPATH":
        return os.path.realpath(path)
    return None


_FIND_KEYWORDS = {"NAMES", "PATHS", "HINTS", "PATH_SUFFIXES", "DOC", "NO_DEFAULT_PATH", "REQUIRED",
                  "NO_CMAKE_SYSTEM_PATH", "NO_CMAKE_FIND_ROOT_PATH", "NO_CMAKE_PATH", "NO_SYSTEM_ENVIRONMENT_PATH",
                  "NO_CMAKE_ENVIRONMENT_PATH", "NO_PACKAGE_ROOT_PATH", "NO_CMAKE_INSTALL_PREFIX", "NO_CACHE"}


def _find_path(args: list[str]) -> str | None:
    """find_path's answer from its NAMES, PATHS/HINTS and PATH_SUFFIXES (the short form `find_path(V name
    paths...)` too): the first folder holding one of the names. The system folders are not searched."""
    groups: dict[str, list[str]] = {"NAMES": [], "PATHS": [], "PATH_SUFFIXES": []}
    current = None
    for i, word in enumerate(args):
        if word in _FIND_KEYWORDS:
            current = word if word in groups else ("PATHS" if word == "HINTS" else None)
        elif current:
            groups[current].append(word)
        elif i == 0:
            groups["NAMES"].append(word)
        else:
            groups["PATHS"].append(word)
    for folder in groups["PATHS"]:
        if "${" in folder or "$<" in folder or "$ENV" in folder:
            continue
        for suffix in ["", *groups["PATH_SUFFIXES"]]:
            base = Path(folder) / suffix
            if any((base / n).exists() for n in groups["NAMES"]):
                return os.path.normpath(base)
    return None


# ---- the definition --------------------------------------------------------------------------------

@functools.lru_cache(maxsize=16)
def _functions(root: Path) -> dict[str, tuple[str, str, str]]:
    """name -> (signature, body, file:line) of every function(...) in cmake/**.cmake."""
    out: dict[str, tuple[str, str, str]] = {}
    for path in sorted((root / "cmake").rglob("*.cmake")):
        text = strip_comments(path.read_text(errors="replace"))
        for m in re.finditer(r"function\s*\(\s*(\w+)([^)]*)\)(.*?)endfunction\s*\(", text, re.S | re.I):
            out.setdefault(m.group(1), (m.group(2), m.group(3), f"{path}:{text.count(chr(10), 0, m.start()) + 1}"))
    return out


@functools.lru_cache(maxsize=16)
def convention(root: Path) -> Convention:
    functions = _functions(root)
    if RULE_NAME not in functions:
        raise SpecError(f"{root}: no `function({RULE_NAME}` in cmake/*.cmake, so its UT rules cannot be read. "
                        "Hint: the repository must define its kernel UT rule in cmake/.")
    signature, body, where = functions[RULE_NAME]
    # The body plus the functions it calls (ops-math forwards to AddOpsTestCase).
    called = {name for name in re.findall(r"\b(\w+)\s*\(", body) if name in functions and name != RULE_NAME}
    whole = body + "".join(functions[name][1] for name in sorted(called))
    # The branch after each keyword test, up to the next if/elseif/endif: does it expect a value?
    keywords = re.findall(r'"\$\{\w+\}"\s+STREQUAL\s+"([A-Z][A-Z_]+)"\s*\)(?=((?:(?!\b(?:else)?if\b|\bendif\b).)*))',
                          body, re.S)
    value_kw = tuple(k for k, after in keywords if re.search(r"set\s*\(\s*\w*expect\w*\s+TRUE", after, re.I))
    flag_kw = tuple(k for k, _ in keywords if k not in value_kw)
    headers = tuple(dict.fromkeys(re.findall(r'EXISTS\s+"?\$\{\w+\}/\$\{\w+\}(_tiling\w*\.h)', whole)))
    full_soc = {}
    lookup = re.search(r'find_value_by_key\s*\(\s*"?\$\{(\w+)\}"?\s+"?\$\{(\w+)\}"?', whole)
    if lookup:
        variables: dict[str, str] = {}
        for path in sorted((root / "cmake").rglob("*.cmake")):
            variables = set_variables(strip_comments(path.read_text(errors="replace")), variables)
        short = variables.get(lookup.group(1), "").split(";")
        full = variables.get(lookup.group(2), "").split(";")
        full_soc = {s.lower(): f for s, f in zip(short, full) if s}
    return Convention(params=tuple(signature.split()), optional_name='MATCHES "^ascend"' in body,
                      value_keywords=value_kw, flag_keywords=flag_kw, tiling_headers=headers,
                      kernelut="-DKERNELUT=1" in whole, full_soc=full_soc, definition=where,
                      kernel_from_op_info=bool(re.search(r"get_opfile_from_opsinfo", whole)),
                      kernel_glob=_kernel_glob(whole),
                      multi_kernel_compiles_kernel=_flagged_branch_compiles_kernel(body, flag_kw))


def _flagged_branch_compiles_kernel(body: str, flags: tuple[str, ...]) -> bool:
    """Whether the targets a flag keyword selects still compile the kernel file. ops-nn's MULTI_KERNEL_TARGET
    sets `multi_kernel_target`, and its `if(NOT DEFINED multi_kernel_target) ... else() ... endif()` makes
    one object per test source in the else branch: `add_library(opkernel_${src_name} OBJECT ${src_file})`,
    without the `${kernelFile}` the other branch lists (each test includes what it needs). Read from the
    definition: the variable the keyword sets, the branch its test selects, and whether that branch names a
    variable the definition sets to a `.cpp` path. True when the definition says otherwise or nothing."""
    kernel_vars = set(re.findall(r"\bset\s*\(\s*(\w+)\s+[^)]*\.cpp\s*\)", body, re.I))
    for flag in flags:
        m = re.search(rf'STREQUAL\s+"{flag}"\s*\)\s*set\s*\(\s*(\w+)', body)
        if not m:
            continue
        branch = _branch_where(body, m.group(1))
        if branch is not None:
            return any(f"${{{v}}}" in branch for v in kernel_vars)
    return True


def _branch_where(body: str, variable: str) -> str | None:
    """The text of the branch taken when `variable` is defined: the body of `if(DEFINED v)` / `if(v)`, or the
    else part of `if(NOT DEFINED v)` / `if(NOT v)`; None when the definition has no such test."""
    m = re.search(rf"\bif\s*\(\s*(NOT\s+)?(?:DEFINED\s+)?{variable}\s*\)", body, re.I)
    if not m:
        return None
    depth, i, split = 1, m.end(), None
    for t in re.finditer(r"\b(if|else|endif)\s*\(", body[m.end():], re.I):
        word = t.group(1).lower()
        if word == "if":
            depth += 1
        elif word == "endif":
            depth -= 1
            if depth == 0:
                end = m.end() + t.start()
                then, other = (body[m.end():split], body[split:end]) if split else (body[m.end():end], "")
                return other if m.group(1) else then
        elif word == "else" and depth == 1:
            split = m.end() + t.start()
    return None


def _kernel_glob(definition: str) -> str:
    """The pattern of the definition's first `file(GLOB VAR "...op_kernel/....cpp")` (ops-math:
    `${PROJECT_SOURCE_DIR}/*/${MODULE_OP_NAME}/op_kernel/${MODULE_OP_NAME}.cpp`), "" when it has none."""
    for _, raw in calls(definition, "file"):
        args = arguments(raw, {})
        if len(args) >= 3 and args[0] == "GLOB" and "/op_kernel/" in args[2] and args[2].endswith(".cpp"):
            return args[2]
    return ""


# ---- the rules -------------------------------------------------------------------------------------

def rule_files(root: Path, under: Path) -> list[Path]:
    """CMakeLists.txt files under `under` that call AddOpTestCase (the build folder-like ones skipped)."""
    found = []
    for path in sorted(under.rglob("CMakeLists.txt")):
        if any(part.startswith(("build", ".")) for part in path.relative_to(root).parts[:-1]):
            continue
        try:
            text = path.read_text(errors="replace")
        except OSError:
            continue
        if RULE_NAME.lower() + "(" in text.lower().replace(" (", "("):
            found.append(path)
    return found


def read_rules(root: Path, path: Path, conv: Convention) -> list[Rule]:
    """The AddOpTestCase calls of one CMakeLists.txt. A call that cannot be read raises SpecError naming it."""
    text = strip_comments(path.read_text(errors="replace"))
    variables = set_variables(text, {"CMAKE_CURRENT_SOURCE_DIR": str(path.parent), "PROJECT_SOURCE_DIR": str(root)})
    rules = []
    for line, raw in calls(text, RULE_NAME):
        rules.append(_rule(root, path, line, arguments(raw, variables), conv))
    return rules


def _rule(root: Path, path: Path, line: int, args: list[str], conv: Convention) -> Rule:
    where = f"{path}:{line}"
    folder = path.parent
    ut_dir = folder if folder.as_posix().endswith(UT_SUBDIR.as_posix()) else folder / UT_SUBDIR
    op_dir = ut_dir.parents[2]
    if conv.optional_name and args and args[0].lower().startswith("ascend"):
        args = [op_dir.name, *args]
    if len(args) < 2:
        raise SpecError(f"{where}: {RULE_NAME} needs at least an op name and the socs; got {len(args)} argument(s)")
    op, socs, options, rest = args[0], args[1], args[2] if len(args) > 2 else "", args[3:]
    deps, multi = [], False
    if len(conv.params) <= 3:           # trailing words: dependency ops and keywords (ops-nn's shape)
        words = iter(rest)
        for word in words:
            if word in conv.value_keywords:
                value = next(words, None)
                if value is None:
                    raise SpecError(f"{where}: {word} needs a value")
                ut_dir = Path(value) if Path(value).is_absolute() else folder / value
            elif word in conv.flag_keywords:
                multi = True
            elif re.fullmatch(r"\w+", word):     # an op name (source lists passed here are not ops)
                deps.append(word)
    if not re.fullmatch(r"\w+", op):
        raise SpecError(f"{where}: {op!r} is not an op name")
    # The definitions turn spaces into `;` and walk the result as a CMake list, so a `;` inside the quoted
    # argument separates options too (ops-nn average_pooling_grad: "-DDTYPE_GRAD_OUTPUT=float;-DORIG_...").
    items = [o for o in re.split(r"[\s;]+", options) if o]
    keys = tuple(k for o in items if o.startswith(TILING_KEYS_OPTION) for k in o[len(TILING_KEYS_OPTION):].split(",") if k)
    opts = tuple(o for o in items if not o.startswith(TILING_KEYS_OPTION))
    return Rule(root, op, tuple(s for s in re.split(r"[\s;]+", socs) if s), opts, tuple(deps), ut_dir, op_dir,
                multi, where, keys)


def directory_definitions(rule: Rule, variables: dict) -> dict[str, str | None]:
    """The macros the folders around a rule define for every target made in them: `add_compile_definitions(
    X=V)` and `add_definitions(-DX=V)` in the CMakeLists.txt of the rule's folder and of each folder above
    it, up to the repository, the outer ones first (a directory property the kernel UT target inherits:
    ops-nn silu_mul's tests/CMakeLists.txt says `add_compile_definitions(DTYPE_X=${TEST_DTYPE})`). Each
    file's own `set()` variables resolve them; an item naming a variable that does not resolve is left out."""
    rule_file = Path(rule.where.rsplit(":", 1)[0])
    root = rule.repository.resolve()
    folders = [f for f in (rule_file.parent, *rule_file.parent.parents) if f.resolve().is_relative_to(root)]
    defines: dict[str, str | None] = {}
    for folder in reversed(folders):
        path = folder / "CMakeLists.txt"
        if not path.is_file():
            continue
        text = strip_comments(path.read_text(errors="replace"))
        local = set_variables(text, {**variables, "CMAKE_CURRENT_SOURCE_DIR": str(folder)})
        items = [a for _, raw in calls(text, "add_compile_definitions") for a in arguments(raw, local)]
        items += [a for _, raw in calls(text, "add_definitions") for a in arguments(raw, local) if a.startswith("-D")]
        for item in items:
            if "${" in item or "$<" in item:
                continue
            name, eq, value = item.removeprefix("-D").partition("=")
            defines[name] = value if eq else None
    return defines


def header_only_sources(rule: Rule, variables: dict) -> set[Path]:
    """Files the rule's own CMakeLists.txt marks `set_source_files_properties(<files> PROPERTIES
    HEADER_FILE_ONLY TRUE)`: a target of that folder lists them but does not compile them (ops-nn
    fused_patch_mlp's UT keeps the copied production kernel out of its program this way). Source-file
    properties belong to the folder that sets them, where the rule makes its targets."""
    rule_file = Path(rule.where.rsplit(":", 1)[0])
    text = strip_comments(rule_file.read_text(errors="replace"))
    local = set_variables(text, {**variables, "CMAKE_CURRENT_SOURCE_DIR": str(rule_file.parent)})
    out: set[Path] = set()
    for _, raw in calls(text, "set_source_files_properties"):
        args = arguments(raw, local)
        if "PROPERTIES" not in args:
            continue
        at = args.index("PROPERTIES")
        props = dict(zip(args[at + 1::2], args[at + 2::2]))
        if props.get("HEADER_FILE_ONLY", "").upper() in ("TRUE", "ON", "1", "YES"):
            out |= {Path(f).resolve() for f in args[:at] if "${" not in f}
    return out


def discover(paths) -> tuple[list[Rule], list[str]]:
    """(rules under the given paths, problems). A problem is a CMakeLists.txt that could not be read:
    one line each, and the other rules are still found."""
    rules, problems, seen = [], [], set()
    for given in paths:
        given = Path(given).expanduser()
        if not given.exists():
            raise SpecError(f"{given}: no such file or folder")
        root = find_root(given)
        conv = convention(root)
        for path in rule_files(root, given.resolve() if given.is_dir() else given.resolve().parent):
            if path in seen:
                continue
            seen.add(path)
            try:
                rules += read_rules(root, path, conv)
            except SpecError as exc:
                problems.append(f"{path}: {exc}" if str(path) not in str(exc) else str(exc))
            except (OSError, UnicodeError) as exc:
                problems.append(f"{path}: cannot be read ({exc})")
    return rules, problems
