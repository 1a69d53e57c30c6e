// ascgen: empty on purpose. The source analysis (ascgen/runtime/analysis.py) preprocesses a devkit host
// program with directives only, so the tiling API needs no content there; the build uses the real
// headers (devkit_host.py).
#pragma once
