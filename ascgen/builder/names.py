"""Names in builder kernels: the user's spec line (`file:line`) for messages and emitted comments, and the
check that a parameter, dim or kernel name is a C identifier the emitted code does not use itself."""
from __future__ import annotations

import keyword
import os
import re
import sys

from ascgen.errors import SpecError

# Frames inside the ascgen package (any sub-package) are skipped when naming the user's spec line.
_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
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
                 "bandRows", "firstHalf", "row0", "col0", "mUp", "nUp", "kk", "k0", "pa", "pb", "la", "lb", "mp",
                 "fp", "a1", "b1", "a2", "b2", "c1", "a1Buf", "b1Buf", "a2Buf", "b2Buf", "c1Buf", "tiles"}


def _where() -> str:
    """`file:line` of the first caller outside the ascgen package (the user's spec line)."""
    frame = sys._getframe(1)
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(_PACKAGE_DIR):
        frame = frame.f_back
    if frame is None:
        return "<unknown>"
    return f"{os.path.basename(frame.f_code.co_filename)}:{frame.f_lineno}"


def _check_ident(name, what: str, where: str) -> str:
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
        raise SpecError(f"{what} name {name!r} at {where} is not a C identifier (letters, digits, '_')")
    if (name in _CPP_RESERVED or keyword.iskeyword(name) or name.startswith("__")
            or re.fullmatch(r"tmp(Buf)?\d+|.*(Local|Gm)|(in|out)Queue.*|dev_.*|host_.*", name)):
        raise SpecError(f"{what} name {name!r} at {where} is reserved: it is a C++ or Python keyword or a "
                        "name the emitted kernel or host code uses itself (docs/emit.md); pick another name")
    return name


