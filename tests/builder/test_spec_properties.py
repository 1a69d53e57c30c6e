"""Property-based test (hypothesis) of spec-file loading: random spec files give their kernels or a
SpecError, never another exception (sys.exit, KERNELS of the wrong type, bad bytes, syntax errors).
What no loader can stop in-process (os._exit, an endless loop at module level) is not generated, nor
KeyboardInterrupt, which ascgen treats as the user's Ctrl-C (exit 130)."""
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ascgen.builder import Kernel, load_spec
from ascgen.errors import SpecError

_FRAGMENTS = [
    "import sys\nsys.exit(3)\n", "exit()\n", "raise SystemExit('bye')\n",
    "raise ValueError('x')\n", "KERNELS = 5\n", "KERNELS = None\n", "KERNELS = [1, 2]\n", "KERNELS = 'abc'\n",
    "KERNELS = (k for k in [1/0])\n", "def f(:\n", "\x00\n", "import no_such_module_xyz\n", "x = 1\n",
    "from ascgen.builder import Kernel\nk = Kernel('k', block_dim=1, tile_length=256)\n",
    "from ascgen.builder import Kernel\na = Kernel('same', block_dim=1, tile_length=256)\n"
    "b = Kernel('same', block_dim=1, tile_length=256)\n",
    "def r(): return r()\nr()\n",
]


def _spec_bytes():
    text = st.lists(st.one_of(st.sampled_from(_FRAGMENTS), st.text(max_size=30)), min_size=0, max_size=4)
    return st.one_of(text.map(lambda parts: "".join(parts).encode("utf-8", "surrogatepass")),
                     st.binary(max_size=40))


@settings(max_examples=80, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(_spec_bytes())
def test_spec_loading_gives_kernels_or_spec_error(tmp_path, content):
    spec = tmp_path / "spec.py"
    try:
        spec.write_bytes(content)
    except ValueError:
        return
    try:
        kernels = load_spec(spec)
    except SpecError:
        return
    assert kernels and all(isinstance(k, Kernel) for k in kernels)


def test_sys_exit_in_a_spec_is_a_spec_error_with_the_line(tmp_path):
    spec = tmp_path / "quits.py"
    spec.write_text("x = 1\nimport sys\nsys.exit(3)\n")
    try:
        load_spec(spec)
    except SpecError as exc:
        assert "quits.py:3" in str(exc) and "sys.exit(3)" in str(exc)
    else:
        raise AssertionError("a spec calling sys.exit(3) must raise SpecError")


def test_spec_path_of_the_wrong_type_is_a_spec_error():
    for bad in (None, 3, "no\0such", b"/no/such/spec.py"):
        try:
            load_spec(bad)
        except SpecError:
            continue
        raise AssertionError(f"load_spec({bad!r}) must raise SpecError")
