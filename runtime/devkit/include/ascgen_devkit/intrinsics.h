// The CCE intrinsics this backend implements, on the ascgen core (rt.h). What is not here is declared in
// missing.h and fails the link by name.
#pragma once
#include "state.h"
#include "scalar.h"
#include "sync.h"
#include "vector.h"
#include "convert.h"
#include "cmpsel.h"
#include "rearrange.h"
#include "sort.h"
#include "dma.h"
#include "cube.h"
#include "cube_int4.h"
#include "cube_sparse.h"
#include "hooks.h"
#include "copies.h"
#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 3510
#include "dav3510/intrinsics.h"
#endif
