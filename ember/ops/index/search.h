#pragma once
// searchsorted, bucketize and isin (ops/index/search.cpp): binary search of values in
// sorted boundaries. The results are indices (int64, or int32 on request) or
// bools, so nothing here is differentiable.
#include <optional>
#include <string_view>

#include "ember/core/tensor.h"

namespace torch {

// For each value, the index at which inserting it into the innermost dim of
// sorted_sequence keeps that dim sorted: the first such index, or the last with
// right = true (or side = "right"). sorted_sequence is 1-D, or its leading dims
// match self's. sorter, if given, holds the indices that sort sorted_sequence.
Tensor searchsorted(const Tensor& sorted_sequence, const Tensor& self, bool out_int32 = false, bool right = false,
                    std::optional<std::string_view> side = std::nullopt,
                    const std::optional<Tensor>& sorter = std::nullopt);
Tensor searchsorted(const Tensor& sorted_sequence, const Scalar& self, bool out_int32 = false, bool right = false,
                    std::optional<std::string_view> side = std::nullopt,
                    const std::optional<Tensor>& sorter = std::nullopt);
// searchsorted(boundaries, self) with 1-D boundaries: the bucket of each value.
Tensor bucketize(const Tensor& self, const Tensor& boundaries, bool out_int32 = false, bool right = false);
Tensor bucketize(const Scalar& self, const Tensor& boundaries, bool out_int32 = false, bool right = false);

// Whether each element occurs in test_elements (compared in their promoted
// dtype; NaN occurs nowhere), or the opposite with invert. Complex and bool raise.
Tensor isin(const Tensor& elements, const Tensor& test_elements, bool assume_unique = false, bool invert = false);
Tensor isin(const Tensor& elements, const Scalar& test_element, bool assume_unique = false, bool invert = false);
Tensor isin(const Scalar& element, const Tensor& test_elements, bool assume_unique = false, bool invert = false);

}  // namespace torch
