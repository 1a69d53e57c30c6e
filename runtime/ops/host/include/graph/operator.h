// ascgen stand-in for graph/operator.h, GE's graph API header, which only closed CANN ships.
//
// Operator-repository headers include it for the type ge::Operator (ops-nn common/inc/error_util.h includes
// it and then uses only opbase's log macros). metadef's own build of its op-definition library declares the
// class forward in its place (register/op_def.h under NO_OPERATOR_IMPL); this does the same, plus the public
// metadef headers the real one brings in. Nothing of the class is defined: a source that calls into
// ge::Operator fails to compile on the incomplete type, so that use is seen, not guessed at
// (docs/ops.md, "The closed pieces").
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "graph/ascend_string.h"
#include "graph/ge_error_codes.h"
#include "graph/tensor.h"
#include "graph/types.h"

namespace ge {
class Operator;
}
