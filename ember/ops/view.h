#pragma once
// Views: tensors that share storage with their base, built by pure stride
// arithmetic. Free-function spellings of the Tensor view methods.
#include <vector>

#include "ember/core/tensor.h"

namespace ember {

Tensor view(const Tensor& self, IntArrayRef size);
Tensor reshape(const Tensor& self, IntArrayRef shape);
Tensor flatten(const Tensor& self, int64_t start_dim = 0, int64_t end_dim = -1);
Tensor unflatten(const Tensor& self, int64_t dim, IntArrayRef sizes);
Tensor permute(const Tensor& self, IntArrayRef dims);
Tensor movedim(const Tensor& self, IntArrayRef source, IntArrayRef destination);
Tensor movedim(const Tensor& self, int64_t source, int64_t destination);
Tensor transpose(const Tensor& self, int64_t dim0, int64_t dim1);
Tensor t(const Tensor& self);
Tensor expand(const Tensor& self, IntArrayRef size);
Tensor squeeze(const Tensor& self);
Tensor squeeze(const Tensor& self, int64_t dim);
Tensor unsqueeze(const Tensor& self, int64_t dim);
Tensor narrow(const Tensor& self, int64_t dim, int64_t start, int64_t length);
Tensor select(const Tensor& self, int64_t dim, int64_t index);
Tensor slice(const Tensor& self, int64_t dim = 0, std::optional<int64_t> start = std::nullopt,
             std::optional<int64_t> end = std::nullopt, int64_t step = 1);
Tensor unfold(const Tensor& self, int64_t dim, int64_t size, int64_t step);
Tensor as_strided(const Tensor& self, IntArrayRef size, IntArrayRef stride,
                  std::optional<int64_t> storage_offset = std::nullopt);
Tensor diagonal(const Tensor& self, int64_t offset = 0, int64_t dim1 = 0, int64_t dim2 = 1);
std::vector<Tensor> split(const Tensor& self, int64_t split_size, int64_t dim = 0);
std::vector<Tensor> split(const Tensor& self, IntArrayRef split_sizes, int64_t dim = 0);
std::vector<Tensor> split_with_sizes(const Tensor& self, IntArrayRef split_sizes, int64_t dim = 0);
std::vector<Tensor> chunk(const Tensor& self, int64_t chunks, int64_t dim = 0);
std::vector<Tensor> unbind(const Tensor& self, int64_t dim = 0);
std::vector<Tensor> tensor_split(const Tensor& self, int64_t sections, int64_t dim = 0);
std::vector<int64_t> broadcast_shapes(ArrayRef<std::vector<int64_t>> shapes);
std::vector<Tensor> broadcast_tensors(TensorList tensors);

namespace ops {
// A view of `base` with new geometry (the one constructor every view goes through).
Tensor make_view(const Tensor& base, IntArrayRef sizes, IntArrayRef strides, int64_t offset);
}  // namespace ops

}  // namespace ember
