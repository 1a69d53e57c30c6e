"""The SuperKernel option string ("key=value:key=value", TorchAir's `super_kernel(scope, options)`) parsed
into a frozen SkOptions, with the checks of the SK compiler (tasksync-semantics.md 3.2): an unknown or
duplicate key or a bad value is a SpecError naming it; an entry without '=' is a warning and is ignored.
"""
from __future__ import annotations

import difflib
import warnings
from dataclasses import dataclass

from ascgen.errors import SpecError


class SkOptionWarning(UserWarning):
    """An SK option entry that the SK compiler would ignore (it warns too)."""


_CHOICES = {                      # options with an effect in the emulator, and their allowed values
    "early-start": ("0", "1", "2"),
    "feed-sync-all": ("0", "1"),
    "debug-sync-all": ("0", "1"),
    "stream-fusion": ("0", "1"),
}
_COUNTS = ("debug-aic-num", "debug-aiv-num")
_NO_EFFECT = {                    # accepted like the SK compiler does; nothing to emulate
    "split-mode": None, "func-align": None, "preload-code": ("max", "none", "per-func"),
    "profiling": ("0", "1"), "debug-dcci-all": ("0", "1"), "compile-options": None,
    "dcci-before-kernel-start": None, "dcci-after-kernel-end": None, "dcci-disable-on-kernel": None,
    "strict-scope-check": None,
}
VALID_KEYS = tuple(sorted((*_CHOICES, *_COUNTS, *_NO_EFFECT)))
MAX_COUNT = 65535                 # core counts and split modes are small; a bigger value is a typo


@dataclass(frozen=True)
class SkOptions:
    early_start: int = 1              # as written; see effective_early_start
    feed_sync_all: bool = False
    debug_sync_all: bool = False
    stream_fusion: bool = False
    debug_aic_num: int = 0
    debug_aiv_num: int = 0
    effective: bool = True            # the product's task sync takes effect (or treat_as_effective)
    text: str = ""
    ignored: tuple = ()               # (key, value) accepted without effect in the emulator
    warnings: tuple = ()              # messages about entries the SK compiler ignores

    @property
    def effective_early_start(self) -> int:
        """What the boundaries do: stream-fusion forces early start off; compile-only products too."""
        if self.stream_fusion or not self.effective:
            return 0
        return self.early_start

    @classmethod
    def parse(cls, text: str | None, product=None, *, treat_as_effective: bool = False) -> "SkOptions":
        """Parse `text`. `product` (a Product or None) decides whether task sync is effective."""
        if text is not None and not isinstance(text, str):
            raise SpecError(f"SK options must be a string like 'early-start=1'; got {text!r}")
        effective = True
        if product is not None:
            effective = product.task_sync == "effective" or bool(treat_as_effective)
        values: dict[str, str] = {}
        notes: list[str] = []
        for entry in _entries(text or ""):
            if "=" not in entry:
                msg = f"SK option entry {entry!r} has no '=': ignored (write key=value)"
                notes.append(msg)
                warnings.warn(msg, SkOptionWarning, stacklevel=2)
                continue
            key, value = (part.strip() for part in entry.split("=", 1))
            _check_key(key, value, entry, values)
            values[key] = value
        opts = cls(
            early_start=int(values.get("early-start", "1")),
            feed_sync_all=values.get("feed-sync-all", "0") == "1",
            debug_sync_all=values.get("debug-sync-all", "0") == "1",
            stream_fusion=values.get("stream-fusion", "0") == "1",
            debug_aic_num=int(values.get("debug-aic-num", "0")),
            debug_aiv_num=int(values.get("debug-aiv-num", "0")),
            effective=effective, text=text or "",
            ignored=tuple((k, v) for k, v in values.items() if k in _NO_EFFECT),
            warnings=tuple(notes))
        _check_ratio(opts)
        return opts


def _entries(text: str) -> list[str]:
    # json.dumps may leave quotes around the whole string; the SK compiler strips them too.
    return [part.strip() for part in text.strip().strip('"').split(":") if part.strip()]


def _check_key(key: str, value: str, entry: str, seen: dict) -> None:
    if key not in VALID_KEYS:
        close = difflib.get_close_matches(key, VALID_KEYS, n=1)
        hint = f" Did you mean {close[0]!r}?" if close else ""
        raise SpecError(f"unknown SK option {key!r} in {entry!r}.{hint} Valid keys: {', '.join(VALID_KEYS)}.")
    if key in seen:
        raise SpecError(f"SK option {key!r} is given twice ({key}={seen[key]} and {key}={value}); give it once.")
    if not value:
        raise SpecError(f"SK option {key!r} has an empty value in {entry!r}.")
    allowed = _CHOICES.get(key) or _NO_EFFECT.get(key)
    if allowed and value not in allowed:
        raise SpecError(f"SK option {key}={value}: the value must be one of {', '.join(allowed)}.")
    if key in _COUNTS or key == "split-mode":
        # isdigit() alone accepts '²' and other Unicode digits, which int() then refuses.
        if not (value.isascii() and value.isdigit()) or int(value) > MAX_COUNT:
            raise SpecError(f"SK option {key}={value}: the value must be a non-negative integer, at most {MAX_COUNT}.")


def _check_ratio(o: SkOptions) -> None:
    aic, aiv = o.debug_aic_num, o.debug_aiv_num
    if aic and aiv and aiv not in (aic, 2 * aic):
        raise SpecError(f"SK options debug-aic-num={aic} and debug-aiv-num={aiv}: the ratio must be 1:0, 0:1, 1:1 "
                        f"or 1:2.")
