// ascgen: ge::Shape (metadef's graph/tensor.h declares it; GE's closed graph library defines it), for op_host
// code that describes shapes to the advanced API's tiling (GetLayerNormMaxMinTmpSize(ge::Shape...)). It
// follows the contract the header documents: GetDimNum is 0 for an unknown rank ([-2]); GetShapeSize is -1
// when a dimension is unknown (-1 or -2), 0 for an empty tensor, a scalar or an int64 overflow.
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "graph/tensor.h"

namespace ge {

class ShapeImpl {
public:
    std::vector<int64_t> dims;
};

namespace {
constexpr int64_t kUnknownDim = -1;
constexpr int64_t kUnknownRank = -2;
}  // namespace

Shape::Shape() : impl_(std::make_shared<ShapeImpl>()) {}

Shape::Shape(const std::vector<int64_t>& dims) : impl_(std::make_shared<ShapeImpl>()) { impl_->dims = dims; }

size_t Shape::GetDimNum() const {
    for (auto d : impl_->dims) {
        if (d == kUnknownRank) return 0;
    }
    return impl_->dims.size();
}

int64_t Shape::GetDim(size_t idx) const { return idx < impl_->dims.size() ? impl_->dims[idx] : 0; }

graphStatus Shape::SetDim(size_t idx, int64_t value) {
    if (idx >= impl_->dims.size()) return GRAPH_FAILED;
    impl_->dims[idx] = value;
    return GRAPH_SUCCESS;
}

std::vector<int64_t> Shape::GetDims() const { return impl_->dims; }

int64_t Shape::GetShapeSize() const {
    if (impl_->dims.empty()) return 0;
    int64_t size = 1;
    for (auto d : impl_->dims) {
        if (d == kUnknownDim || d == kUnknownRank) return -1;
    }
    for (auto d : impl_->dims) {
        if (d == 0) return 0;
        if (d > std::numeric_limits<int64_t>::max() / size) return 0;   // the product overflows int64
        size *= d;
    }
    return size;
}

}  // namespace ge
