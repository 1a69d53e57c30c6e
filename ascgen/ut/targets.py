"""What one AddOpTestCase rule makes: a UT program per soc it names, each planned or with the reason it
cannot be, and the cases the program's sources declare. Shared by `ascgen ut` and the pytest plugin, so both
see the same programs under the same names.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ascgen import products
from ascgen.errors import SpecError
from ascgen.ut import cmake, plan as plans, runner


@dataclass(frozen=True)
class Target:
    """One soc of a rule: its Plan, or (plan None) the status and reason every case of it gets."""
    rule: cmake.Rule
    soc: str
    product: str                # the product id; the soc itself when it is no product
    plan: plans.Plan | None
    status: str = ""            # "unsupported" or "error" when plan is None
    reason: str = ""

    def _tests(self) -> list[Path]:
        try:
            return self.plan.tests if self.plan else plans.test_sources(self.rule, self.soc)
        except (OSError, SpecError):
            return []

    @property
    def file(self) -> str:
        """The test sources, relative to the repository (the rule's file:line when there are none)."""
        files = [t.relative_to(self.rule.repository).as_posix() for t in self._tests()]
        return ",".join(files) or Path(self.rule.where).relative_to(self.rule.repository).as_posix()

    def declared(self) -> list[str]:
        """Suite.Name of each case the test sources declare (the program is not built to list them)."""
        return runner.declared_cases(self._tests())


def product(soc: str, conv: cmake.Convention) -> str:
    """The product of a soc; the soc itself when it is no product (reported as unsupported)."""
    try:
        return plans.product_of(soc, conv)
    except plans.Unsupported:
        return soc


def _soc_of(product_id: str, conv: cmake.Convention) -> str:
    """A soc name for a product, preferring the repository's own full names (cmake/ lists)."""
    for full in conv.full_soc.values():
        if product(full, conv) == product_id:
            return full
    return products.get(product_id).soc_versions[0]


def targets(rule: cmake.Rule, conv: cmake.Convention, wanted: str | None = None) -> list[Target]:
    """The programs of `rule`, one per soc (only `wanted`'s when a product is given)."""
    found = []
    for soc in rule.socs:
        if soc.startswith("${"):           # the soc the build is configured with (${ASCEND_COMPUTE_UNIT})
            if not wanted:
                found.append(Target(rule, soc, soc, None, "unsupported",
                                    f"the rule's socs are {soc}, the soc a build is configured for; pass "
                                    "--product P to run it for one"))
                continue
            soc = _soc_of(wanted, conv)
        if wanted and product(soc, conv) != wanted:
            continue
        try:
            found.append(Target(rule, soc, product(soc, conv), plans.plan(rule, soc, conv)))
        except (plans.Unsupported, SpecError) as exc:
            reason = str(exc)
            if conv.optional_name and soc == rule.op:
                reason += (f" ({rule.where}: the op name starts with 'ascend', so this repository's "
                           f"{cmake.RULE_NAME} takes it for the socs; its own build skips this rule too)")
            status = "unsupported" if isinstance(exc, plans.Unsupported) else "error"
            found.append(Target(rule, soc, product(soc, conv), None, status, reason))
    return found


def instances(declared: str, listed: list[str]) -> list[str]:
    """The listed gtest cases a declared Suite.Name stands for: itself, or a TEST_P / TYPED_TEST's
    instances (`Prefix/Suite.Name/0`, `Suite/0.Name`)."""
    suite, name = declared.split(".", 1)
    pattern = re.compile(rf"(?:\w+/)?{re.escape(suite)}(?:/\w+)?\.{re.escape(name)}(?:/\w+)?")
    return [c for c in listed if c == declared or pattern.fullmatch(c)]
