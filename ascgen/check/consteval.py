"""Conditions the compiler decides: `if (true)`, named constants, template arguments bound at the call
(`Run<true, 2>()`), and what the path already decided about a template parameter (`if constexpr (!B)`
then `if constexpr (B)`; a bool parameter that is not 0 is 1).

A small evaluator over tokens: literals, identifiers with known values, `!`, `&&`, `||`, comparisons
and parentheses. Anything else is unknown (None) and the condition stays a real branch. Facts are kept
in the path state as (name, "eq"|"ne", value) triples, only about compile-time names (template value
parameters), so run-time conditions are never assumed to repeat.
"""
from __future__ import annotations

from ascgen.check.tokens import Tok

_BINARY = (("||",), ("&&",), ("==", "!="), ("<", ">", "<=", ">="))


def literal(text: str):
    if text == "true":
        return 1
    if text == "false":
        return 0
    try:
        return int(text.rstrip("uUlL"), 0)
    except ValueError:
        return None


class Env:
    """Known values: constants and bound template arguments, plus the path's facts."""

    def __init__(self, values: dict, facts: frozenset, bools: set, domains: dict | None = None):
        self.values = values
        self.facts = facts
        self.bools = bools
        self.domains = domains or {}

    def domain(self, name: str):
        """The values `name` can still have on this path (None: unbounded)."""
        base = self.domains.get(name)
        if base is None and name in self.bools:
            base = frozenset({0, 1})
        if base is None:
            return None
        return base - {v for f, rel, v in self.facts if f == name and rel == "ne"}

    def lookup(self, name: str):
        if name in self.values:
            return self.values[name]
        for fname, rel, value in self.facts:
            if fname == name and rel == "eq":
                return value
        left = self.domain(name)
        return next(iter(left)) if left is not None and len(left) == 1 else None

    def excluded(self, name: str, value) -> bool:
        left = self.domain(name)
        return (name, "ne", value) in self.facts or (left is not None and value not in left)


def evaluate(toks: list[Tok], env: Env):
    """The condition's value (an int, 0 false), or None when the compiler would need run-time data."""
    try:
        value, end = _expr(toks, 0, 0, env)
    except (IndexError, ValueError, ZeroDivisionError):
        return None
    return value if end == len(toks) else None


def _expr(toks, i, level, env):
    if level == len(_BINARY):
        return _unary(toks, i, env)
    left, i = _expr(toks, i, level + 1, env)
    while i < len(toks) and toks[i].text in _BINARY[level]:
        op = toks[i].text
        right, i = _expr(toks, i + 1, level + 1, env)
        left = _apply(op, left, right)
    return left, i


def _apply(op, a, b):
    if op == "||":
        if a not in (None, 0) or b not in (None, 0):
            return 1
        return 0 if a == 0 and b == 0 else None
    if op == "&&":
        if a == 0 or b == 0:
            return 0
        return None if a is None or b is None else 1
    if a is None or b is None:
        return None
    return int({"==": a == b, "!=": a != b, "<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[op])


def _unary(toks, i, env):
    t = toks[i].text
    if t == "!":
        value, i = _unary(toks, i + 1, env)
        return (None if value is None else int(not value)), i
    if t == "(":
        value, i = _expr(toks, i + 1, 0, env)
        if toks[i].text != ")":
            raise ValueError("unbalanced")
        return value, i + 1
    if toks[i].kind == "lit" or t in ("true", "false"):
        return literal(t), i + 1
    if toks[i].kind == "id":
        # `a::b` names: the last part carries the value (a class's static constant, an enumerator).
        while i + 2 < len(toks) and toks[i + 1].text == "::" and toks[i + 2].kind == "id":
            i += 2
        if i + 1 < len(toks) and toks[i + 1].text in ("(", "[", ".", "->", "<"):
            raise ValueError("call or member: run-time")
        name = toks[i].text
        if i + 2 < len(toks) and toks[i + 1].text in ("==", "!=") and env.lookup(name) is None:
            # `X == c` where the path already knows X != c, or no build selects c.
            value = literal(toks[i + 2].text) if toks[i + 2].kind == "lit" else env.values.get(toks[i + 2].text)
            if value is not None and (i + 3 >= len(toks) or toks[i + 3].text not in ("(", "[", ".", "::")) \
                    and env.excluded(name, value):
                return (0 if toks[i + 1].text == "==" else 1), i + 3
        return env.lookup(name), i + 1
    raise ValueError("unsupported token")


def facts_of(toks: list[Tok], taken: bool, compile_time: set, values: dict | None = None) -> frozenset:
    """What a decided condition says about one compile-time name: `B`, `!B`, `B == c`, `B != c`."""
    toks = list(toks)
    while toks and toks[0].text == "(" and toks[-1].text == ")":
        toks = toks[1:-1]
    if toks and toks[0].text == "!":
        return facts_of(toks[1:], not taken, compile_time, values)
    if len(toks) == 1 and toks[0].text in compile_time:
        return frozenset({(toks[0].text, "ne" if taken else "eq", 0)})
    if len(toks) == 3 and toks[0].text in compile_time and toks[1].text in ("==", "!="):
        value = literal(toks[2].text) if values is None or toks[2].kind == "lit" else values.get(toks[2].text)
        if value is None:
            return frozenset()
        equal = taken == (toks[1].text == "==")
        return frozenset({(toks[0].text, "eq" if equal else "ne", value)})
    return frozenset()
