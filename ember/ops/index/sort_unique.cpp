// unique, _unique2, unique_dim, unique_consecutive: group equal elements (or
// equal slices along a dim) after a stable sort, or in place for the
// consecutive forms. Equality is ==, so every NaN is its own group (as PyTorch).
#include <algorithm>
#include <numeric>
#include "ember/core/record_scope.h"

#include "ember/core/dispatch.h"
#include "ember/core/shape.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/index/sort.h"
#include "ember/ops/index/sort_util.h"
#include "ember/ops/shape/copy.h"
#include "ember/ops/shape/view.h"
#include "ember/vmap/rules_indexing.h"

namespace torch {

namespace {

// Groups n items (rows of `row` elements each of a contiguous buffer) and
// fills values/inverse/counts. `order` is the visiting order (sorted or identity).
template <typename T>
std::tuple<Tensor, Tensor, Tensor> group(const T* data, int64_t n, int64_t row, const std::vector<int64_t>& order,
                                         IntArrayRef value_row_shape, IntArrayRef inverse_shape, bool return_inverse,
                                         bool return_counts) {
  auto row_equal = [&](int64_t a, int64_t b) {
    for (int64_t j = 0; j < row; ++j)
      if (!(static_cast<opmath_t<T>>(data[a * row + j]) == static_cast<opmath_t<T>>(data[b * row + j]))) return false;
    return true;
  };
  std::vector<int64_t> firsts, counts;
  Tensor inverse = return_inverse ? empty(inverse_shape, TensorOptions(kLong)) : empty({0}, TensorOptions(kLong));
  int64_t* inv = return_inverse ? inverse.data_ptr<int64_t>() : nullptr;
  for (int64_t i = 0; i < n; ++i) {
    if (i == 0 || !row_equal(order[i], order[i - 1])) {
      firsts.push_back(order[i]);
      counts.push_back(0);
    }
    ++counts.back();
    if (inv) inv[order[i]] = static_cast<int64_t>(firsts.size()) - 1;
  }
  const int64_t g = static_cast<int64_t>(firsts.size());
  DimVector vshape{g};
  for (int64_t s : value_row_shape) vshape.push_back(s);
  Tensor values = empty(vshape, TensorOptions(scalar_type_of<T>));
  T* out = values.data_ptr<T>();
  for (int64_t k = 0; k < g; ++k) std::copy(data + firsts[k] * row, data + (firsts[k] + 1) * row, out + k * row);
  Tensor cnt = return_counts ? empty({g}, TensorOptions(kLong)) : empty({0}, TensorOptions(kLong));
  if (return_counts) std::copy(counts.begin(), counts.end(), cnt.data_ptr<int64_t>());
  return {values, inverse, cnt};
}

// Unique slices along `dim` (or elements when dim is nullopt), sorted or consecutive.
std::tuple<Tensor, Tensor, Tensor> unique_impl(const Tensor& self, std::optional<int64_t> dim, bool sort_first,
                                               bool return_inverse, bool return_counts, const char* op) {
  Tensor x;
  int64_t d = 0;
  if (dim) {
    d = wrap_dim(*dim, self.dim(), op);
    x = contiguous(self.dim() == 0 ? self.reshape({1}) : movedim(self, d, 0));
  } else {
    x = contiguous(self.reshape({-1}));
  }
  const int64_t n = x.dim() == 0 ? 1 : x.size(0);
  const int64_t row = n == 0 ? 0 : x.numel() / n;
  DimVector row_shape;
  for (int64_t i = 1; i < x.dim(); ++i) row_shape.push_back(x.size(i));
  DimVector inverse_shape = dim ? DimVector{n} : DimVector(self.sizes());
  std::tuple<Tensor, Tensor, Tensor> r;
  dispatch_real_and_bool(x.dtype(), op, [&](auto tag) {
    using T = EMBER_TYPE(tag);
    const T* data = x.data_ptr<T>();
    std::vector<int64_t> order(n);
    std::iota(order.begin(), order.end(), int64_t(0));
    if (sort_first) {
      std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
        for (int64_t j = 0; j < row; ++j) {
          const auto va = static_cast<opmath_t<T>>(data[a * row + j]);
          const auto vb = static_cast<opmath_t<T>>(data[b * row + j]);
          if (ops::nan_last_less(va, vb)) return true;
          if (ops::nan_last_less(vb, va)) return false;
        }
        return false;
      });
    }
    r = group<T>(data, n, row, order, row_shape, inverse_shape, return_inverse, return_counts);
  });
  if (dim && self.dim() > 0) std::get<0>(r) = contiguous(movedim(std::get<0>(r), 0, d));
  return r;
}

}  // namespace

std::tuple<Tensor, Tensor, Tensor> _unique2(const Tensor& self, bool /*sorted*/, bool return_inverse,
                                            bool return_counts) {
  if (batching::any_batched(self)) [[unlikely]]
    batching::refuse_dynamic_shape("unique");
  EMBER_RECORD_OP("_unique2", self);
  return unique_impl(self, std::nullopt, true, return_inverse, return_counts, "unique");
}
std::tuple<Tensor, Tensor, Tensor> unique_dim(const Tensor& self, int64_t dim, bool /*sorted*/, bool return_inverse,
                                              bool return_counts) {
  if (batching::any_batched(self)) [[unlikely]]
    batching::refuse_dynamic_shape("unique_dim");
  EMBER_RECORD_OP("unique_dim", self);
  return unique_impl(self, dim, true, return_inverse, return_counts, "unique_dim");
}
std::tuple<Tensor, Tensor, Tensor> unique(const Tensor& self, bool sorted, bool return_inverse, bool return_counts,
                                          std::optional<int64_t> dim) {
  if (dim) return unique_dim(self, *dim, sorted, return_inverse, return_counts);
  return _unique2(self, sorted, return_inverse, return_counts);
}
std::tuple<Tensor, Tensor, Tensor> unique_consecutive(const Tensor& self, bool return_inverse, bool return_counts,
                                                      std::optional<int64_t> dim) {
  if (batching::any_batched(self)) [[unlikely]]
    batching::refuse_dynamic_shape("unique_consecutive");
  EMBER_RECORD_OP("unique_consecutive", self);
  return unique_impl(self, dim, false, return_inverse, return_counts, "unique_consecutive");
}

}  // namespace torch
