#pragma once
// Shape ops: joining (cat/stack and friends), reordering (flip, roll),
// repetition (repeat, tile, repeat_interleave), triangles (tril/triu), diagonals,
// grids (meshgrid, cartesian_prod, block_diag) and counting (one_hot,
// bincount, histc). Copies go through copy_ into views of the output, so the
// loop engine does the element work (Note [The loop engine]).
#include <optional>
#include <string_view>
#include <vector>

#include "ember/core/tensor.h"

namespace torch {

// ---- joining (ops/shape/shape_ops.cpp) --------------------------------------------
// Inputs are promoted to result_type(tensors); 1-D tensors of size [0] are
// skipped, as in PyTorch's legacy cat behaviour.
Tensor cat(TensorList tensors, int64_t dim = 0);
Tensor concat(TensorList tensors, int64_t dim = 0);
Tensor concatenate(TensorList tensors, int64_t dim = 0);
Tensor stack(TensorList tensors, int64_t dim = 0);
Tensor hstack(TensorList tensors);
Tensor vstack(TensorList tensors);
Tensor row_stack(TensorList tensors);
Tensor dstack(TensorList tensors);
Tensor column_stack(TensorList tensors);
Tensor atleast_1d(const Tensor& self);
Tensor atleast_2d(const Tensor& self);
Tensor atleast_3d(const Tensor& self);
Tensor block_diag(TensorList tensors);

// ---- reordering and repetition (ops/shape/shape_ops.cpp) ---------------------------
Tensor flip(const Tensor& self, IntArrayRef dims);
Tensor fliplr(const Tensor& self);
Tensor flipud(const Tensor& self);
Tensor roll(const Tensor& self, IntArrayRef shifts, IntArrayRef dims = {});
Tensor repeat(const Tensor& self, IntArrayRef repeats);
Tensor tile(const Tensor& self, IntArrayRef dims);
// repeat_interleave(repeats): index i repeated repeats[i] times (what the other forms index with).
Tensor repeat_interleave(const Tensor& repeats);
Tensor repeat_interleave(const Tensor& self, const Tensor& repeats, std::optional<int64_t> dim = std::nullopt);
Tensor repeat_interleave(const Tensor& self, int64_t repeats, std::optional<int64_t> dim = std::nullopt);

// ---- triangles and grids (ops/shape/shape_ops.cpp) ---------------------------------
Tensor tril(const Tensor& self, int64_t diagonal = 0);
Tensor triu(const Tensor& self, int64_t diagonal = 0);
Tensor& tril_(Tensor& self, int64_t diagonal = 0);
Tensor& triu_(Tensor& self, int64_t diagonal = 0);
// ---- diagonals (ops/shape/shape_ops_diag.cpp) -------------------------------------
// diag: a 1-D input becomes the offset diagonal of a square zero matrix; a 2-D
// input gives a copy of its offset diagonal. diag_embed puts the last dim of
// self on the offset diagonal of the new dims (dim1, dim2) of the result;
// diagflat is diag of the flattened input.
Tensor diag(const Tensor& self, int64_t diagonal = 0);
Tensor diag_embed(const Tensor& self, int64_t offset = 0, int64_t dim1 = -2, int64_t dim2 = -1);
Tensor diagflat(const Tensor& self, int64_t offset = 0);
// indexing "ij" (matrix) or "xy" (Cartesian: the first two outputs' dims swapped).
std::vector<Tensor> meshgrid(TensorList tensors, std::string_view indexing = "ij");
Tensor cartesian_prod(TensorList tensors);

// ---- counting (ops/shape/shape_ops_count.cpp) --------------------------------------
// num_classes = -1 infers max(self) + 1.
Tensor one_hot(const Tensor& self, int64_t num_classes = -1);
Tensor bincount(const Tensor& self, const std::optional<Tensor>& weights = std::nullopt, int64_t minlength = 0);
// min == max uses the data's range.
Tensor histc(const Tensor& self, int64_t bins = 100, const Scalar& min = 0, const Scalar& max = 0);

}  // namespace torch
