"""`ascgen cache info` / `ascgen cache clear`: where compiled kernels are cached, how much space they use,
and emptying the cache. The cap (ASCGEN_CACHE_LIMIT, default 1 GiB) is kept by least-recently-used
eviction after each build."""
from __future__ import annotations

from ascgen import config, console
from ascgen.runtime.build import cache

SHOWN = 20


def add_arguments(parser) -> None:
    parser.add_argument("action", choices=("info", "clear"), help="info: location, size and entries; clear: empty it")
    parser.add_argument("--all", action="store_true", help="info: list every entry, not only the most recent")


def run(args) -> int:
    if args.action == "clear":
        count, freed = cache.clear()
        console.info(f"removed {count} entries ({cache.human(freed)}) from {config.cache_dir()}")
        return 0
    items = cache.entries()
    limit = config.cache_limit()
    console.info(f"location: {config.cache_dir()}  (ASCGEN_CACHE_DIR)")
    console.info(f"size:     {cache.human(cache.total_size(items))} in {len(items)} entries; cap "
                 f"{cache.human(limit) if limit else 'none'} (ASCGEN_CACHE_LIMIT)")
    pending = cache.in_progress()
    if pending:
        console.info(f"builds in progress or interrupted: {len(pending)}")
    newest = list(reversed(items))
    shown = newest if args.all else newest[:SHOWN]
    if shown:
        width = max(len(e.name) for e in shown)
        console.info("")
        for e in shown:
            console.info(f"  {e.name.ljust(width)}  {cache.human(e.size):>10}  {cache.age(e.last_used)}")
    if len(shown) < len(newest):
        console.info(f"  ... {len(newest) - len(shown)} older entries (--all lists them)")
    return 0
