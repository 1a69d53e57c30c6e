// ascgen: empty on purpose. The source analysis (ascgen/runtime/analysis.py) only reads the user's kernel
// signatures; the build includes the real header (the tree's include/adv_api, linked as lib/ by devkit.py).
#pragma once
