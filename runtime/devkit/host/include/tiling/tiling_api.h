// ascgen: CANN installs asc-devkit's include/adv_api/tiling_api.h as tiling/tiling_api.h; host programs
// include it by that name.
#pragma once
#include "adv_api/tiling_api.h"
