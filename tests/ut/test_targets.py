"""The programs a rule makes (ascgen/ut/targets.py) and which listed cases a declared one stands for."""
from ascgen.ut import cmake, targets
from tests.ut import synthetic


def test_a_declared_case_stands_for_itself_and_its_parameterised_instances():
    listed = ["AddOne.small", "AddOne.small_big", "Sizes/AddOne.small/0", "Sizes/AddOne.small/1",
              "AddOne/0.small", "Other.small"]
    assert targets.instances("AddOne.small", listed) == ["AddOne.small", "Sizes/AddOne.small/0",
                                                         "Sizes/AddOne.small/1", "AddOne/0.small"]
    assert targets.instances("AddOne.absent", listed) == []


def test_each_soc_is_a_target_planned_or_with_its_reason(tmp_path):
    repo = synthetic.math_repo(tmp_path / "math")
    rules, problems = cmake.discover([repo])
    assert not problems and len(rules) == 1
    conv = cmake.convention(repo)
    found = targets.targets(rules[0], conv)
    assert [(t.soc, t.product) for t in found] == [("ascend910b", "ascend910b"), ("ascend950", "ascend950")]
    assert all(t.plan is not None for t in found)
    assert [t.soc for t in targets.targets(rules[0], conv, "ascend950")] == ["ascend950"]
    assert found[0].file == "math/scale/tests/ut/op_kernel/test_scale.cpp"
