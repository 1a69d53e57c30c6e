"""An operator repository's kernel, built from Python exactly as its kernel UT builds it.

`kernel_module(op_dir, product)` reads the op's AddOpTestCase rule and its plan (plan.py: include folders
of the build, the rule's -D options, UT_SOC_VERSION / __CCE_KT_TEST__, the forced `<op>_tiling_def.h` or
generated `<op>_tiling_data.h`) and loads the op's kernel source with them on the devkit backend, alone
(no gtest main, no test source): a Module whose kernels launch like any other, e.g. as a task of a
`SuperKernel` between other kernels (docs/ut.md, "A production kernel in a SuperKernel").
"""
from __future__ import annotations

from pathlib import Path

from ascgen.errors import SpecError
from ascgen.runtime.program import program_flags
from ascgen.runtime.module import Module
from ascgen.ut import cmake, plan as plans, targets


def kernel_source(plan: plans.Plan) -> Path:
    """The op's kernel file of a plan: `<op>/op_kernel/<name>.cpp` (`<name>`: the op, or its opFile for the
    product), also when a test source includes it (the plan then does not compile it separately); its copy
    in the build's kernel tree when the build compiles that (plan.compiled_kernel)."""
    rule = plan.rule
    name, _ = plans._named_tests(rule, plan.soc, plan.product)
    declared = cmake.declared_kernel(rule.op_dir, plan.product)
    for path in [*([declared] if declared else []), *(rule.op_dir / "op_kernel" / f"{s}.cpp" for s in dict.fromkeys((name, rule.op)))]:
        if path.is_file():
            variables, _ = plans.kernel_include_path(rule)
            return plans.compiled_kernel(rule, cmake.convention(rule.repository), variables, path)
    raise SpecError(f"{rule.op_dir}: no kernel source op_kernel/{name}.cpp (the kernel file the UT of "
                    f"{rule.where} builds)")


def ut_plan(op_dir, product: str) -> plans.Plan:
    """The plan of the op's kernel UT for `product` (an ascgen product id, e.g. "ascend910b")."""
    op_dir = Path(op_dir).expanduser().resolve()
    rules, problems = cmake.discover([op_dir])
    mine = [r for r in rules if r.op_dir.resolve() == op_dir]
    if not mine:
        read = f" ({'; '.join(problems)})" if problems else ""
        raise SpecError(f"{op_dir}: no {cmake.RULE_NAME}(...) rule for this op folder{read}. Hint: pass the "
                        f"folder of one op whose tests/ut/op_kernel/CMakeLists.txt (or own CMakeLists.txt) has one")
    reasons = []
    for rule in mine:
        for target in targets.targets(rule, cmake.convention(rule.repository), product):
            if target.plan is not None:
                return target.plan
            reasons.append(f"{target.soc}: {target.status}: {target.reason}")
    socs = ", ".join(s for r in mine for s in r.socs)
    detail = "; ".join(reasons) if reasons else f"its rules name the socs {socs}, none of them {product}"
    raise SpecError(f"{op_dir}: the kernel UT cannot be built for {product}: {detail}")


def kernel_module(op_dir, product: str, *, backend: str = "devkit") -> Module:
    """The op's kernel built as its kernel UT builds it, for `product`: the UT plan's include folders,
    defines and forced includes, on `backend` (the devkit backend, as `ascgen ut` runs). Raises SpecError
    naming the op folder when it has no UT rule for the product or the rule cannot be planned."""
    plan = ut_plan(op_dir, product)
    source = kernel_source(plan)        # a link in the copy tree: compiled where it stands, not resolved
    flags = program_flags(plan.forced_includes, defines=plan.defines, file_maps=plan.file_maps)
    return Module(source.read_text(errors="replace"), str(source), source, plan.product, defines=plan.defines,
                  include_dirs=plan.include_dirs, extra_flags=flags, backend=backend)
