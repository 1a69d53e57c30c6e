"""Names in builder kernels: the user's spec line (`file:line`) for messages and emitted comments, and the
check that a parameter, dim or kernel name is a C identifier the emitted code does not use itself."""
from __future__ import annotations

import keyword
import os
import re
import sys
import types

from ascgen.errors import SpecError

# Frames inside the ascgen package (any sub-package) are skipped when naming the user's spec line.
_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
# The limit on a kernel's name: it becomes `<name>.cpp`, the stem of the build's files (with a hash and a
# suffix) and an `extern "C"` symbol; 255 bytes per file name leaves this with room to spare.
MAX_KERNEL_NAME = 128
# C++17 keywords plus the C++20 ones a newer compiler reserves ([lex.key]).
CPP_KEYWORDS = frozenset("""
    alignas alignof asm auto bool break case catch char char8_t char16_t char32_t class concept const consteval
    constexpr constinit const_cast continue co_await co_return co_yield decltype default delete do double
    dynamic_cast else enum explicit export extern false float for friend goto if inline int long mutable namespace
    new noexcept nullptr operator private protected public register reinterpret_cast requires return short signed
    sizeof static static_assert static_cast struct switch template this thread_local throw true try typedef typeid
    typename union unsigned using virtual void volatile wchar_t while""".split())
# Alternative tokens ([lex.digraph]): `xor` is the operator `^`, never a name.
CPP_ALT_TOKENS = frozenset("and and_eq bitand bitor compl not not_eq or or_eq xor xor_eq".split())
# Globals every emitted kernel (and its host code) sees: fixed-width types and the libc / libm functions
# the headers declare (a kernel is an extern "C" function: `exp` or `main` would redeclare them), and the
# Ascend C globals and macros (kernel_operator.h, both backends).
RESERVED_GLOBALS = frozenset("""
    main printf fprintf sprintf snprintf vprintf puts putchar getchar fopen fclose fread fwrite fflush perror
    malloc calloc realloc free aligned_alloc memcpy memmove memset memcmp strlen strcpy strncpy strcmp strncmp
    strcat strchr strstr atoi atof strtol strtod exit abort atexit system getenv rand srand qsort bsearch time
    clock signal raise errno assert setjmp longjmp stdin stdout stderr NULL EOF offsetof va_list
    abs labs llabs div fabs fabsf exp expf exp2 expm1 log logf log2 log10 log1p sqrt sqrtf cbrt pow powf sin cos
    tan asin acos atan atan2 sinh cosh tanh erf erfc tgamma lgamma floor ceil round trunc rint nearbyint lround
    fmod remainder fmax fmin fma hypot copysign nan isnan isinf isfinite signbit frexp ldexp modf std
    int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t intptr_t uintptr_t size_t ssize_t
    ptrdiff_t float16_t bfloat16_t half int4b_t
    block_idx block_num g_coreType GetBlockIdx GetBlockNum GetTaskRatio ASCEND_IS_AIC ASCEND_IS_AIV
    ASCEND_IS_NOT_AIC ASCEND_IS_NOT_AIV KERNEL_TASK_TYPE KERNEL_TASK_TYPE_DEFAULT GET_TILING_DATA SK_BIND
    PIPE_V PIPE_S PIPE_M PIPE_MTE1 PIPE_MTE2 PIPE_MTE3 PIPE_FIX PIPE_ALL""".split())
_CPP_RESERVED = {"totalLength", "half", "float", "int", "double", "char", "bool", "void", "auto", "class",
                 "struct", "template", "typename", "namespace", "operator", "new", "delete", "this", "const",
                 "static", "extern", "return", "if", "else", "for", "while", "do", "switch", "case", "default",
                 "break", "continue", "goto", "union", "enum", "public", "private", "protected", "virtual",
                 "inline", "unsigned", "signed", "short", "long", "sizeof", "typedef", "using", "true", "false",
                 "nullptr", "register", "volatile", "friend", "explicit", "mutable", "export", "try", "catch",
                 "throw", "AscendC", "pipe", "op",
                 # locals and members of the emitted class and entry (docs/emit.md)
                 "units", "perCore", "extra", "myUnits", "lastOwner", "alignedLength", "remainder", "blockIdx",
                 "blockNum", "start", "length", "tileNum", "bodyLength", "bodyTiles", "rest", "copyParams", "padParams",
                 "stream", "blockDim", "args", "sysArgs", "golden", "bad", "deviceId", "failed", "GM_ADDR", "half",
                 "bfloat16_t",
                 # 2-D kernels (docs/builder.md "2-D kernels")
                 "rowStart", "rowNum", "tileRows", "rowStride", "invCols", "rowsHere", "row", "firstRow", "value",
                 "workBuf", "redBuf", "rowBuf", "redLocal", "rowTmp", "workLocal", "ubGap", "eventId", "trap",
                 "ascendc_assert",
                 # Matmul (MIX) kernels
                 "workspace", "tileCols", "tilesN", "group", "sub", "groupNum", "myTiles", "bandRow", "bandCol",
                 "bandRows", "firstHalf", "halfCols", "row0", "col0", "mUp", "nUp", "kk", "k0", "pa", "pb", "la", "lb", "mp",
                 "fp", "a1", "b1", "a2", "b2", "c1", "a1Buf", "b1Buf", "a2Buf", "b2Buf", "c1Buf", "tiles"}


def _where() -> str:
    """`file:line` of the first caller outside the ascgen package (the user's spec line)."""
    frame: types.FrameType | None = sys._getframe(1)
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(_PACKAGE_DIR):
        frame = frame.f_back
    if frame is None:
        return "<unknown>"
    return f"{os.path.basename(frame.f_code.co_filename)}:{frame.f_lineno}"


def _check_ident(name, what: str, where: str) -> str:
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
        raise SpecError(f"{what} name {name!r} at {where} is not a C identifier (letters, digits, '_')")
    if what == "kernel" and len(name) > MAX_KERNEL_NAME:
        raise SpecError(f"kernel name {name[:24]!r}... at {where} has {len(name)} characters; at most "
                        f"{MAX_KERNEL_NAME} (it names the emitted `<name>.cpp`, the build's files and the entry "
                        "symbol, and file names stop at 255 bytes): pick a shorter name")
    why = _reserved_why(name)
    if why:
        raise SpecError(f"{what} name {name!r} at {where} is reserved: {why}; pick another name "
                        f"(for example {name}_{what[:1]})")
    return name


def _reserved_why(name: str) -> str | None:
    """Why `name` cannot name a kernel, parameter or dim of the emitted C++, or None."""
    if name in CPP_KEYWORDS:
        return "it is a C++ keyword"
    if name in CPP_ALT_TOKENS:
        return "it is a C++ alternative operator token (like `and`, `xor`)"
    if name in RESERVED_GLOBALS:
        return "it is a C/C++ library or Ascend C global the emitted code sees (a type, function or macro)"
    if name in _CPP_RESERVED or re.fullmatch(r"tmp(Buf)?\d+|.*(Local|Gm)|(in|out)Queue.*|dev_.*|host_.*", name):
        return "it is a name the emitted kernel or host code uses itself (docs/emit.md)"
    if name.startswith("__") or re.match(r"_[A-Z]", name):
        return "names starting with `__` or `_` + capital letter are reserved for the compiler (C++ [lex.name])"
    if keyword.iskeyword(name):
        return "it is a Python keyword"
    return None
