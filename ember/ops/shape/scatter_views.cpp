// slice_scatter, select_scatter, diagonal_scatter, as_strided_scatter: clone,
// view, copy_ (see ops/shape/scatter_views.h).
#include "ember/ops/shape/scatter_views.h"

#include "ember/core/record_scope.h"
#include "ember/ops/shape/copy.h"
#include "ember/ops/shape/view.h"
#include "ember/vmap/batching_rules.h"

namespace torch {

namespace {

// A contiguous copy of self. Under vmap it is batched whenever src is (each
// sample's src lands in its own copy), with the batch in front and each
// sample contiguous: as_strided_scatter's strides address a sample's elements.
Tensor fresh_copy(const Tensor& self, const Tensor& src) {
  if (!batching::any_batched(self, src)) return self.clone();
  const int64_t level = batching::top_level({&self, &src});
  const int64_t batch = batching::batch_size({&self, &src}, level);
  return batching::wrap(batching::front_or_expand(self, level, batch).clone(), level);
}

template <typename ViewOf>
Tensor scatter_into_view(const char* op, const Tensor& self, const Tensor& src, const ViewOf& view_of) {
  EMBER_CHECK(self.defined() && src.defined(), op, ": expected defined tensors");
  Tensor out = fresh_copy(self, src);
  Tensor view = view_of(out);
  EMBER_CHECK(view.sizes() == src.sizes(), op,
              ": expected src to have a size equal to the slice of self. src size = ", shape_str(src.sizes()),
              ", slice size = ", shape_str(view.sizes()), " (self ", shape_str(self.sizes()), " ",
              dtype_name(self.dtype()), ", src ", dtype_name(src.dtype()), ")");
  view.copy_(src);
  return out;
}

}  // namespace

Tensor slice_scatter(const Tensor& self, const Tensor& src, int64_t dim, std::optional<int64_t> start,
                     std::optional<int64_t> end, int64_t step) {
  EMBER_RECORD_COMPOSITE_OP("slice_scatter", self, src);
  return scatter_into_view("slice_scatter", self, src,
                           [&](const Tensor& out) { return slice(out, dim, start, end, step); });
}

Tensor select_scatter(const Tensor& self, const Tensor& src, int64_t dim, int64_t index) {
  EMBER_RECORD_COMPOSITE_OP("select_scatter", self, src);
  return scatter_into_view("select_scatter", self, src, [&](const Tensor& out) { return select(out, dim, index); });
}

Tensor diagonal_scatter(const Tensor& self, const Tensor& src, int64_t offset, int64_t dim1, int64_t dim2) {
  EMBER_RECORD_COMPOSITE_OP("diagonal_scatter", self, src);
  return scatter_into_view("diagonal_scatter", self, src,
                           [&](const Tensor& out) { return diagonal(out, offset, dim1, dim2); });
}

Tensor as_strided_scatter(const Tensor& self, const Tensor& src, IntArrayRef size, IntArrayRef stride,
                          std::optional<int64_t> storage_offset) {
  EMBER_RECORD_COMPOSITE_OP("as_strided_scatter", self, src);
  // clone() gives a contiguous tensor whose storage starts at its first element.
  return scatter_into_view("as_strided_scatter", self, src,
                           [&](const Tensor& out) { return as_strided(out, size, stride, storage_offset); });
}

Tensor Tensor::slice_scatter(const Tensor& src, int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end,
                             int64_t step) const {
  return ember::slice_scatter(*this, src, dim, start, end, step);
}
Tensor Tensor::select_scatter(const Tensor& src, int64_t dim, int64_t index) const {
  return ember::select_scatter(*this, src, dim, index);
}
Tensor Tensor::diagonal_scatter(const Tensor& src, int64_t offset, int64_t dim1, int64_t dim2) const {
  return ember::diagonal_scatter(*this, src, offset, dim1, dim2);
}
Tensor Tensor::as_strided_scatter(const Tensor& src, IntArrayRef size, IntArrayRef stride,
                                  std::optional<int64_t> storage_offset) const {
  return ember::as_strided_scatter(*this, src, size, stride, storage_offset);
}

}  // namespace torch
