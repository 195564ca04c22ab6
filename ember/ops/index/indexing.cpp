// Tensor::index / index_put_ with LibTorch's TensorIndex vocabulary, and the
// advanced-indexing core they share (Note [Basic vs advanced indexing]).
#include "ember/ops/index/indexing.h"

#include "ember/core/record_scope.h"

#include <cstring>

#include "ember/core/shape.h"
#include "ember/core/warning.h"
#include "ember/kernels/cpu/index_kernels.h"
#include "ember/kernels/cpu/tensor_iterator.h"
#include "ember/ops/elementwise/binary.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/shape/copy.h"
#include "ember/ops/shape/mem_overlap.h"
#include "ember/ops/shape/view.h"
#include "ember/vmap/rules_indexing.h"

#include "ember/autograd/derivatives/index_grad.h"
#include "ember/autograd/formula_node.h"

namespace torch {

namespace indexing {

Slice::Slice(std::optional<int64_t> start, std::optional<int64_t> stop, std::optional<int64_t> step) {
  step_ = step.value_or(1);
  EMBER_CHECK(step_ != 0, "Slice: slice step cannot be zero");
  start_ = start.value_or(step_ < 0 ? INDEX_MAX : 0);
  stop_ = stop.value_or(step_ < 0 ? INDEX_MIN : INDEX_MAX);
}

std::ostream& operator<<(std::ostream& os, const Slice& s) {
  return os << s.start() << ":" << s.stop() << ":" << s.step();
}

TensorIndex::TensorIndex(const char* str) : type_(TensorIndexType::Ellipsis) {
  EMBER_CHECK(str != nullptr && std::strcmp(str, "...") == 0,
              "TensorIndex: Expected \"...\" to represent an ellipsis index, but got \"", str ? str : "(null)", "\"");
}

std::ostream& operator<<(std::ostream& os, const TensorIndex& i) {
  if (i.is_none()) return os << "None";
  if (i.is_ellipsis()) return os << "...";
  if (i.is_integer()) return os << i.integer();
  if (i.is_boolean()) return os << (i.boolean() ? "true" : "false");
  if (i.is_slice()) return os << i.slice();
  return os << "Tensor" << shape_str(i.tensor().sizes());
}

}  // namespace indexing

using indexing::TensorIndex;

namespace {

bool is_mask(const Tensor& t) { return t.dtype() == kBool || t.dtype() == kByte; }

// `dim` counts the dims of the indexed tensor, integers' included (LibTorch's "real dim").
int64_t checked_position(int64_t index, int64_t size, int64_t dim) {
  EMBER_CHECK(index >= -size && index < size, "index ", index, " is out of bounds for dimension ", dim, " with size ",
              size);
  return index < 0 ? index + size : index;
}
// An index tensor's entry, as ATen words it (the index tensors are broadcast together, so the
// message names the size, and `dim` after it).
int64_t checked_tensor_position(int64_t index, int64_t size, int64_t dim) {
  EMBER_CHECK(index >= -size && index < size, "index ", index, " is out of bounds for dimension with size ", size,
              " (dimension ", dim, " of the indexed tensor)");
  return index < 0 ? index + size : index;
}

// A bool index is an index tensor over a new unit dim: [0] keeps it, [] empties it.
Tensor bool_index_tensor(bool keep) {
  return keep ? zeros({1}, TensorOptions().dtype(kLong)) : empty({0}, TensorOptions().dtype(kLong));
}

// Applies the basic (view-producing) part of `indices` and collects the index
// tensors, one list entry per dim they consume (at::index's convention).
// `for_write`: the caller writes through the result (Tensor::index_put_), so a
// batched 0-dim index, which selects per sample, is kept as an index tensor.
Tensor apply_slicing(const Tensor& self, ArrayRef<TensorIndex> indices, std::vector<std::optional<Tensor>>& out,
                     bool for_write = false) {
  int64_t consumed = 0, ellipses = 0;
  for (const TensorIndex& i : indices) {
    if (i.is_integer() || i.is_slice())
      ++consumed;
    else if (i.is_tensor()) {
      EMBER_CHECK(i.tensor().defined(), "index: got an undefined tensor as an index");
      consumed += is_mask(i.tensor()) ? i.tensor().dim() : 1;
    } else if (i.is_ellipsis())
      ++ellipses;
  }
  EMBER_CHECK(ellipses <= 1, "index: an index can only have a single ellipsis ('...')");
  EMBER_CHECK(self.dim() > 0 || consumed == 0,
              "index: invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in C++ to "
              "convert a 0-dim tensor to a number");
  EMBER_CHECK(consumed <= self.dim(), "index: too many indices for tensor of dimension ", self.dim());

  Tensor v = self;
  // `dim` is the result's dim the next index applies to; `real` the indexed tensor's, which
  // error messages name (an integer removes a dim from the result, not from the tensor).
  int64_t dim = 0, real = 0, covered = 0, batched_scalar = -1;
  auto record = [&](const Tensor& t, int64_t span) {
    while (covered < dim) {
      out.emplace_back(std::nullopt);
      ++covered;
    }
    out.emplace_back(t);
    covered += span;
    dim += span;
    real += span;
  };
  for (const TensorIndex& i : indices) {
    if (i.is_integer()) {
      v = select(v, dim, checked_position(i.integer(), v.size(dim), real));
      ++real;
    } else if (i.is_slice()) {
      const indexing::Slice& s = i.slice();
      EMBER_CHECK(s.step() > 0, "index: step must be greater than zero, got ", s.step());
      v = slice(v, dim, s.start(), s.stop(), s.step());
      ++dim;
      ++real;
    } else if (i.is_none()) {
      v = unsqueeze(v, dim);
      ++dim;
    } else if (i.is_ellipsis()) {
      dim += self.dim() - consumed;
      real += self.dim() - consumed;
    } else if (i.is_boolean()) {
      v = unsqueeze(v, dim);
      record(bool_index_tensor(i.boolean()), 1);
      --real;
    } else {
      const Tensor& t = i.tensor();
      if (t.dim() == 0 && is_integral(t.dtype(), true) && batching::any_batched(t)) [[unlikely]] {
        // Inside vmap, a 0-dim index batched over the samples is each sample's own position.
        if (is_mask(t)) batching::refuse_dynamic_shape("index");
        if (for_write) {
          batched_scalar = static_cast<int64_t>(out.size());
          record(t.to(kLong), 1);
        } else {
          v = batching::select_batched(v, dim, t.to(kLong));
        }
      } else if (t.dim() == 0 && is_integral(t.dtype(), true)) {
        if (is_mask(t)) {
          v = unsqueeze(v, dim);
          record(bool_index_tensor(t.item<bool>()), 1);
          --real;  // the mask's unit dim is new, not one of the tensor's
        } else {
          v = select(v, dim, checked_position(t.item<int64_t>(), v.size(dim), real));
          ++real;
        }
      } else {
        record(t, is_mask(t) ? t.dim() : 1);
      }
    }
  }
  if (batched_scalar >= 0) {
    // As an index tensor it moves the indexed dims only when other index
    // tensors are not next to it (where a select would not move them).
    int64_t lo = -1, hi = -1;
    for (int64_t k = 0; k < static_cast<int64_t>(out.size()); ++k)
      if (out[k].has_value()) {
        if (lo < 0) lo = k;
        hi = k;
      }
    for (int64_t k = lo; k <= hi; ++k)
      EMBER_CHECK(out[k].has_value(),
                  "index_put_: vmap: a batched 0-dim index together with index tensors that are "
                  "not next to it is not supported; use a one-element index tensor instead");
  }
  return v;
}

// Note [Offset indexing] at the op level: the geometry every advanced index
// lowers to. `src` restrides the indexed tensor to `shape` (stride 0 over the
// broadcast index dims); `offsets` holds element offsets with the same shape.
struct AdvancedIndex {
  DimVector shape;
  Tensor src;
  Tensor offsets;
};

AdvancedIndex make_advanced_index(const Tensor& self, OptionalTensorList indices, const char* op) {
  // 1. One long index tensor per dim (masks become their nonzero coordinates).
  std::vector<Tensor> per_dim;
  int64_t dim = 0;
  for (const std::optional<Tensor>& opt : indices) {
    if (!opt.has_value() || !opt->defined()) {
      EMBER_CHECK(dim < self.dim(), op, ": too many indices for tensor of dimension ", self.dim());
      per_dim.emplace_back();
      ++dim;
      continue;
    }
    const Tensor& t = *opt;
    if (t.dtype() == kByte)
      detail::warn(__FILE__, __LINE__,
                   "indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool instead.");
    if (is_mask(t)) {
      EMBER_CHECK(t.dim() > 0, op, ": a 0-dim boolean index is only supported through Tensor::index");
      EMBER_CHECK(dim + t.dim() <= self.dim(), op, ": too many indices for tensor of dimension ", self.dim());
      for (int64_t k = 0; k < t.dim(); ++k)
        EMBER_CHECK(t.size(k) == self.size(dim + k), op, ": The shape of the mask ", shape_str(t.sizes()), " at index ",
                    k, " does not match the shape of the indexed tensor ", shape_str(self.sizes()), " at index ",
                    dim + k);
      Tensor nz = nonzero(t);
      for (int64_t k = 0; k < t.dim(); ++k) per_dim.push_back(select(nz, 1, k));
      dim += t.dim();
    } else {
      EMBER_CHECK(t.dtype() == kLong, op, ": tensors used as indices must be long, byte or bool tensors, got ",
                  t.dtype());
      EMBER_CHECK(dim < self.dim(), op, ": too many indices for tensor of dimension ", self.dim());
      per_dim.push_back(t);
      ++dim;
    }
  }
  // 2. Broadcast the index tensors together.
  DimVector bshape;
  bool first = true;
  std::vector<int64_t> indexed;
  for (size_t d = 0; d < per_dim.size(); ++d) {
    if (!per_dim[d].defined()) continue;
    indexed.push_back(static_cast<int64_t>(d));
    if (first) {
      bshape = DimVector(per_dim[d].sizes());
      first = false;
      continue;
    }
    DimVector a = bshape;
    bool ok = true;
    try {
      bshape = broadcast_shapes(a, per_dim[d].sizes(), op);
    } catch (const Error&) {
      ok = false;
    }
    if (!ok) {
      std::string shapes;
      for (const Tensor& t : per_dim)
        if (t.defined()) shapes += (shapes.empty() ? "" : ", ") + shape_str(t.sizes());
      EMBER_CHECK(false, op, ": shape mismatch: indexing tensors could not be broadcast together with shapes ", shapes);
    }
  }
  EMBER_INTERNAL_ASSERT(!indexed.empty(), "make_advanced_index without index tensors");

  // 3. Element offsets, bounds-checked (serially: the check may throw).
  AdvancedIndex r;
  r.offsets = zeros(bshape, TensorOptions().dtype(kLong));
  for (int64_t d : indexed) {
    Tensor idx = ops::cast(per_dim[d], kLong);
    const int64_t size = self.size(d), stride = self.stride(d);
    kernels::TensorIterator iter({r.offsets}, {idx});
    iter.serial_for_each(
        [&](char** data, const int64_t* s, int64_t n) {
          for (int64_t i = 0; i < n; ++i) {
            int64_t& off = *reinterpret_cast<int64_t*>(data[0] + i * s[0]);
            const int64_t v = *reinterpret_cast<const int64_t*>(data[1] + i * s[1]);
            off += checked_tensor_position(v, size, d) * stride;
          }
        },
        0, iter.numel());
  }

  // 4. Result geometry: adjacent indexed dims keep their place, else B goes first.
  const bool adjacent = indexed.back() - indexed.front() + 1 == static_cast<int64_t>(indexed.size());
  const int64_t before = adjacent ? indexed.front() : 0;
  DimVector src_strides, off_strides;
  DimVector bstrides = contiguous_strides(bshape);
  auto is_indexed = [&](int64_t d) { return d < static_cast<int64_t>(per_dim.size()) && per_dim[d].defined(); };
  for (int64_t d = 0; d < before; ++d) {
    r.shape.push_back(self.size(d));
    src_strides.push_back(self.stride(d));
    off_strides.push_back(0);
  }
  for (size_t k = 0; k < bshape.size(); ++k) {
    r.shape.push_back(bshape[k]);
    src_strides.push_back(0);
    off_strides.push_back(bstrides[k]);
  }
  for (int64_t d = before; d < self.dim(); ++d) {
    if (is_indexed(d)) continue;
    r.shape.push_back(self.size(d));
    src_strides.push_back(self.stride(d));
    off_strides.push_back(0);
  }
  r.src = make_view(self, r.shape, src_strides, self.storage_offset());
  r.offsets = make_view(r.offsets, r.shape, off_strides, 0);
  return r;
}

bool has_tensor(OptionalTensorList indices) {
  for (const auto& i : indices)
    if (i.has_value() && i->defined()) return true;
  return false;
}

}  // namespace

Tensor index(const Tensor& self, OptionalTensorList indices) {
  if (batching::any_batched_index(self, indices)) [[unlikely]]
    return batching::index_batched(self, indices);
  EMBER_RECORD_OP("index", self);
  EMBER_CHECK(static_cast<int64_t>(indices.size()) <= self.dim(), "index: too many indices for tensor of dimension ",
              self.dim(), " (got ", indices.size(), ")");
  if (!has_tensor(indices)) return make_view(self, self.sizes(), self.strides(), self.storage_offset());
  AdvancedIndex ai = make_advanced_index(self, indices, "index");
  Tensor out = empty(ai.shape, self.options());
  if (out.numel() > 0) kernels::index_gather_kernel(out, ai.src, ai.offsets);
  if (autograd::needs_grad(self)) autograd::record_index(self, indices, out);
  return out;
}

namespace ops {
Tensor& index_put_impl(Tensor& self, OptionalTensorList indices, const Tensor& values, bool accumulate,
                       const Scalar& alpha, const char* op) {
  if (batching::any_batched_index(self, indices) || batching::any_batched(values)) [[unlikely]]
    return batching::index_put_batched_(self, indices, alpha.equal(Scalar(1)) ? values : mul(values, alpha), accumulate,
                                        op);
  EMBER_RECORD_OP("index_put_", self, values);
  EMBER_CHECK(values.defined(), op, ": values must be a defined tensor");
  EMBER_CHECK(static_cast<int64_t>(indices.size()) <= self.dim(), op, ": too many indices for tensor of dimension ",
              self.dim(), " (got ", indices.size(), ")");
  EMBER_CHECK(!values.is_complex() || self.is_complex(), op, ": cannot write ", values.dtype(), " values into a ",
              self.dtype(), " tensor");
  AdvancedIndex ai;
  if (has_tensor(indices)) {
    ai = make_advanced_index(self, indices, op);
  } else {  // no index tensors: every element of self once (zero offsets)
    ai.shape = DimVector(self.sizes());
    ai.src = self;
    ai.offsets = expand(zeros({}, TensorOptions().dtype(kLong)), self.sizes());
  }
  // Leading unit dims of values beyond the result's rank are dropped, as in PyTorch.
  Tensor v = values;
  while (v.dim() > static_cast<int64_t>(ai.shape.size()) && v.size(0) == 1) v = squeeze(v, 0);
  bool ok = v.dim() <= static_cast<int64_t>(ai.shape.size());
  for (int64_t k = 0; ok && k < v.dim(); ++k) {
    int64_t rs = ai.shape[ai.shape.size() - v.dim() + k];
    ok = v.size(k) == 1 || v.size(k) == rs;
  }
  EMBER_CHECK(ok, op, ": shape mismatch: value tensor of shape ", shape_str(values.sizes()),
              " cannot be broadcast to indexing result of shape ", shape_str(ai.shape));
  if (v.dtype() != self.dtype() || (v.numel() > 0 && v.impl()->storage() == self.impl()->storage())) {
    Tensor c = empty(v.sizes(), self.options());
    copy_(c, v);
    v = c;
  }
  if (ai.src.numel() > 0) kernels::index_put_kernel(ai.src, v, ai.offsets, accumulate, alpha);
  self.bump_version();
  return self;
}
}  // namespace ops

namespace {
// As at::index_put_: the written tensor may share memory with neither the values nor an
// index tensor (ops/shape/mem_overlap.h), e.g. `x[i] = x[j]` or `x[x[:2]] = 7` raise instead of
// reading elements already written. For the free function and Tensor::index_put_.
void assert_index_put_operands_apart(const Tensor& self, OptionalTensorList indices, const Tensor* values) {
  if (values != nullptr) ops::assert_no_overlap("index_put_", self, *values);
  for (const std::optional<Tensor>& i : indices)
    if (i && i->defined()) ops::assert_no_overlap("index_put_", self, *i);
}
// Python's `x[i] = v` drops v's leading size-1 dimensions before broadcasting it to the
// slot (at::indexing's slicePrefix1sSize): a [1, 1, 2, 3] value fits a [1, 2, 3] slot.
Tensor without_leading_ones(const Tensor& v) {
  const IntArrayRef sizes = v.sizes();
  size_t first = 0;
  while (first < sizes.size() && sizes[first] == 1) ++first;
  return first == 0 ? v : v.view(IntArrayRef(sizes.data() + first, sizes.size() - first));
}
}  // namespace

// The free function keeps at::index_put_'s dtype rule; Tensor::index_put_ converts
// values to self's dtype, as Python's `x[i] = v` does.
Tensor& index_put_(Tensor& self, OptionalTensorList indices, const Tensor& values, bool accumulate) {
  EMBER_CHECK(values.dtype() == self.dtype(),
              "index_put_: Index put requires the source and destination dtypes match, got ", self.dtype(),
              " for the destination and ", values.dtype(), " for the source.");
  if (batching::any_batched_index(self, indices) || batching::any_batched(values)) [[unlikely]]
    return batching::index_put_batched_(self, indices, values, accumulate, "index_put_");
  assert_index_put_operands_apart(self, indices, &values);
  const bool grad = autograd::needs_grad(self, values);
  if (grad) autograd::check_inplace(self, "index_put_");
  {
    autograd::BelowAutogradGuard no_grad;  // the kernel's own copies are not part of the graph
    ops::index_put_impl(self, indices, values, accumulate, 1, "index_put_");
  }
  if (grad) autograd::record_index_put(self, indices, values, accumulate);
  return self;
}

Tensor index_put(const Tensor& self, OptionalTensorList indices, const Tensor& values, bool accumulate) {
  if (batching::any_batched_index(self, indices) || batching::any_batched(values)) [[unlikely]]
    return batching::index_put_batched(self, indices, values, accumulate);
  EMBER_RECORD_OP("index_put", self, values);
  Tensor out = clone(self);
  return index_put_(out, indices, values, accumulate);
}

// ---- Tensor methods ----------------------------------------------------------
Tensor Tensor::index(ArrayRef<TensorIndex> indices) const {
  EMBER_CHECK(!indices.empty(), "index: Passing an empty index list to Tensor::index() is not valid syntax");
  std::vector<std::optional<Tensor>> tensors;
  Tensor v = apply_slicing(*this, indices, tensors);
  if (!tensors.empty()) return ember::index(v, tensors);
  // Basic indexing always returns a view, even when nothing changed (x.index({"..."})): a new
  // handle on the same data, as LibTorch's alias().
  if (v.is_same(*this)) return v.dim() > 0 ? v.slice(0, 0, v.size(0)) : v.unsqueeze(0).squeeze(0);
  return v;
}
Tensor Tensor::index(std::initializer_list<TensorIndex> indices) const { return index(ArrayRef<TensorIndex>(indices)); }
Tensor Tensor::operator[](const Tensor& index) const { return this->index({TensorIndex(index)}); }

Tensor& Tensor::index_put_(ArrayRef<TensorIndex> indices, const Tensor& value) const {
  EMBER_CHECK(!indices.empty(), "index_put_: Passing an empty index list to Tensor::index_put_() is not valid syntax");
  Tensor& self = self_ref();
  std::vector<std::optional<Tensor>> tensors;
  Tensor v = apply_slicing(self, indices, tensors, /*for_write=*/true);
  if (tensors.empty()) {
    ember::copy_(v, v.sizes() == value.sizes() ? value : without_leading_ones(value));
    return self;
  }
  const Tensor rhs = without_leading_ones(value);
  assert_index_put_operands_apart(v, tensors, &rhs);
  // A write through a basic-indexing view records on the view: CopySlices
  // carries it to self (Note [Views and in-place]).
  if (autograd::needs_grad(v, rhs)) {
    ember::index_put_(v, tensors, rhs.dtype() == dtype() ? rhs : rhs.to(dtype()), false);
    return self;
  }
  ops::index_put_impl(v, tensors, rhs, false, 1, "index_put_");
  return self;
}
Tensor& Tensor::index_put_(ArrayRef<TensorIndex> indices, const Scalar& value) const {
  EMBER_CHECK(!indices.empty(), "index_put_: Passing an empty index list to Tensor::index_put_() is not valid syntax");
  Tensor& self = self_ref();
  std::vector<std::optional<Tensor>> tensors;
  Tensor v = apply_slicing(self, indices, tensors, /*for_write=*/true);
  if (tensors.empty()) {
    ember::fill_(v, value);
    return self;
  }
  assert_index_put_operands_apart(v, tensors, nullptr);
  EMBER_CHECK(!value.isComplex() || is_complex(), "index_put_: cannot write a complex value into a ", dtype(),
              " tensor");
  if (autograd::needs_grad(v)) {
    ember::index_put_(v, tensors, full({}, value, options()), false);
    return self;
  }
  ops::index_put_impl(v, tensors, full({}, value, options()), false, 1, "index_put_");
  return self;
}
Tensor& Tensor::index_put_(std::initializer_list<TensorIndex> indices, const Tensor& rhs) const {
  return index_put_(ArrayRef<TensorIndex>(indices), rhs);
}
Tensor& Tensor::index_put_(std::initializer_list<TensorIndex> indices, const Scalar& v) const {
  return index_put_(ArrayRef<TensorIndex>(indices), v);
}
Tensor& Tensor::index_put_(OptionalTensorList indices, const Tensor& values, bool accumulate) const {
  return ember::index_put_(self_ref(), indices, values, accumulate);
}
Tensor Tensor::index_put(OptionalTensorList indices, const Tensor& values, bool accumulate) const {
  return ember::index_put(*this, indices, values, accumulate);
}

}  // namespace torch
