// ascgen: ge::Shape, the only part of CANN's graph/tensor.h the asc-devkit tiling API uses
// (AscendC::TensorShape). A shape is a list of dimensions; GetShapeSize is their product, 0 for a shape
// without dimensions and -1 if any dimension is unknown (negative), as in CANN.
#pragma once
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>
#include "graph/types.h"

namespace ge {

class Shape {
public:
    Shape() = default;
    explicit Shape(const std::vector<int64_t>& dims) : dims_(dims) {}
    size_t GetDimNum() const { return dims_.size(); }
    int64_t GetDim(size_t idx) const {
        if (idx >= dims_.size()) {
            throw std::out_of_range("ge::Shape::GetDim(" + std::to_string(idx) + ") on a shape of " +
                                    std::to_string(dims_.size()) + " dimensions");
        }
        return dims_[idx];
    }
    void SetDim(size_t idx, int64_t value) {
        if (idx >= dims_.size()) {
            throw std::out_of_range("ge::Shape::SetDim(" + std::to_string(idx) + ") on a shape of " +
                                    std::to_string(dims_.size()) + " dimensions");
        }
        dims_[idx] = value;
    }
    std::vector<int64_t> GetDims() const { return dims_; }
    int64_t GetShapeSize() const {
        if (dims_.empty()) return 0;
        int64_t n = 1;
        for (int64_t d : dims_) {
            if (d < 0) return -1;
            n *= d;
        }
        return n;
    }
    bool operator==(const Shape& o) const { return dims_ == o.dims_; }
    bool operator!=(const Shape& o) const { return dims_ != o.dims_; }

private:
    std::vector<int64_t> dims_;
};

}  // namespace ge
