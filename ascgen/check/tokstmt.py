"""Statements read from tokens, for code clang gives no usable AST for: the expansions of the user's
function-like macros (operator kernels put whole kernel bodies in macros) and statements clang dropped
because declarations from missing headers are unknown.

A small recursive-descent reader over the tokens: blocks, if / else (also `if constexpr` and the
`if ASCEND_IS_AIV {` form), for / while / do loops, switch, return, break, continue; anything else is a
straight-line statement up to its `;`. Each construct is interpreted with the same path model as the
AST (paths), so the rules see the same branches and loops either way.
"""
from __future__ import annotations
from typing import Any, Callable

from ascgen.check import state
from ascgen.check.tokens import Tok, match_paren

_CLOSERS = {"(": ")", "[": "]", "{": "}"}


def _statement_end(toks: list[Tok], i: int) -> int:
    """Index just past the `;` ending the plain statement at i (or the end of the tokens)."""
    depth = 0
    while i < len(toks):
        t = toks[i].text
        if t in _CLOSERS:
            depth += 1
        elif t in (")", "]", "}"):
            depth -= 1
        elif t == ";" and depth <= 0:
            return i + 1
        i += 1
    return i


class TokenStatements:
    """Mixin for paths.Interpreter: `exec_tokens` interprets a run of tokens as statements."""
    _file: Callable[[Any], str]         # paths.Interpreter's: the file of a cursor

    def exec_tokens(self, toks: list[Tok], states, fn, loop, depth: int = 0):
        flow = state.Flow()
        current, i = states, 0
        while i < len(toks):
            sub, i = self._tok_statement(toks, i, current, fn, loop, depth)
            for name in ("ret", "brk", "cont"):
                state.merge(getattr(flow, name), getattr(sub, name))
            current = sub.fall
        flow.fall = current
        return flow

    def _where(self, tok: Tok, fn) -> str:
        return tok.file or self._file(fn.cursor)

    def _tok_statement(self, toks, i, states, fn, loop, depth):
        t = toks[i].text
        if t == ";" or t == "else":
            return state.Flow(fall=states), i + 1
        if t == "{":
            close = match_paren(toks, i) or len(toks) - 1
            return self.exec_tokens(toks[i + 1:close], states, fn, loop, depth), close + 1
        if t == "if":
            return self._tok_if(toks, i, states, fn, loop, depth)
        if t in ("for", "while") and i + 1 < len(toks) and toks[i + 1].text == "(":
            close = match_paren(toks, i + 1) or len(toks) - 1
            body_start = close + 1
            body_end = self._statement_span(toks, body_start)
            return self._tok_loop(toks[i], toks[i + 2:close], toks[body_start:body_end], states, fn, False,
                                  depth), body_end
        if t == "do":
            body_end = self._statement_span(toks, i + 1)
            header, end = [], body_end
            if body_end < len(toks) and toks[body_end].text == "while" and body_end + 1 < len(toks):
                close = match_paren(toks, body_end + 1) or len(toks) - 1
                header, end = toks[body_end + 2:close], _statement_end(toks, close)
            return self._tok_loop(toks[i], header, toks[i + 1:body_end], states, fn, True, depth), end
        if t == "switch" and i + 1 < len(toks) and toks[i + 1].text == "(":
            return self._tok_switch(toks, i, states, fn, loop, depth)
        if t == "return":
            end = _statement_end(toks, i)
            after = self.leaf(toks[i + 1:end], states, fn, loop, depth)
            step = state.step(toks[i], self._where(toks[i], fn), f"the return at line {toks[i].line} is taken")
            return state.Flow(ret={k: w + (step,) for k, w in after.items()}), end
        if t in ("break", "continue"):
            flow = state.Flow(brk=dict(states)) if t == "break" else state.Flow(cont=dict(states))
            return flow, _statement_end(toks, i)
        end = _statement_end(toks, i)
        return state.Flow(fall=self.leaf(toks[i:end], states, fn, loop, depth)), end

    def _statement_span(self, toks, i) -> int:
        """Index just past the statement starting at i (a block, a compound statement or a plain one)."""
        if i >= len(toks):
            return i
        t = toks[i].text
        if t == "{":
            return (match_paren(toks, i) or len(toks) - 1) + 1
        if t in ("if", "for", "while", "switch") and i + 1 < len(toks):
            k = i + 2 if toks[i + 1].text == "constexpr" else i + 1
            if k < len(toks) and toks[k].text == "(":
                end = self._statement_span(toks, (match_paren(toks, k) or len(toks) - 1) + 1)
            else:                                  # `if ASCEND_IS_AIV {`: the condition is a macro
                brace = next((j for j in range(k, len(toks)) if toks[j].text == "{"), len(toks))
                end = self._statement_span(toks, brace)
            if t == "if" and end < len(toks) and toks[end].text == "else":
                end = self._statement_span(toks, end + 1)
            return end
        if t == "do":
            end = self._statement_span(toks, i + 1)
            return _statement_end(toks, end)
        return _statement_end(toks, i)

    def _tok_if(self, toks, i, states, fn, loop, depth):
        k = i + 2 if i + 1 < len(toks) and toks[i + 1].text == "constexpr" else i + 1
        if k < len(toks) and toks[k].text == "(":
            close = match_paren(toks, k) or len(toks) - 1
            cond, then_at = toks[k + 1:close], close + 1
        else:
            then_at = next((j for j in range(k, len(toks)) if toks[j].text == "{"), len(toks))
            cond = toks[k:then_at]
        states = self.leaf(cond, states, fn, loop, depth)
        true_s, false_s = self.branch(cond, toks[i], self._where(toks[i], fn), states, fn)
        then_end = self._statement_span(toks, then_at)
        flow = self.exec_tokens(toks[then_at:then_end], true_s, fn, loop, depth)
        end = then_end
        if end < len(toks) and toks[end].text == "else":
            else_end = self._statement_span(toks, end + 1)
            other = self.exec_tokens(toks[end + 1:else_end], false_s, fn, loop, depth)
            end = else_end
        elif k == i + 2 and true_s and state.selects_configuration(toks[then_at:then_end], self.summary, fn):
            other = state.Flow()    # `if constexpr` selecting a configuration: see paths.py's docstring
        else:
            other = state.Flow(fall=false_s)
        for name in ("fall", "ret", "brk", "cont"):
            state.merge(getattr(flow, name), getattr(other, name))
        return flow, end

    def _tok_loop(self, keyword, header, body, states, fn, at_least_once, depth):
        def run_body(st, step):
            return self.exec_tokens(body, st, fn, step, depth)
        return self.loop_flow(keyword, self._where(keyword, fn), states, fn, header, body, run_body, at_least_once)

    def _tok_switch(self, toks, i, states, fn, loop, depth):
        """Each top-level `case`/`default` segment is one alternative (fall-through is not modelled)."""
        close = match_paren(toks, i + 1) or len(toks) - 1
        states = self.leaf(toks[i + 2:close], states, fn, loop, depth)
        body_end = self._statement_span(toks, close + 1)
        body = toks[close + 2:body_end - 1] if close + 1 < len(toks) and toks[close + 1].text == "{" else []
        segments, current, level, has_default = [], None, 0, False
        for j, t in enumerate(body):
            level += t.text in _CLOSERS
            level -= t.text in (")", "]", "}")
            if level == 0 and t.text in ("case", "default"):
                colon = next((m for m in range(j, len(body)) if body[m].text == ":"), j)
                has_default |= t.text == "default"
                current = [j, colon + 1, len(body)]
                if segments:
                    segments[-1][2] = j
                segments.append(current)
        where = self._where(toks[i], fn)
        out = state.Flow()
        for label_at, start, end in segments:
            step = state.step(body[label_at], where, f"`{' '.join(t.text for t in body[label_at:start - 1])}` "
                                                      f"of the switch at line {toks[i].line} is taken")
            sub = self.exec_tokens(body[start:end], {k: w + (step,) for k, w in states.items()}, fn, loop, depth)
            for part in (sub.fall, sub.brk):
                state.merge(out.fall, part)
            state.merge(out.ret, sub.ret)
            state.merge(out.cont, sub.cont)
        if not has_default:
            state.merge(out.fall, states)
        return out, body_end
