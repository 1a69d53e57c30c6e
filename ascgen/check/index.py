"""What the user's files define: kernel entries, functions and methods, GlobalTensor variables, constants.

Built once per translation unit from the AST (declarations survive missing headers well) plus the spelled
tokens (which keep names the AST loses). Call resolution is by name, narrowed by the object's class, the
qualifier, the calling method's class and the argument count, so it works in uninstantiated templates
and in code whose types did not resolve.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any

from ascgen.check import api, consteval
from ascgen.check.tokens import (Call, LazyFile, Tok, calls_in, expand, match_paren, read_macro,
                                 skipped_ranges)

_FUNC_KINDS = {"FUNCTION_DECL", "CXX_METHOD", "FUNCTION_TEMPLATE", "CONSTRUCTOR"}
_SCOPE_KINDS = {"NAMESPACE", "LINKAGE_SPEC", "UNEXPOSED_DECL", "CLASS_DECL", "STRUCT_DECL", "CLASS_TEMPLATE",
                "CLASS_TEMPLATE_PARTIAL_SPECIALIZATION"}
_CLASS_KINDS = {"CLASS_DECL", "STRUCT_DECL", "CLASS_TEMPLATE", "CLASS_TEMPLATE_PARTIAL_SPECIALIZATION"}
_VAR_KINDS = {"VAR_DECL", "FIELD_DECL", "PARM_DECL"}


@dataclass(eq=False)
class FuncDef:
    name: str
    cursor: Any                    # clang.cindex.Cursor (libclang ships no type stubs)
    file: str
    line: int
    col: int
    owner: str | None            # class name for methods
    scope: tuple[str, ...]       # enclosing namespaces and classes
    min_args: int
    max_args: int
    entry: bool = False
    leading: tuple[str, ...] = ()   # tokens before the declaration: extern "C" __global__ __aicore__ ...
    tparams: tuple[str, ...] = ()   # template type parameters, in order (for binding explicit arguments)
    macro_body: list | None = None  # a kernel defined by a macro invocation: its body's expanded tokens

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass
class Index:
    tu: object
    user_files: set
    tokens: dict = field(default_factory=dict)            # file -> FileTokens
    functions: dict = field(default_factory=dict)         # name -> [FuncDef]
    entries: list = field(default_factory=list)
    global_tensors: set = field(default_factory=set)      # names of GlobalTensor variables/fields/params
    raw_gm_pointers: set = field(default_factory=set)     # names declared as `__gm__ T*` (raw GM access)
    gm_addresses: set = field(default_factory=set)        # names declared GM_ADDR or `__gm__` (any use)
    # `auto` variables clang could not type (their initializer calls a helper whose header is missing)
    # built from a GM address or a GlobalTensor: GlobalTensors for the library's GM calls and methods.
    inferred_gm: set = field(default_factory=set)
    var_classes: dict = field(default_factory=dict)       # variable name -> {user class names}
    classes: set = field(default_factory=set)
    fields: dict = field(default_factory=dict)            # class -> its FIELD_DECL cursors (initializers)
    positions: dict = field(default_factory=dict)         # TQue / TBuf variable -> its TPosition (VECIN...)
    constants: dict = field(default_factory=dict)         # integer constants: name -> value
    tiling_keys: set = field(default_factory=set)
    declared: set = field(default_factory=set)            # every variable/field/parameter name declared
    macros: dict = field(default_factory=dict)            # function-like macros of the user's files
    _user_cache: dict = field(default_factory=dict)
    _children: dict = field(default_factory=dict)
    texts: dict = field(default_factory=dict)             # edited texts clang parsed (parse.py)
    summaries: dict = field(default_factory=dict)         # paths.py's per-function caches, per file
    var_generic: set = field(default_factory=set)         # variables typed by a template parameter or auto
    scoped: dict = field(default_factory=dict)            # (function hash | class | None, name) -> classes
    template_params: set = field(default_factory=set)
    bases: dict = field(default_factory=dict)             # class -> {base classes}
    aliases: dict = field(default_factory=dict)           # type alias / object-like macro -> names it uses
    generic_param: dict = field(default_factory=dict)     # (scope, variable) -> the template parameter typing it
    value_params: set = field(default_factory=set)        # template value parameters (`bool B`, `int N`)
    bool_params: set = field(default_factory=set)         # the bool ones
    domains: dict = field(default_factory=dict)           # template parameter -> values any build selects
    class_tparams: dict = field(default_factory=dict)     # class template -> its template parameters, in order

    def file_bytes(self, filename: str) -> bytes:
        """The text clang parsed for a file (the edited copy when includes were blanked)."""
        key = ("#bytes", filename)
        if key not in self.tokens:
            text = self.texts.get(filename)
            self.tokens[key] = text.encode("utf-8") if text is not None else open(filename, "rb").read()
        return self.tokens[key]

    def source_words(self, cursor, stop_at_name: bool = False) -> list[str]:
        """Identifiers and keywords in a cursor's source text (up to its name if asked), read from the
        text with a regular expression: declarations need no full tokenization of their file."""
        _, file, start, end = self.info(cursor)
        if file is None:
            return []
        if stop_at_name:
            end = min(end, cursor.location.offset)
        text = _COMMENTS.sub(b" ", self.file_bytes(file)[start:end])
        return [w.decode("utf-8", "replace") for w in _WORD.findall(text)]

    def file_tokens(self, filename: str) -> LazyFile:
        if filename not in self.tokens:
            self.tokens[filename] = LazyFile(self.tu, filename, self.texts.get(filename))
        return self.tokens[filename]

    def object_type(self, name: str, caller: FuncDef | None, bindings=None) -> tuple[set, bool]:
        """(user classes, typed-by-template-parameter) of the variable `name` seen from `caller`: its
        locals and parameters first, then its class's fields, then globals, then any declaration. A
        variable typed by a template parameter bound at the call (`Run<QuantCompute>()`) has that class."""
        if name == "this":
            return ({caller.owner} if caller and caller.owner else set()), False
        scopes = [caller.cursor.hash, caller.owner] if caller else []
        for scope in [*scopes, None]:
            if (scope, name) in self.scoped:
                classes = self.scoped[(scope, name)]
                param = self.generic_param.get((scope, name))
                if GENERIC in classes and bindings and param in bindings:
                    return set(bindings[param]), False
                return classes - {GENERIC}, GENERIC in classes
        return self.var_classes.get(name, set()), name in self.var_generic

    def _constructor_or_functor(self, call: Call, caller: FuncDef | None) -> list[FuncDef] | None:
        """`Type obj(args)`: Type's constructor; `obj(args)` on an object of the user's class: its
        operator(). None when the call is neither."""
        n = len(call.args)
        if call.declared_as in self.classes:
            ctors = [d for d in self.functions.get(call.declared_as, []) if d.owner == call.declared_as]
            return [d for d in ctors if d.min_args <= n <= d.max_args]
        owners, _ = self.object_type(call.name, caller)
        if owners:
            owners = self.with_bases(owners)
            functors = [d for d in self.functions.get("operator()", []) if d.owner in owners]
            return [d for d in functors if d.min_args <= n <= d.max_args] or None
        return None

    def op_wide_sync(self) -> dict:
        """{kind: Tok} for the task-sync calls written anywhere in the user's active code, the way the
        SuperKernel compiler (and ascgen's runtime, ascgen.source.signature) decides that an operator uses
        them: by text, after the preprocessor (`#if` blocks it skipped excluded, `#define` lines kept),
        comments excluded, whether or not a path runs them. A text search, not a full lex: operators
        include tens of thousands of lines of their own headers."""
        if "#op_wide" not in self.tokens:
            found: dict = {}
            for name in sorted(self.user_files):
                data = self.file_bytes(name)
                if not any(kind.encode() in data for kind in api.TASK_SYNC):
                    continue
                code = _COMMENTS.sub(lambda m: b" " * len(m.group(0)), data)   # same offsets
                skipped = skipped_ranges(self.tu, name)
                for m in _TASK_SYNC_WORD.finditer(code):
                    kind = m.group(0).decode()
                    if kind in found or any(a <= m.start() < b for a, b in skipped):
                        continue
                    line = data.count(b"\n", 0, m.start()) + 1
                    col = m.start() - (data.rfind(b"\n", 0, m.start()) + 1) + 1
                    found[kind] = Tok("id", kind, m.start(), line, col, name)
            self.tokens["#op_wide"] = found
        return self.tokens["#op_wide"]

    def alias_closure(self, names: set) -> set:
        """`names` and every name the type aliases and object-like macros among them stand for."""
        out, todo = set(names), list(names)
        while todo:
            for used in self.aliases.get(todo.pop(), ()):
                if used not in out:
                    out.add(used)
                    todo.append(used)
        return out

    def template_domains(self) -> dict:
        """The values the tiling-key template selects for each template parameter: the union of its
        `ASCENDC_TPL_*_SEL(NAME, values...)` lists over every selection group (no build instantiates
        other values). Names with a range selection or a value that is not a known constant get none."""
        if "#domains" not in self.tokens:
            domains: dict = {}
            open_ended = set()
            for name in self.user_files:
                text = _COMMENTS.sub(b" ", self.file_bytes(name))
                for m in _TPL_SEL.finditer(text):
                    words = [w.strip() for w in m.group(2).decode("utf-8", "replace").split(",")]
                    param, values = words[0], [w for w in words[1:] if w and w != "ASCENDC_TPL_UI_LIST"]
                    known = [consteval.literal(v) if consteval.literal(v) is not None else self.constants.get(v)
                             for v in values]
                    if any(v in ("ASCENDC_TPL_UI_RANGE", "ASCENDC_TPL_UI_MIX") for v in values) or None in known:
                        open_ended.add(param)
                    domains.setdefault(param, set()).update(k for k in known if k is not None)
            self.tokens["#domains"] = {p: frozenset(v) for p, v in domains.items() if p not in open_ended and v}
        return self.tokens["#domains"]

    def template_kernel_types(self) -> set:
        """Kernel types named by ASCENDC_TPL_KERNEL_TYPE_SEL(...) in the user's files."""
        found = set()
        for name in self.user_files:
            text = _COMMENTS.sub(b" ", self.file_bytes(name))
            for m in _KERNEL_TYPE_SEL.finditer(text):
                found |= {w.decode() for w in _WORD.findall(m.group(1))} & set(api.TEMPLATE_KERNEL_TYPES)
        return found

    def with_bases(self, classes: set) -> set:
        out, todo = set(classes), list(classes)
        while todo:
            for base in self.bases.get(todo.pop(), ()):
                if base not in out:
                    out.add(base)
                    todo.append(base)
        return out

    def cursor_tokens(self, cursor) -> list[Tok]:
        """The tokens of a cursor's extent. Cached by cursor: statements are re-read once per path state,
        and every extent lookup is several foreign calls."""
        found = getattr(cursor, "_ascgen_tokens", None)
        if found is None:
            _, file, start, end = self.info(cursor)
            found = [] if file is None else self.file_tokens(file).between(start, end)
            cursor._ascgen_tokens = found
        return found

    def info(self, cursor) -> tuple:
        """(kind name, file, start offset, end offset) of a cursor, cached on the cursor object (each
        part is a foreign call; children() hands out the same objects every time)."""
        found = getattr(cursor, "_ascgen_info", None)
        if found is None:
            ext = cursor.extent
            f = ext.start.file
            found = (cursor.kind.name, f.name if f is not None else None, ext.start.offset, ext.end.offset)
            cursor._ascgen_info = found
        return found

    def children(self, cursor) -> list:
        key = cursor.hash
        if key not in self._children:
            self._children[key] = list(cursor.get_children())
        return self._children[key]

    def is_user(self, cursor) -> bool:
        f = cursor.location.file
        if f is None:
            return False
        name = f.name
        if name not in self._user_cache:          # realpath per cursor cost more than the analysis
            self._user_cache[name] = os.path.realpath(name) in self.user_files
        return self._user_cache[name]

    # ---- call resolution ----
    def bind(self, call: Call, callee: FuncDef, bindings=None) -> tuple:
        """The callee's template parameters bound to the user's classes by the call's explicit template
        arguments (or through the caller's own bindings): ((param, (class, ...)), ...)."""
        out = []
        for param, arg in zip(callee.tparams, call.template_args or ()):
            words = [t.text for t in arg if t.kind == "id"]
            if param in self.value_params:
                value = consteval.evaluate(list(arg), consteval.Env(self.known_values(bindings), frozenset(),
                                                                     self.bool_params))
                if value is not None:
                    out.append((param, value))
            elif words and words[0] in self.classes:
                out.append((param, (words[0],)))
            elif len(words) == 1 and bindings and words[0] in bindings:
                out.append((param, bindings[words[0]]))
        return tuple(out)

    def known_values(self, bindings=None) -> dict:
        """Constants and the template value arguments bound in the function being run."""
        values = dict(self.constants)
        values.update((p, v) for p, v in (bindings or {}).items() if isinstance(v, int))
        return values

    def resolve(self, call: Call, caller: FuncDef | None, bindings=None) -> list[FuncDef]:
        """The user's definitions a call may run (empty for library or unknown functions)."""
        if call.name in api.LEAF_CALLS:
            return []
        if call.obj is None and not call.qualifier:
            special = self._constructor_or_functor(call, caller)
            if special is not None:
                return special
        candidates = self.functions.get(call.name, [])
        if call.qualifier and call.qualifier[0] in api.LIBRARY_NAMESPACES:
            # `AscendC::Helper()`: the user's own function in that namespace, if there is one.
            candidates = [d for d in candidates if call.qualifier[-1] in d.scope]
        if not candidates:
            return []
        if call.obj is not None:
            owners, generic = self.object_type(call.obj, caller, bindings)
            if owners:
                owners = self.with_bases(owners)
                candidates = [d for d in candidates if d.owner in owners]
            elif call.obj in self.declared and not generic:
                return []           # an object of a library type (Matmul, TQue...): not the user's method
            else:                   # a template-parameter, auto or undeclared type: any method of that name
                candidates = _prefer(candidates, lambda d: d.owner is not None)
        elif call.qualifier:
            candidates = _prefer(candidates, lambda d: call.qualifier[-1] in (d.owner, *d.scope))
        else:
            own = caller.owner if caller else None
            candidates = _prefer(candidates, lambda d: own is not None and d.owner == own)
            candidates = _prefer(candidates, lambda d: d.owner is None or d.owner == own)
        n = len(call.args)
        return _prefer(candidates, lambda d: d.min_args <= n <= d.max_args)


def _prefer(items, predicate):
    """The items satisfying predicate, or all of them when none does (resolution narrows, never empties)."""
    chosen = [i for i in items if predicate(i)]
    return chosen or items


def build(parsed) -> Index:
    index = Index(parsed.tu, parsed.user_files, texts=parsed.texts, constants=dict(api.LIBRARY_CONSTANTS))
    _walk(index, parsed.tu.cursor, ())
    # TilingKeys from the text (comments removed): no need to tokenize every header for them.
    for name in index.user_files:
        text = _COMMENTS.sub(b" ", index.file_bytes(name))
        for m in _TILING_KEY.finditer(text):
            try:
                index.tiling_keys.add(int(m.group(1).decode().rstrip("uUlL"), 0))
            except ValueError:
                pass
    return index


def _walk(index: Index, cursor, scope: tuple[str, ...]) -> None:
    for child in cursor.get_children():
        if not index.is_user(child):
            continue
        kind = child.kind.name
        if kind in _FUNC_KINDS:
            _add_function(index, child, scope)
        elif kind in ("TEMPLATE_TYPE_PARAMETER", "TEMPLATE_NON_TYPE_PARAMETER"):
            if kind == "TEMPLATE_TYPE_PARAMETER":
                index.template_params.add(child.spelling)
            else:
                _add_value_param(index, child)
        elif kind == "CXX_BASE_SPECIFIER":
            base = child.spelling.split("<")[0].split("::")[-1].strip()
            index.bases.setdefault(cursor.spelling, set()).add(base)
        elif kind in _SCOPE_KINDS:
            if kind in _CLASS_KINDS and child.spelling:
                index.classes.add(child.spelling)
            if kind == "CLASS_TEMPLATE" and child.is_definition():
                index.class_tparams[child.spelling] = tuple(
                    c.spelling for c in child.get_children()
                    if c.kind.name in ("TEMPLATE_TYPE_PARAMETER", "TEMPLATE_NON_TYPE_PARAMETER"))
            _walk(index, child, scope + ((child.spelling,) if child.spelling else ()))
        elif kind in _VAR_KINDS:
            _add_variable(index, child, scope[-1] if scope and scope[-1] in index.classes else None)
            if kind == "FIELD_DECL" and scope and scope[-1] in index.classes:
                index.fields.setdefault(scope[-1], []).append(child)
        elif kind == "MACRO_DEFINITION":
            macro = read_macro(child)
            if macro is not None and macro.params is not None:
                index.macros[macro.name] = macro
            elif macro is not None:
                index.aliases[macro.name] = {t.text for t in macro.body if t.kind == "id"}
                value = consteval.literal(macro.body[0].text) if len(macro.body) == 1 else None
                if value is not None and macro.body[0].kind == "lit":
                    index.constants.setdefault(macro.name, value)   # `#define GMM_TPL_INT8 2`
        elif kind in ("TYPE_ALIAS_DECL", "TYPEDEF_DECL", "TYPE_ALIAS_TEMPLATE_DECL"):
            index.aliases[child.spelling] = set(index.source_words(child)) - {child.spelling}
        elif kind == "ENUM_DECL":
            for e in child.get_children():
                index.constants[e.spelling] = e.enum_value


_WORD = re.compile(rb"[A-Za-z_][0-9A-Za-z_]*")
_TILING_KEY = re.compile(rb"\b" + api.TILING_KEY_MACRO.encode() + rb"\s*\(\s*((?:0[xX])?[0-9a-fA-F]+[uUlL]*)\s*\)")
_TPL_SEL = re.compile(rb"\bASCENDC_TPL_(BOOL|UINT|DTYPE|DATATYPE|FORMAT)_SEL\s*\(([^()]*)\)")
_KERNEL_TYPE_SEL = re.compile(rb"\b" + api.KERNEL_TYPE_SELECTOR.encode() + rb"\s*\(([^)]*)\)")
_TASK_SYNC_WORD = re.compile(rb"\b(?:" + b"|".join(k.encode() for k in api.TASK_SYNC) + rb")\b")
_COMMENTS = re.compile(rb"//[^\n]*|/\*.*?\*/", re.DOTALL)


def _leading_tokens(index: Index, cursor) -> tuple[str, ...]:
    """Declaration-specifier words: from the previous `;`, `{`, `}` or directive line to the function's
    name. That is where __global__, __vector__ and extern "C" are (templates: after `template <...>`)."""
    _, file, start, _ = index.info(cursor)
    data = index.file_bytes(file)
    head = _COMMENTS.sub(b" ", data[max(0, start - 400):start])
    cut = max(head.rfind(b";"), head.rfind(b"{"), head.rfind(b"}"))
    lines = head[cut + 1:].split(b"\n")
    while lines and lines[0].lstrip().startswith(b"#"):
        lines.pop(0)
    for i in range(len(lines) - 1, -1, -1):            # nothing above a directive line belongs to it
        if lines[i].lstrip().startswith(b"#"):
            lines = lines[i + 1:]
            break
    before = [w.decode() for w in _WORD.findall(b"\n".join(lines))]
    before += ['"C"'] if b'extern "C"' in b"\n".join(lines) else []
    return tuple(before + index.source_words(cursor, stop_at_name=True))


def _add_function(index: Index, cursor, scope) -> None:
    for child in cursor.get_children():
        if child.kind.name == "TEMPLATE_TYPE_PARAMETER":
            index.template_params.add(child.spelling)
        elif child.kind.name == "TEMPLATE_NON_TYPE_PARAMETER":
            _add_value_param(index, child)
    for child in cursor.get_children():       # locals and parameters: GlobalTensor names, constants
        _walk_locals(index, child, cursor.hash)
    if not cursor.is_definition():
        return                  # library code never gets here: _walk keeps only the user's files
    parent = cursor.semantic_parent
    owner = parent.spelling if parent is not None and parent.kind.name in _CLASS_KINDS else None
    params = [c for c in cursor.get_children() if c.kind.name == "PARM_DECL"]
    defaults = sum(1 for p in params if b"=" in _param_text(index, p))
    loc = cursor.location
    # Only free functions can be kernel entries: methods skip the declaration-specifier scan.
    leading = _leading_tokens(index, cursor) if owner is None else ()
    name = cursor.spelling.split("<")[0]
    tparams = tuple(c.spelling for c in cursor.get_children()
                    if c.kind.name in ("TEMPLATE_TYPE_PARAMETER", "TEMPLATE_NON_TYPE_PARAMETER"))
    macro_body = None
    if owner is None and "__global__" not in leading:
        leading, macro_body = _macro_definition(index, cursor, name) or (leading, None)
    d = FuncDef(name, cursor, loc.file.name, loc.line, loc.column, owner, scope,
                len(params) - defaults, 99 if _is_variadic(cursor) else len(params),
                entry=("__global__" in leading and owner is None), leading=leading, tparams=tparams,
                macro_body=macro_body)
    index.functions.setdefault(name, []).append(d)
    if d.entry:
        index.entries.append(d)


def _macro_definition(index: Index, cursor, name: str):
    """(declaration words, body tokens) of a function defined by one of the user's macros
    (`DEFINE_KERNEL(kernel_fp32, float)`), read from the macro's expansion; None otherwise."""
    toks = index.cursor_tokens(cursor)
    if not toks or toks[0].text not in index.macros:
        return None
    call = next((c for c in calls_in(toks) if c.tok is toks[0]), None)
    if call is None:
        return None
    body = expand(index.macros[call.name], call)
    at = next((i for i, t in enumerate(body) if t.text == name and i + 1 < len(body) and body[i + 1].text == "("),
              None)
    if at is None:
        return None
    close = match_paren(body, at + 1)
    brace = next((j for j in range(close or len(body), len(body)) if body[j].text == "{"), None)
    end = match_paren(body, brace) if brace is not None else None
    if brace is None or end is None:
        return None
    words = tuple(t.text for t in body[:at] if t.kind == "id") + (('"C"',) if any(
        t.text == '"C"' for t in body[:at]) else ())
    return words, body[brace + 1:end]


def _add_value_param(index: Index, cursor) -> None:
    index.value_params.add(cursor.spelling)
    if cursor.type.spelling == "bool" or "bool" in index.source_words(cursor, stop_at_name=True):
        index.bool_params.add(cursor.spelling)


def _param_text(index: Index, cursor) -> bytes:
    _, file, start, end = index.info(cursor)
    return index.file_bytes(file)[start:end] if file is not None else b""


def _is_variadic(cursor) -> bool:
    try:
        return cursor.type.is_function_variadic()
    except Exception:       # dependent or invalid types
        return False


def _walk_locals(index: Index, cursor, function_hash) -> None:
    kind = cursor.kind.name
    if kind in ("VAR_DECL", "PARM_DECL"):
        _add_variable(index, cursor, function_hash)
        return
    if kind.endswith(("_EXPR", "_LITERAL", "_OPERATOR", "_REF")) or kind == "TYPE_REF":
        return                      # declarations live in statements, not inside expressions
    for child in cursor.get_children():
        _walk_locals(index, child, function_hash)


GENERIC = "<generic>"
_CONSTANT = re.compile(rb"\s*=\s*(-?(?:0[xX][0-9a-fA-F]+|[0-9]+)[uUlL]*)\s*")


def _gm_qualified(index: Index, cursor, type_toks) -> bool:
    """`__gm__` before the declared name. The qualifier is an empty macro in the emulated headers, so clang's
    extent of the declaration may start after it: read the line up to the name too."""
    if "__gm__" in type_toks:
        return True
    _, file, start, _ = index.info(cursor)
    if file is None:
        return False
    text = index.file_bytes(file)
    line_start = text.rfind(b"\n", 0, start) + 1
    return b"__gm__" in text[line_start:cursor.location.offset]


def _gm_initializer(index: Index, cursor) -> bool:
    """An undeduced `auto` declaration whose initializer names a GM address or a GlobalTensor (and is not
    plain arithmetic on it): `auto yGm = Helper::MakeGlobal<float>(y, n)`."""
    _, file, _, _ = index.info(cursor)
    if file is None:
        return False
    # clang's extent of an invalid declaration stops at the name: read the initializer up to the `;`.
    data = index.file_bytes(file)
    at = cursor.location.offset + len(cursor.spelling.encode())
    end = data.find(b";", at)
    text = _COMMENTS.sub(b" ", data[at:end if end >= 0 else len(data)])
    if not text.lstrip().startswith((b"=", b"(", b"{")):
        return False
    init = [w.decode("utf-8", "replace") for w in _WORD.findall(text)]
    gm = index.gm_addresses | index.global_tensors | index.inferred_gm
    return any(w in gm for w in init) and any(w not in gm for w in init)


def _add_variable(index: Index, cursor, scope=None) -> None:
    name = cursor.spelling
    if not name:
        return
    index.declared.add(name)
    type_toks = index.source_words(cursor, stop_at_name=True)
    if "GlobalTensor" in cursor.type.spelling or "GlobalTensor" in type_toks:
        index.global_tensors.add(name)
    elif "*" in cursor.type.spelling and _gm_qualified(index, cursor, type_toks):
        index.raw_gm_pointers.add(name)
    position = next((t for t in type_toks if t in api.BUFFER_MEMORY), None)
    if position is not None and any(t.startswith(("TQue", "TBuf")) for t in type_toks):
        index.positions[name] = position
    if "GM_ADDR" in type_toks or "__gm__" in type_toks or "GM_ADDR" in cursor.type.spelling:
        index.gm_addresses.add(name)
    elif cursor.type.kind.name == "AUTO" and _gm_initializer(index, cursor):
        index.inferred_gm.add(name)
    # The spelled type, plus clang's view of it (declarations expanded from macros have no spelled type).
    type_names = set(type_toks) | set(re.findall(r"[A-Za-z_]\w*", cursor.type.spelling))
    classes = {t for t in type_names if t in index.classes}
    key = (scope, name)
    if classes:
        index.var_classes.setdefault(name, set()).update(classes)
        index.scoped.setdefault(key, set()).update(classes)
    elif any(t in index.template_params or t in ("auto", "decltype") for t in type_names):
        index.var_generic.add(name)
        index.scoped.setdefault(key, set()).add(GENERIC)
        param = next((t for t in type_toks if t in index.template_params), None)
        if param is not None:
            index.generic_param[key] = param
    else:
        index.scoped.setdefault(key, set())
    if "const" in type_toks or "constexpr" in type_toks:
        _, file, _, end = index.info(cursor)
        at = cursor.location.offset
        m = _CONSTANT.fullmatch(index.file_bytes(file)[at + len(name.encode()):end]) if file else None
        if m:
            try:
                index.constants[name] = int(m.group(1).decode().rstrip("uUlL"), 0)
            except ValueError:
                pass
