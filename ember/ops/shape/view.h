#pragma once
// Views: tensors that share storage with their base, built by pure stride
// arithmetic. Free-function spellings of the Tensor view methods.
#include <vector>

#include "ember/core/tensor.h"
#include "ember/core/tensor_make.h"

namespace torch {

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
std::vector<Tensor> tensor_split(const Tensor& self, IntArrayRef indices, int64_t dim = 0);
// NumPy's splits: along dim 1 (hsplit; dim 0 of a 1-D tensor), 0 (vsplit) and 2
// (dsplit), into equal sections or at the given indices.
std::vector<Tensor> hsplit(const Tensor& self, int64_t sections);
std::vector<Tensor> hsplit(const Tensor& self, IntArrayRef indices);
std::vector<Tensor> vsplit(const Tensor& self, int64_t sections);
std::vector<Tensor> vsplit(const Tensor& self, IntArrayRef indices);
std::vector<Tensor> dsplit(const Tensor& self, int64_t sections);
std::vector<Tensor> dsplit(const Tensor& self, IntArrayRef indices);
// NumPy-style names for views above.
inline Tensor swapdims(const Tensor& self, int64_t dim0, int64_t dim1) { return transpose(self, dim0, dim1); }
inline Tensor swapaxes(const Tensor& self, int64_t dim0, int64_t dim1) { return transpose(self, dim0, dim1); }
inline Tensor moveaxis(const Tensor& self, IntArrayRef source, IntArrayRef destination) {
  return movedim(self, source, destination);
}
inline Tensor moveaxis(const Tensor& self, int64_t source, int64_t destination) {
  return movedim(self, source, destination);
}
inline Tensor ravel(const Tensor& self) { return reshape(self, {-1}); }
inline Tensor broadcast_to(const Tensor& self, IntArrayRef size) { return expand(self, size); }
std::vector<int64_t> broadcast_shapes(ArrayRef<std::vector<int64_t>> shapes);
std::vector<Tensor> broadcast_tensors(TensorList tensors);

}  // namespace torch
