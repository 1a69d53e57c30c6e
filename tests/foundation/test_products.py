import pytest

from ascgen import products
from ascgen.cli import main
from ascgen.errors import UnsupportedProductError


def test_seven_products_with_semantics_table_values():
    table = {p.id: p for p in products.all()}
    assert set(table) == {"ascend950", "ascend910_93", "ascend910b", "ascend310b", "ascend310p",
                          "ascend310p_vec", "ascend910"}
    assert table["ascend910_93"].npu_arch == 2201 and table["ascend910_93"].task_sync == "effective"
    assert table["ascend910b"].task_sync == "compile-only" and table["ascend910b"].superkernel
    assert table["ascend950"].npu_arch == 3510 and table["ascend950"].separated
    assert table["ascend310p"].default_pipes == ("PIPE_MTE3", "PIPE_MTE3")
    assert table["ascend910"].default_pipes == ("PIPE_MTE3", "PIPE_MTE3")
    assert table["ascend310b"].default_pipes == ("PIPE_MTE3", "PIPE_FIX")
    # 192 KB less 256 B reserved by hardware and 8 KB by the library
    assert table["ascend910b"].ub_bytes == 192 * 1024 - 256 - 8 * 1024
    assert not table["ascend310p"].superkernel and not table["ascend310p"].separated


@pytest.mark.parametrize("alias,expected", [
    ("Ascend910B1", "ascend910b"), ("ascend910b4", "ascend910b"), ("Atlas A2", "ascend910b"),
    ("Ascend910_9391", "ascend910_93"), ("atlas-a3", "ascend910_93"), ("Ascend950PR", "ascend950"),
    ("Atlas 350", "ascend950"), ("dav-3510", "ascend950"), ("Ascend310P3", "ascend310p"),
    ("Ascend310B1", "ascend310b"), ("Ascend910", "ascend910"), ("dav-1001", "ascend910"),
])
def test_aliases(alias, expected):
    assert products.get(alias).id == expected


def test_unknown_product_lists_close_matches():
    with pytest.raises(UnsupportedProductError, match="Did you mean: ascend910b"):
        products.get("ascend91b")


def test_ambiguous_arch_names_both():
    with pytest.raises(UnsupportedProductError, match="ascend910_93 and ascend910b"):
        products.get("dav-2201")


def test_core_counts_are_configurable():
    p = products.get("Ascend910B3").with_cores(aic=20, aiv=40)
    assert (p.aic_cores, p.aiv_cores) == (20, 40) and products.get("ascend910b").aic_cores == 24


def test_products_cli(capsys):
    assert main(["products"]) == 0
    out = capsys.readouterr().out
    assert "ascend910_93" in out and "<PIPE_MTE3, PIPE_FIX>" in out and "compile-only" in out


def test_products_json_gives_machine_values(capsys):
    import json
    assert main(["products", "--format", "json"]) == 0
    records = {r["id"]: r for r in json.loads(capsys.readouterr().out)}
    assert set(records) == {p.id for p in products.all()}
    a3 = records["ascend910_93"]
    assert a3["ub_usable_bytes"] == products.get("ascend910_93").ub_bytes == 188160
    assert a3["superkernel"] is True and a3["separated"] is True and a3["data_copy_pad"] is True
    assert a3["default_pipes"] == {"aiv": "PIPE_MTE3", "aic": "PIPE_FIX"}
    assert "Atlas A3" in a3["aliases"] and a3["npu_arch"] == 2201
