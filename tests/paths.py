"""Where the tests' data lives: each folder named once, relative to this file."""
from pathlib import Path

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
GENERATED = REPO / "generated"
EXAMPLES = REPO / "examples"
SK_BUGS = TESTS / "data" / "sk_bugs"                  # seeded SuperKernel bugs: runtime and checker agree
RUNTIME_KERNELS = TESTS / "data" / "runtime_kernels"  # hand-written kernels for load / run
DEVKIT_CUBE = TESTS / "data" / "devkit_cube"          # cube / MIX kernels for the devkit backend
CHECK_CORPUS = TESTS / "check" / "corpus"
CORE_KERNELS = TESTS / "core" / "kernels"
LIBRARY_STUB = TESTS / "library" / "stub"
SK_NATIVE = TESTS / "superkernel" / "native"
