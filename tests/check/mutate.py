"""Mutations of real Ascend C sources for the checker's robustness harness (tests/check/test_fuzz.py).

Each mutation is what an operator tree does to the checker in practice: a statement deleted (a half-edited
file, code clang dropped), the file truncated (an unfinished edit, a bad extraction), a type undefined (the
headers that declare it are not shipped: `float16_t`, `GlobalTensor`, the tiling struct). Deterministic for
a seed, so a failure names a reproducible mutant.
"""
from __future__ import annotations

import random
import re

# Types a kernel leans on; replaced by a name no header declares.
TYPES = ("GlobalTensor", "LocalTensor", "TQue", "TPipe", "TBuf", "half", "float", "int32_t", "uint32_t",
         "GM_ADDR", "TilingData", "TPosition")
UNDECLARED = "float16_t"


def delete_statement(text: str, rng: random.Random) -> str:
    lines = text.splitlines(keepends=True)
    candidates = [i for i, line in enumerate(lines) if line.rstrip().endswith((";", "{", "}"))]
    if not candidates:
        return text
    del lines[rng.choice(candidates)]
    return "".join(lines)


def truncate(text: str, rng: random.Random) -> str:
    return text[:rng.randrange(len(text) // 4, len(text))] if text else text


def undefine_type(text: str, rng: random.Random) -> str:
    present = [t for t in TYPES if re.search(rf"\b{t}\b", text)]
    if not present:
        return text
    name = rng.choice(present)
    # Replace one occurrence, or all of them: both happen when a header is missing.
    if rng.random() < 0.5:
        return re.sub(rf"\b{name}\b", UNDECLARED, text)
    spots = [m.start() for m in re.finditer(rf"\b{name}\b", text)]
    at = rng.choice(spots)
    return text[:at] + UNDECLARED + text[at + len(name):]


def delete_token(text: str, rng: random.Random) -> str:
    """Drop one bracket or keyword: unbalanced blocks, a `case` without a body, an `if` without a condition."""
    spots = [m for m in re.finditer(r"[(){}\[\]:;]|\b(?:case|break|return|else|if|while|for|do|switch)\b", text)]
    if not spots:
        return text
    m = rng.choice(spots)
    return text[:m.start()] + text[m.end():]


MUTATIONS = (delete_statement, truncate, undefine_type, delete_token)


def mutants(text: str, seed: int, count: int):
    """`count` mutants of text: (description, mutated text); some apply two mutations in a row."""
    rng = random.Random(seed)
    for n in range(count):
        out, names = text, []
        for _ in range(rng.choice((1, 1, 2))):
            mutation = rng.choice(MUTATIONS)
            out = mutation(out, rng)
            names.append(mutation.__name__)
        yield f"seed {seed} mutant {n}: {'+'.join(names)}", out
