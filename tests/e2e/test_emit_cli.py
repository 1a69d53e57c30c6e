"""`ascgen emit` writes one .cpp per kernel; --host adds main.cpp, CMakeLists.txt and reference data."""
from __future__ import annotations


import numpy as np

from ascgen.cli import main
from tests.paths import REPO

ROOT = REPO


def test_emit_writes_one_cpp_per_kernel(tmp_path, capsys):
    assert main(["emit", str(ROOT / "examples" / "int_mix.py"), "--product", "ascend910_93", "-o", str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["int_clamp_add.cpp", "requant_u8.cpp"]
    assert (tmp_path / "requant_u8.cpp").read_text() == (ROOT / "generated/ascend910_93/requant_u8.cpp").read_text()


def test_emit_host_project(tmp_path, capsys):
    spec = ROOT / "examples" / "add_relu.py"
    assert main(["emit", str(spec), "--product", "Ascend910B2", "-o", str(tmp_path), "--host", "--length", "1000"]) == 0
    cmake = (tmp_path / "CMakeLists.txt").read_text()
    assert 'set(CMAKE_ASC_ARCHITECTURES "dav-2201"' in cmake and "find_package(ASC REQUIRED)" in cmake
    main_cpp = (tmp_path / "main.cpp").read_text()
    assert "add_relu_do(blockDim, stream, dev_x, dev_y, dev_z, totalLength, 0.5f);" in main_cpp
    assert "const uint32_t totalLength = 1000;" in main_cpp
    x = np.fromfile(tmp_path / "input" / "add_relu.x.bin", np.float16)
    y = np.fromfile(tmp_path / "input" / "add_relu.y.bin", np.float16)
    z = np.fromfile(tmp_path / "golden" / "add_relu.z.bin", np.float16)
    assert x.size == y.size == z.size == 1000
    np.testing.assert_array_equal(z, (np.maximum(x + y, 0) * np.float16(0.5)).astype(np.float16))
    kernel = (tmp_path / "add_relu.cpp").read_text()
    assert "SetNextTaskStart<PIPE_MTE3, PIPE_FIX, true>" in kernel and "SK_BIND(add_relu, 3" in kernel
    assert "compile-only" in capsys.readouterr().err        # ascend910b: warned once


def test_host_length_below_the_aligned_minimum_is_refused_without_data_copy_pad(tmp_path, capsys):
    spec = ROOT / "examples" / "add_relu.py"
    assert main(["emit", str(spec), "--product", "ascend310p", "-o", str(tmp_path), "--host", "--length", "5"]) == 2
    assert "below 16" in capsys.readouterr().err


def _host_program(tmp_path, spec, product):
    out = tmp_path / product
    assert main(["emit", str(ROOT / "examples" / spec), "--product", product, "-o", str(out), "--host", "-q"]) == 0
    kernels = sorted(p for p in out.glob("*.cpp") if p.name != "main.cpp")
    # `ascgen run` takes one source: the kernels (with their <<<>>> launchers) then main.cpp
    combined = out / "program.cpp"
    combined.write_text("".join(p.read_text() for p in kernels) + (out / "main.cpp").read_text())
    return out, combined


def test_host_program_runs_on_the_emulator_and_checks_the_golden_data(tmp_path, capfd):
    for product in ("ascend910_93", "ascend310p"):     # with and without the SK_BIND twin
        out, program = _host_program(tmp_path, "int_mix.py", product)
        assert main(["run", str(program), "--product", product, "--cwd", str(out)]) == 0
        printed = capfd.readouterr().out
        assert "int_clamp_add: pass" in printed and "requant_u8: pass" in printed


def test_host_program_reports_a_wrong_golden(tmp_path, capfd):
    out, program = _host_program(tmp_path, "add_relu.py", "ascend910_93")
    golden = out / "golden" / "add_relu.z.bin"
    data = bytearray(golden.read_bytes())
    data[100:102] = b"\x00\x7c"        # +inf in half: no kernel result matches it
    golden.write_bytes(bytes(data))
    assert main(["run", str(program), "--product", "ascend910_93", "--cwd", str(out)]) == 1
    assert "add_relu: FAIL" in capfd.readouterr().out


def test_a_refused_kernel_leaves_no_partial_output(tmp_path, capsys):
    spec = tmp_path / "two.py"
    spec.write_text("from ascgen.builder import Kernel, Relu, Cast\n"
                    "a = Kernel('fine')\na.output('y', Relu(a.input('x', 'float16')))\n"
                    "b = Kernel('needs_bf16')\nb.output('y', Cast(b.input('x', 'bfloat16'), 'float32'))\n")
    out = tmp_path / "out"
    assert main(["emit", str(spec), "--product", "ascend310p", "-o", str(out)]) == 2
    assert "bfloat16 is not offered on ascend310p" in capsys.readouterr().err
    assert not out.exists()


_ROWS_AND_MATMUL = """
from ascgen.builder import Cast, Exp, Kernel, Matmul, ReduceMax, ReduceSum, Relu

sm = Kernel("sm", block_dim=3, tile_length=256)
x = sm.input("x", "float32", shape=("rows", "cols"))
e = Exp(x - ReduceMax(x, axis=-1))
sm.output("y", e / ReduceSum(e, axis=-1))

mm = Kernel("mm", block_dim=2)
K = mm.dim("K", multiple_of=16)
a = mm.input("a", "float16", shape=("M", K))
b = mm.input("b", "float16", shape=(K, "N"))
c = Matmul(a, b, tile=(32, 32, 16))
mm.output("z", Cast(Relu(c), "float16"))
"""


def test_host_program_of_2d_and_matmul_kernels_runs_on_the_emulator(tmp_path, capfd):
    spec = tmp_path / "two_d.py"
    spec.write_text(_ROWS_AND_MATMUL)
    out = tmp_path / "proj"
    assert main(["emit", str(spec), "--product", "ascend910b", "-o", str(out), "--host", "-q"]) == 0
    main_cpp = (out / "main.cpp").read_text()
    assert "const uint32_t rows = 11;" in main_cpp and "const uint32_t cols = 86;" in main_cpp
    assert "sm_do(blockDim, stream, dev_x, dev_y, rows, cols);" in main_cpp
    assert "mm_do(blockDim, stream, dev_a, dev_b, dev_workspace, dev_z, M, N, K);" in main_cpp
    assert np.fromfile(out / "golden" / "mm.workspace.bin", np.float32).size == 65 * 37
    # separate sources, as CMake compiles them: the kernel type of an unmarked kernel is inferred per file
    sources = [str(out / name) for name in ("main.cpp", "sm.cpp", "mm.cpp")]
    assert main(["run", *sources, "--product", "ascend910b", "--cwd", str(out)]) == 0
    printed = capfd.readouterr().out
    assert "sm: pass" in printed and "mm: pass" in printed
    assert main(["emit", str(spec), "--product", "ascend910b", "-o", str(tmp_path / "p2"), "--host", "--length", "9"]) == 2
    assert "--length applies to 1-D kernels; kernel 'sm' is 2-D" in capfd.readouterr().err
