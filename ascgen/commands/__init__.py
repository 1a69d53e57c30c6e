"""One module per `ascgen` subcommand (each exposes `add_arguments(parser)` and `run(args) -> int`)."""

# The product every command that takes one uses when --product is not given: the first one where task
# sync takes effect, so `run`, `test`, `sk` and `demo` show what a SuperKernel would do on the device.
DEFAULT_PRODUCT = "ascend910_93"
