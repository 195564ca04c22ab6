#pragma once
// The *_scatter ops: a copy of self with src written into one of self's views
// (the slice, select, diagonal or as_strided view of the same arguments). They
// are the out-of-place forms of `self.slice(...).copy_(src)`, and are built of
// exactly that (ops/shape/scatter_views.cpp): clone, view, copy_. Their gradients,
// tangents and batching rules are those of the three ops.
#include <optional>

#include "ember/core/tensor.h"

namespace torch {

// src must have the view's shape; its values are cast to self's dtype.
Tensor slice_scatter(const Tensor& self, const Tensor& src, int64_t dim = 0,
                     std::optional<int64_t> start = std::nullopt, std::optional<int64_t> end = std::nullopt,
                     int64_t step = 1);
Tensor select_scatter(const Tensor& self, const Tensor& src, int64_t dim, int64_t index);
Tensor diagonal_scatter(const Tensor& self, const Tensor& src, int64_t offset = 0, int64_t dim1 = 0, int64_t dim2 = 1);
// The view is taken on a contiguous copy of self: size, stride and offset
// address self's elements in row-major order.
Tensor as_strided_scatter(const Tensor& self, const Tensor& src, IntArrayRef size, IntArrayRef stride,
                          std::optional<int64_t> storage_offset = std::nullopt);

}  // namespace torch
