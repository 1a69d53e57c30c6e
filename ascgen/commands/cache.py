"""`ascgen cache info` / `ascgen cache clear`: where compiled kernels are cached, how much space they use,
and emptying the cache. The cap (ASCGEN_CACHE_LIMIT, default 1 GiB) is kept by least-recently-used
eviction after each build. `clear` removes only what ascgen wrote (runtime/build/cache.py); `info --format json`
is the same facts for scripts."""
from __future__ import annotations

import json

from ascgen import config, console
from ascgen.runtime.build import cache, cache_integrity

SHOWN = 20


def add_arguments(parser) -> None:
    parser.add_argument("action", choices=("info", "clear"), help="info: location, size and entries; clear: empty it")
    parser.add_argument("--all", action="store_true", help="info: list every entry, not only the most recent")
    parser.add_argument("--format", choices=("text", "json"), default="text", help="info: text or JSON")


def run(args) -> int:
    if args.action == "clear":
        count, freed = cache.clear()
        console.info(f"removed {count} entries ({cache.human(freed)}) from {config.cache_dir()}")
        return 0
    facts = _facts()
    if args.format == "json":
        print(json.dumps(facts, indent=1))
        return 0
    limit = facts["limit_bytes"]
    console.info(f"location: {facts['location']}  ({facts['location_from']})")
    console.info(f"size:     {cache.human(facts['size_bytes'])} in {len(facts['entries'])} entries; cap "
                 f"{cache.human(limit) if limit else 'none'} (ASCGEN_CACHE_LIMIT)")
    if facts["in_progress"]:
        console.info(f"builds in progress: {len(facts['in_progress'])}")
    if facts["orphans"]:
        console.info(f"left by killed builds: {len(facts['orphans'])} ({cache.human(facts['orphans_bytes'])}; "
                     "removed by the next build or `ascgen cache clear`)")
    newest = list(reversed(facts["entries"]))
    shown = newest if args.all else newest[:SHOWN]
    if shown:
        width = max(len(e["name"]) for e in shown)
        console.info("")
        for e in shown:
            console.info(f"  {e['name'].ljust(width)}  {cache.human(e['size_bytes']):>10}  {cache.age(e['last_used'])}")
    if len(shown) < len(newest):
        console.info(f"  ... {len(newest) - len(shown)} older entries (--all lists them)")
    return 0


def _facts() -> dict:
    root = config.cache_dir()
    configured, default = config.cache_setting()
    items = cache.entries(root)
    orphans = cache_integrity.orphans(root) if root.is_dir() else []
    live = [p for p in cache.in_progress(root) if p not in {o for o, _ in orphans}]
    return {
        "location": str(root),
        "location_from": ("default" if default else "ASCGEN_CACHE_DIR") +
                         (f"; {configured} holds other files, so its {config.CACHE_SUBFOLDER}/ subfolder"
                          if root != configured else ""),
        "size_bytes": cache.total_size(items) + sum(size for _, size in orphans),
        "limit_bytes": config.cache_limit(),
        "entries": [{"name": e.name, "size_bytes": e.size, "last_used": e.last_used} for e in items],
        "in_progress": [str(p) for p in live],
        "orphans": [str(p) for p, _ in orphans],
        "orphans_bytes": sum(size for _, size in orphans),
    }
