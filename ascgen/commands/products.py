"""`ascgen products`: the product table."""
import json

from ascgen import products


def add_arguments(parser) -> None:
    parser.add_argument("--format", choices=("text", "json"), default="text")


def run(args) -> int:
    if args.format == "json":
        print(json.dumps(products.records(), indent=2))
        return 0
    rows = products.table_rows()
    columns = ["id", "npu_arch", "cores", "default cores", "pipes", "task sync", "SuperKernel", "UB usable", "title"]
    widths = {c: max(len(c), *(len(str(r[c])) for r in rows)) for c in columns}
    print("  ".join(c.ljust(widths[c]) for c in columns).rstrip())
    for r in rows:
        print("  ".join(str(r[c]).ljust(widths[c]) for c in columns).rstrip())
    print("\nAliases: SoC names (Ascend910B1..B4, Ascend910_93xx, Ascend950PR/DT, Ascend310P1/P3, Ascend310B1..4, "
          "Ascend910A), Atlas names (\"Atlas A2\", \"Atlas A3\", \"Atlas 350\"...) and dav-XXXX where unambiguous.")
    return 0
