#include "ember/ops/index/search.h"

#include <string>
#include <type_traits>

#include "ember/autograd/grad_mode.h"
#include "ember/core/dispatch.h"
#include "ember/core/error.h"
#include "ember/core/parallel.h"
#include "ember/core/shape.h"
#include "ember/ops/elementwise/type_promotion.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/index/indexing.h"
#include "ember/ops/shape/copy.h"
#include "ember/ops/shape/view.h"
#include "ember/vmap/batching_rules.h"

namespace torch {

namespace {

// PyTorch's bisections, whose negated comparisons put NaN after every number
// (where sort puts it): the first index whose element is >= v (left) or > v (right).
template <typename T>
int64_t bisect(const T* s, int64_t n, T v, bool right) {
  int64_t lo = 0, hi = n;
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    const bool go_right = right ? !(s[mid] > v) : !(s[mid] >= v);
    if (go_right)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

bool resolve_right(bool right, std::optional<std::string_view> side) {
  if (!side) return right;
  EMBER_CHECK(*side == "left" || *side == "right", "searchsorted: side can only be 'left' or 'right' but got ",
              std::string(*side));
  EMBER_CHECK(!(right && *side == "left"),
              "searchsorted: side and right can't be set to opposites, got side of left while right was True");
  return *side == "right";
}

void check_inputs(const Tensor& seq, const Tensor& self, const std::optional<Tensor>& sorter) {
  EMBER_CHECK(seq.defined() && self.defined(), "searchsorted: expected defined tensors");
  EMBER_CHECK(seq.dim() >= 1, "searchsorted: boundaries tensor should have at least 1 dimension, got a 0-dim tensor");
  bool leading_match = seq.dim() == self.dim();
  for (int64_t i = 0; leading_match && i + 1 < seq.dim(); ++i) leading_match = seq.size(i) == self.size(i);
  EMBER_CHECK(seq.dim() == 1 || leading_match,
              "searchsorted: boundaries tensor should be 1 dimension or the first N-1 dimensions of boundaries tensor "
              "and input value tensor must match, but we got boundaries tensor ",
              shape_str(seq.sizes()), " and input value tensor ", shape_str(self.sizes()));
  EMBER_CHECK(!seq.is_complex() && !self.is_complex(), "searchsorted: complex tensors are not supported (got ",
              seq.dtype(), " and ", self.dtype(), ")");
  if (sorter) {
    EMBER_CHECK(sorter->scalar_type() == kLong, "searchsorted: sorter must be a tensor of long dtype but got dtype ",
                sorter->dtype());
    EMBER_CHECK(sorter->sizes() == seq.sizes(),
                "searchsorted: boundary and sorter must have the same size, but got boundary tensor ",
                shape_str(seq.sizes()), " and got sorter tensor ", shape_str(sorter->sizes()));
    if (sorter->numel() > 0 && !batching::any_batched(*sorter))
      EMBER_CHECK(sorter->min().item<int64_t>() >= 0 && sorter->max().item<int64_t>() < seq.size(-1),
                  "searchsorted: sorter index out of range (the innermost dim of boundaries has size ", seq.size(-1),
                  ")");
  }
}

Tensor search(const Tensor& seq, const Tensor& self, bool out_int32, bool right, const std::optional<Tensor>& sorter) {
  NoGradGuard ng;  // indices: no history
  const ScalarType ct = result_type(seq, self);
  const Tensor s = (sorter ? seq.gather(-1, *sorter) : seq).to(ct).contiguous();
  const Tensor v = self.to(ct).contiguous();
  Tensor out = empty(self.sizes(), TensorOptions(out_int32 ? kInt : kLong));
  const int64_t n = s.size(-1);
  // Values of row r search boundary row r (one row for 1-D boundaries).
  const int64_t per_row = seq.dim() == 1 ? v.numel() : (self.dim() == 0 ? 1 : self.size(-1));
  dispatch_real_and_bool(ct, "searchsorted", [&](auto tag) {
    using T = EMBER_TYPE(tag);
    const T* sp = s.data_ptr<T>();
    const T* vp = v.data_ptr<T>();
    auto run = [&](auto* op) {
      parallel_for(0, v.numel(), 4096, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i) {
          const int64_t row = per_row == 0 ? 0 : i / per_row;
          using O = std::remove_pointer_t<decltype(op)>;
          op[i] = static_cast<O>(bisect<T>(sp + row * n, n, vp[i], right));
        }
      });
    };
    if (out_int32)
      run(out.data_ptr<int32_t>());
    else
      run(out.data_ptr<int64_t>());
  });
  return out;
}

}  // namespace

Tensor searchsorted(const Tensor& sorted_sequence, const Tensor& self, bool out_int32, bool right,
                    std::optional<std::string_view> side, const std::optional<Tensor>& sorter) {
  const bool r = resolve_right(right, side);
  check_inputs(sorted_sequence, self, sorter);
  const Tensor srt = sorter ? *sorter : Tensor();
  if (batching::any_batched(sorted_sequence, self, srt)) [[unlikely]] {
    // Every physical operand gets the batch in front; 1-D boundaries become one
    // row per sample, searched by that sample's values flattened.
    const int64_t level = batching::top_level({&sorted_sequence, &self, &srt});
    const int64_t b = batching::batch_size({&sorted_sequence, &self, &srt}, level);
    const Tensor sp = batching::front_or_expand(sorted_sequence, level, b);
    const Tensor vp = batching::front_or_expand(self, level, b);
    std::optional<Tensor> op;
    if (sorter) op = batching::front_or_expand(*sorter, level, b);
    const Tensor v2 = sorted_sequence.dim() == 1 ? vp.reshape({b, -1}) : vp;
    return batching::wrap(searchsorted(sp, v2, out_int32, r, std::nullopt, op).reshape(vp.sizes()), level);
  }
  return search(sorted_sequence, self, out_int32, r, sorter);
}

Tensor searchsorted(const Tensor& sorted_sequence, const Scalar& self, bool out_int32, bool right,
                    std::optional<std::string_view> side, const std::optional<Tensor>& sorter) {
  EMBER_CHECK(!sorted_sequence.defined() || sorted_sequence.dim() == 1,
              "searchsorted: input value can be a scalar only when boundaries tensor dimension is 1, but we got "
              "boundaries tensor dim(",
              sorted_sequence.defined() ? sorted_sequence.dim() : 0, ")");
  return searchsorted(sorted_sequence, scalar_tensor(self, TensorOptions(self.type())), out_int32, right, side, sorter);
}

namespace {
void check_isin_dtype(const Tensor& t) {
  EMBER_CHECK(!t.is_complex() && t.scalar_type() != kBool,
              "isin: Unsupported input type encountered for isin(): ", t.dtype());
}
}  // namespace

Tensor isin(const Tensor& elements, const Tensor& test_elements, bool assume_unique, bool invert) {
  (void)assume_unique;  // a hint for PyTorch's algorithm choice; the sort below needs none
  EMBER_CHECK(elements.defined() && test_elements.defined(), "isin: expected defined tensors");
  check_isin_dtype(elements);
  check_isin_dtype(test_elements);
  NoGradGuard no_grad;  // a bool result
  const ScalarType t = result_type(elements, test_elements);
  const Tensor e = elements.to(t);
  Tensor tests = test_elements.to(t).reshape({-1});
  // NaN equals nothing (as in PyTorch), and a NaN among the sorted values would
  // derail the binary search: drop them.
  if (is_floating_point(t)) tests = tests.masked_select(tests.eq(tests));
  Tensor found;
  if (tests.numel() == 0) {
    found = zeros(e.sizes(), TensorOptions(kBool));
  } else {
    // Each element against the test value at its insertion point in the sorted
    // tests: O((n + m) log m), where comparing all pairs would be O(n m).
    const Tensor sorted = std::get<0>(tests.sort());
    const Tensor at = searchsorted(sorted, e).clamp_max(tests.numel() - 1);
    found = sorted.take(at).eq(e);
  }
  return invert ? found.logical_not() : found;
}
Tensor isin(const Tensor& elements, const Scalar& test_element, bool assume_unique, bool invert) {
  EMBER_CHECK(elements.defined(), "isin: expected a defined tensor");
  return isin(elements, scalar_tensor(test_element, TensorOptions(test_element.type())), assume_unique, invert);
}
Tensor isin(const Scalar& element, const Tensor& test_elements, bool assume_unique, bool invert) {
  return isin(scalar_tensor(element, TensorOptions(element.type())), test_elements, assume_unique, invert);
}

Tensor bucketize(const Tensor& self, const Tensor& boundaries, bool out_int32, bool right) {
  EMBER_CHECK(boundaries.defined() && boundaries.dim() == 1,
              "bucketize: boundaries tensor must be 1 dimension, but got dim(",
              boundaries.defined() ? boundaries.dim() : 0, ")");
  return searchsorted(boundaries, self, out_int32, right);
}

Tensor bucketize(const Scalar& self, const Tensor& boundaries, bool out_int32, bool right) {
  EMBER_CHECK(boundaries.defined() && boundaries.dim() == 1,
              "bucketize: boundaries tensor must be 1 dimension, but got dim(",
              boundaries.defined() ? boundaries.dim() : 0, ")");
  return searchsorted(boundaries, self, out_int32, right);
}

}  // namespace torch
