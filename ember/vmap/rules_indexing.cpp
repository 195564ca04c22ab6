#include "ember/vmap/rules_indexing.h"

#include <algorithm>

#include "ember/core/error.h"
#include "ember/ops/all_ops.h"
#include "ember/ops/factory/factory.h"

namespace torch::batching {

namespace {

bool is_mask(const Tensor& t) { return t.dtype() == kBool || t.dtype() == kByte; }

// Note [Batched advanced indexing]
// A logical index list is lowered to one physical index over the physical
// self [B, ...]: dim 0 is indexed by arange(B) viewed as [B, 1, .., 1], each
// batched index tensor gets its batch in front and size-1 dims after it up to
// the highest logical index rank R (so batches line up under right-aligned
// broadcasting), unbatched ones broadcast as they are. The physical result
// then starts with [B, <broadcast index shape>]. That is the logical layout
// with the batch in front except in one case: logical index dims that are
// adjacent but start after dim 0 keep their place in the logical result,
// while physically (dim 0 is indexed too, so they are not adjacent to it)
// they come first; one movedim puts them back. Unbatched masks are lowered to
// their nonzero() coordinates first; batched ones would give each sample its
// own number of elements, which PyTorch's vmap refuses.
struct Lowered {
  std::vector<std::optional<Tensor>> per_dim;  // logical, one entry per indexed dim of self
  std::vector<int64_t> indexed;                // dims of self with an index tensor
  int64_t rank = 0;                            // R: the highest logical index rank
  DimVector bshape;                            // the logical index tensors broadcast together
  bool adjacent = true;
};

void refuse_batched_mask() {
  EMBER_ERROR(
      "index: vmap: We do not support batching operators that can support dynamic shape. Attempting to batch over "
      "indexing with a boolean mask (each sample would select its own number of elements); use where() or "
      "masked_fill() instead");
}

Lowered lower(const Tensor& self, OptionalTensorList indices, const char* op) {
  Lowered r;
  for (const std::optional<Tensor>& opt : indices) {
    if (!opt.has_value() || !opt->defined()) {
      r.per_dim.emplace_back(std::nullopt);
      continue;
    }
    const Tensor& t = *opt;
    if (is_mask(t)) {
      if (is_batched(t)) refuse_batched_mask();
      EMBER_CHECK(t.dim() > 0, op, ": a 0-dim boolean index is only supported through Tensor::index");
      const int64_t start = static_cast<int64_t>(r.per_dim.size());
      EMBER_CHECK(start + t.dim() <= self.dim(), op, ": too many indices for tensor of dimension ", self.dim());
      for (int64_t k = 0; k < t.dim(); ++k)
        EMBER_CHECK(t.size(k) == self.size(start + k), op, ": The shape of the mask ", shape_str(t.sizes()),
                    " at index ", k, " does not match the shape of the indexed tensor ", shape_str(self.sizes()),
                    " at index ", start + k);
      Tensor nz = nonzero(t);
      for (int64_t k = 0; k < t.dim(); ++k) {
        r.indexed.push_back(start + k);
        r.per_dim.emplace_back(nz.select(1, k));
      }
      continue;
    }
    EMBER_CHECK(t.dtype() == kLong, op, ": tensors used as indices must be long, byte or bool tensors, got ",
                t.dtype());
    r.indexed.push_back(static_cast<int64_t>(r.per_dim.size()));
    r.per_dim.emplace_back(t);
  }
  EMBER_CHECK(static_cast<int64_t>(r.per_dim.size()) <= self.dim(), op, ": too many indices for tensor of dimension ",
              self.dim());
  bool first = true;
  for (int64_t d : r.indexed) {
    const Tensor& t = *r.per_dim[d];
    r.rank = std::max(r.rank, t.dim());
    if (first) {
      r.bshape = DimVector(t.sizes());
      first = false;
      continue;
    }
    bool ok = true;
    try {
      r.bshape = broadcast_shapes(r.bshape, t.sizes(), op);
    } catch (const Error&) {
      ok = false;
    }
    if (!ok) {
      std::string shapes;
      for (int64_t e : r.indexed) shapes += (shapes.empty() ? "" : ", ") + shape_str(r.per_dim[e]->sizes());
      EMBER_ERROR(op, ": shape mismatch: indexing tensors could not be broadcast together with shapes ", shapes);
    }
  }
  if (!r.indexed.empty())
    r.adjacent = r.indexed.back() - r.indexed.front() + 1 == static_cast<int64_t>(r.indexed.size());
  return r;
}

// The logical result shape of indexing `self` with `lw` (Note [Basic vs advanced indexing]).
DimVector logical_result_shape(const Tensor& self, const Lowered& lw) {
  auto indexed = [&](int64_t d) { return d < static_cast<int64_t>(lw.per_dim.size()) && lw.per_dim[d].has_value(); };
  const int64_t before = lw.adjacent ? lw.indexed.front() : 0;
  DimVector shape;
  for (int64_t d = 0; d < before; ++d) shape.push_back(self.size(d));
  for (int64_t s : lw.bshape) shape.push_back(s);
  for (int64_t d = before; d < self.dim(); ++d)
    if (!indexed(d)) shape.push_back(self.size(d));
  return shape;
}

// The physical index list of Note [Batched advanced indexing].
std::vector<std::optional<Tensor>> physical_indices(const Lowered& lw, int64_t level, int64_t b) {
  std::vector<std::optional<Tensor>> idx;
  DimVector ar{b};
  ar.resize(1 + lw.rank, 1);
  idx.emplace_back(arange(b, TensorOptions().dtype(kLong)).view(ar));
  for (const std::optional<Tensor>& opt : lw.per_dim) {
    if (!opt) {
      idx.emplace_back(std::nullopt);
      continue;
    }
    Peeled p = peel_front(*opt, level);
    if (p.batched && opt->dim() < lw.rank) {
      DimVector shape{b};
      shape.resize(1 + lw.rank - opt->dim(), 1);
      for (int64_t s : opt->sizes()) shape.push_back(s);
      p.value = p.value.reshape(shape);
    }
    idx.emplace_back(std::move(p.value));
  }
  return idx;
}

// The dims the physical result has after its batch that the logical one puts
// after dim `first` (0 when no move is needed).
int64_t moved_front(const Lowered& lw) { return lw.adjacent ? lw.indexed.front() : 0; }
DimVector iota(int64_t from, int64_t n) {
  DimVector r;
  for (int64_t i = 0; i < n; ++i) r.push_back(from + i);
  return r;
}

std::vector<Tensor> defined_tensors(const Tensor& self, OptionalTensorList indices, const Tensor* values) {
  std::vector<Tensor> ts{self};
  for (const std::optional<Tensor>& i : indices)
    if (i && i->defined()) ts.push_back(*i);
  if (values != nullptr && values->defined()) ts.push_back(*values);
  return ts;
}

// Self's physical tensor for an in-place write at `level`, with PyTorch's
// error when another argument is batched but self is not.
Tensor inplace_self(const char* op, const Tensor& self, int64_t level) {
  const BatchedMeta* m = batched_meta(self);
  EMBER_CHECK(m != nullptr && m->level == level, op, ": vmap: ", op,
              "(self, *extra_args) is not possible because there exists a Tensor in extra_args that is batched over a "
              "vmapped dimension but self (logical shape ",
              shape_str(self.sizes()),
              ") is not, so the result would have more elements than self. Use the out-of-place op instead");
  return peel_front(self, level).value;
}

}  // namespace

Tensor index_batched(const Tensor& self, OptionalTensorList indices) {
  const std::vector<Tensor> all = defined_tensors(self, indices, nullptr);
  const int64_t level = top_level(TensorList(all));
  EMBER_CHECK(static_cast<int64_t>(indices.size()) <= self.dim(), "index: too many indices for tensor of dimension ",
              self.dim(), " (got ", indices.size(), ")");
  Lowered lw = lower(self, indices, "index");
  if (lw.indexed.empty()) return on_front(self, [](const Tensor& v) { return ember::index(v, {}); });
  const int64_t b = batch_size(TensorList(all), level);
  Tensor out = ember::index(front_or_expand(self, level, b), physical_indices(lw, level, b));
  if (const int64_t first = moved_front(lw); first > 0 && lw.rank > 0)
    out = out.movedim(iota(1, lw.rank), iota(1 + first, lw.rank));
  return wrap(std::move(out), level);
}

Tensor& index_put_batched_(Tensor& self, OptionalTensorList indices, const Tensor& values, bool accumulate,
                           const char* op) {
  EMBER_CHECK(values.defined(), op, ": values must be a defined tensor");
  EMBER_CHECK(!values.is_complex() || self.is_complex(), op, ": cannot write ", values.dtype(), " values into a ",
              self.dtype(), " tensor");
  const std::vector<Tensor> all = defined_tensors(self, indices, &values);
  const int64_t level = top_level(TensorList(all));
  Tensor s = inplace_self(op, self, level);
  const int64_t b = s.size(0);
  EMBER_CHECK(static_cast<int64_t>(indices.size()) <= self.dim(), op, ": too many indices for tensor of dimension ",
              self.dim(), " (got ", indices.size(), ")");
  Lowered lw = lower(self, indices, op);
  const bool any_index = !lw.indexed.empty();
  const DimVector rshape = any_index ? logical_result_shape(self, lw) : DimVector(self.sizes());
  const int64_t rr = static_cast<int64_t>(rshape.size());

  // Values broadcast to the logical result (leading unit dims beyond its rank
  // dropped, as index_put_ does), batch in front, then laid out physically.
  Tensor v = values;
  while (v.dim() > rr && v.size(0) == 1) v = v.squeeze(0);
  bool ok = v.dim() <= rr;
  for (int64_t k = 0; ok && k < v.dim(); ++k) ok = v.size(k) == 1 || v.size(k) == rshape[rr - v.dim() + k];
  EMBER_CHECK(ok, op, ": shape mismatch: value tensor of shape ", shape_str(values.sizes()),
              " cannot be broadcast to indexing result of shape ", shape_str(rshape));
  Peeled pv = peel_front(v, level);
  Tensor vp = pv.value;
  if (pv.batched && v.dim() < rr) {
    DimVector shape{b};
    shape.resize(1 + rr - v.dim(), 1);
    for (int64_t sz : v.sizes()) shape.push_back(sz);
    vp = vp.reshape(shape);
  }
  vp = vp.expand(batch_shape(b, rshape));

  std::vector<std::optional<Tensor>> idx;
  if (any_index) {
    idx = physical_indices(lw, level, b);
    if (const int64_t first = moved_front(lw); first > 0 && lw.rank > 0)
      vp = vp.movedim(iota(1 + first, lw.rank), iota(1, lw.rank));
  }
  if (vp.scalar_type() != s.scalar_type()) vp = vp.to(s.scalar_type());
  ember::index_put_(s, idx, vp, accumulate);
  return self;
}

Tensor batched_clone_list(const Tensor& self, OptionalTensorList indices, const Tensor& values) {
  const std::vector<Tensor> all = defined_tensors(self, indices, &values);
  const int64_t level = top_level(TensorList(all));
  const BatchedMeta* m = batched_meta(self);
  if (m != nullptr && m->level == level) return self.clone();
  return wrap(front_or_expand(self, level, batch_size(TensorList(all), level)).clone(), level);
}

Tensor index_put_batched(const Tensor& self, OptionalTensorList indices, const Tensor& values, bool accumulate) {
  Tensor out = batched_clone_list(self, indices, values);
  return ember::index_put_(out, indices, values, accumulate);
}

Tensor select_batched(const Tensor& self, int64_t dim, const Tensor& index) {
  std::vector<std::optional<Tensor>> idx(dim);
  idx.emplace_back(index);
  return index_batched(self, idx);
}

// ---- whole-slice and element index ops ---------------------------------------------

namespace {
// self as the 1-d tensor these ops see a 0-dim self as (a view: writes reach self).
Tensor as_1d(const Tensor& t) { return t.dim() == 0 ? t.unsqueeze(0) : t; }
std::vector<std::optional<Tensor>> at_dim(int64_t d, const Tensor& idx) {
  std::vector<std::optional<Tensor>> out(d);
  out.emplace_back(idx);
  return out;
}
}  // namespace

Tensor& index_copy_batched_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& source) {
  const char* op = "index_copy_";
  EMBER_CHECK(index.dtype() == kLong, "index_copy_(): Expected a long tensor for index, but got ", index.dtype());
  EMBER_CHECK(index.dim() <= 1, "index_copy_(): Index should have dimension 1 or 0 (got ", index.dim(), ")");
  EMBER_CHECK(source.dtype() == self.dtype(),
              "index_copy_(): self and source expected to have the same dtype, but got ", self.dtype(), " and ",
              source.dtype());
  Tensor s1 = as_1d(self);
  const Tensor src1 = as_1d(source);
  const int64_t d = wrap_dim(dim, s1.dim(), op);
  bool ok = src1.dim() == s1.dim() && src1.size(d) == index.numel();
  for (int64_t k = 0; ok && k < s1.dim(); ++k) ok = k == d || src1.size(k) == s1.size(k);
  EMBER_CHECK(ok, "index_copy_(): Source/destination tensor must have same slice shapes and source must have ",
              index.numel(), " elements along dim ", d, ": got self ", shape_str(self.sizes()), ", source ",
              shape_str(source.sizes()), ", index ", shape_str(index.sizes()));
  index_put_batched_(s1, at_dim(d, index.reshape({-1})), src1, false, op);
  return self;
}

Tensor& index_fill_batched_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& value, const Scalar& scalar) {
  const char* op = "index_fill_";
  EMBER_CHECK(index.dtype() == kLong, "index_fill_(): Expected dtype int64 for index, but got ", index.dtype());
  EMBER_CHECK(index.dim() <= 1, "index_fill_(): Index has to be a vector/scalar, got shape ", shape_str(index.sizes()));
  EMBER_CHECK(!value.defined() || value.dim() == 0,
              "index_fill_(): only supports a 0-dimensional value tensor, but got tensor with ", value.dim(),
              " dimension(s).");
  EMBER_CHECK(value.defined() ? (!value.is_complex() || self.is_complex()) : (!scalar.isComplex() || self.is_complex()),
              "index_fill_(): cannot fill a ", self.dtype(), " tensor with a complex value");
  Tensor s1 = as_1d(self);
  const int64_t d = wrap_dim(dim, s1.dim(), op);
  const Tensor v = value.defined() ? value.to(self.scalar_type()) : full({}, scalar, self.options());
  index_put_batched_(s1, at_dim(d, index.reshape({-1})), v, false, op);
  return self;
}

Tensor take_batched(const Tensor& self, const Tensor& index) {
  EMBER_CHECK(index.dtype() == kLong, "take(): Expected a long tensor for index, but got ", index.dtype());
  const int64_t level = top_level({&self, &index});
  const int64_t b = batch_size({&self, &index}, level);
  Tensor flat = front_or_expand(self, level, b).reshape({b, -1});
  DimVector ar{b};
  ar.resize(1 + index.dim(), 1);
  std::vector<std::optional<Tensor>> idx;
  idx.emplace_back(arange(b, TensorOptions().dtype(kLong)).view(ar));
  idx.emplace_back(peel_front(index, level).value);
  EMBER_CHECK(flat.size(1) > 0 || index.numel() == 0, "take(): tried to take from an empty tensor");
  Tensor out = ember::index(flat, idx);
  return wrap(out.reshape(batch_shape(b, index.sizes())), level);
}

namespace {
void check_fill_mask(const char* op, const Tensor& self, const Tensor& mask, const Tensor& value) {
  EMBER_CHECK(mask.dtype() == kBool, op, ": only supports boolean masks, but got mask with dtype ", mask.dtype());
  EMBER_CHECK(!value.is_complex() || self.is_complex(), op, ": cannot fill a ", self.dtype(),
              " tensor with a complex value");
}
}  // namespace

Tensor masked_fill_batched_value(const Tensor& self, const Tensor& mask, const Tensor& value) {
  check_fill_mask("masked_fill", self, mask, value);
  return where(mask, value.to(self.scalar_type()), self);
}

Tensor& masked_fill_batched_value_(Tensor& self, const Tensor& mask, const Tensor& value) {
  check_fill_mask("masked_fill_", self, mask, value);
  inplace_self("masked_fill_", self, top_level({&self, &mask, &value}));
  bool ok = mask.dim() <= self.dim();
  for (int64_t k = 0; ok && k < mask.dim(); ++k)
    ok = mask.size(k) == 1 || mask.size(k) == self.size(self.dim() - mask.dim() + k);
  EMBER_CHECK(ok, "masked_fill_: mask of shape ", shape_str(mask.sizes()), " cannot be broadcast to self of shape ",
              shape_str(self.sizes()));
  self.copy_(where(mask, value.to(self.scalar_type()), self));
  return self;
}

Tensor& scatter_reduce_batched_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                                std::string_view reduce, bool include_self, bool scatter_form) {
  const char* op = scatter_form ? "scatter_" : "scatter_reduce_";
  const int64_t level = top_level({&self, &index, &src});
  Tensor s = inplace_self(op, self, level);
  const int64_t b = s.size(0);
  Tensor i = front_or_expand(index, level, b), v = front_or_expand(src, level, b);
  if (self.dim() == 0) {  // a 0-dim self scatters along dim 0 of a one-element vector
    s = s.unsqueeze(1);
    if (index.dim() == 0) i = i.unsqueeze(1);
    if (src.dim() == 0) v = v.unsqueeze(1);
  }
  const int64_t d = phys_dim(dim, std::max<int64_t>(self.dim(), 1), op);
  if (scatter_form)
    ember::scatter_(s, d, i, v, reduce);
  else
    ember::scatter_reduce_(s, d, i, v, reduce, include_self);
  return self;
}

// ---- shape ops -----------------------------------------------------------------------

Tensor roll_batched(const Tensor& self, IntArrayRef shifts, IntArrayRef dims) {
  if (dims.empty()) {
    EMBER_CHECK(shifts.size() == 1, "roll: shifts and dimensions must align. shifts: ", shifts.size(), ", dims:0");
    return on_front(self, [&](const Tensor& v) { return roll(detail::flat_batch(v), shifts, {1}).view(v.sizes()); });
  }
  return on_front(self, [&](const Tensor& v) {
    if (self.dim() > 0) return roll(v, shifts, phys_dims(dims, self.dim(), "roll"));
    return roll(v.unsqueeze(1), shifts, phys_dims(dims, 1, "roll")).squeeze(1);
  });
}

Tensor repeat_batched(const Tensor& self, IntArrayRef repeats) {
  const int64_t nr = static_cast<int64_t>(repeats.size());
  EMBER_CHECK(nr >= self.dim(),
              "repeat: Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor");
  return on_front(self, [&](const Tensor& v) {
    DimVector padded{v.size(0)};
    padded.resize(1 + nr - self.dim(), 1);
    for (int64_t s : self.sizes()) padded.push_back(s);
    DimVector reps{1};
    for (int64_t r : repeats) reps.push_back(r);
    return repeat(v.reshape(padded), reps);
  });
}

namespace {
void check_triangle(const Tensor& self, const char* op) {
  EMBER_CHECK(self.dim() >= 2, op, ": input tensor must have at least 2 dimensions, got ", self.dim());
}
}  // namespace

Tensor triangle_batched(const Tensor& self, int64_t diagonal, bool lower) {
  check_triangle(self, lower ? "tril" : "triu");
  return on_front(self, [&](const Tensor& v) { return lower ? tril(v, diagonal) : triu(v, diagonal); });
}

Tensor& triangle_batched_(Tensor& self, int64_t diagonal, bool lower) {
  check_triangle(self, lower ? "tril_" : "triu_");
  Tensor v = peel_front(self, batched_meta(self)->level).value;  // a view: the write reaches self
  if (lower)
    tril_(v, diagonal);
  else
    triu_(v, diagonal);
  return self;
}

Tensor diag_batched(const Tensor& self, int64_t diagonal) {
  EMBER_CHECK(self.dim() == 1 || self.dim() == 2, "diag: matrix or a vector expected, got a tensor of shape ",
              shape_str(self.sizes()), " (", self.dim(), "-D)");
  return on_front(self, [&](const Tensor& v) {
    return self.dim() == 1 ? diag_embed(v, diagonal, 1, 2) : v.diagonal(diagonal, 1, 2).clone();
  });
}

Tensor diag_embed_batched(const Tensor& self, int64_t offset, int64_t dim1, int64_t dim2) {
  const char* op = "diag_embed";
  EMBER_CHECK(self.dim() >= 1, op, ": expected a tensor with at least 1 dimension, got a 0-dim tensor");
  const int64_t nd = self.dim() + 1;
  const int64_t a = wrap_dim(dim1, nd, op, /*scalar_as_1d=*/false), c = wrap_dim(dim2, nd, op, false);
  EMBER_CHECK(a != c, op, ": diagonal dimensions cannot be identical ", dim1, ", ", dim2);
  return on_front(self, [&](const Tensor& v) { return diag_embed(v, offset, a + 1, c + 1); });
}

Tensor block_diag_batched(TensorList tensors) {
  std::vector<Tensor> mats;
  int64_t cols = 0;
  const ScalarType dt = result_type(tensors);
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    EMBER_CHECK(t.dim() <= 2, "torch.block_diag: Input tensors must have 2 or fewer dimensions. Input ", i, " has ",
                t.dim(), " dimensions");
    mats.push_back((t.dim() == 2 ? t : t.reshape({1, t.numel()})).to(dt));
    cols += mats.back().size(1);
  }
  // Each block padded to the full width at its column offset; the rows stacked.
  int64_t c = 0;
  for (Tensor& m : mats) {
    const int64_t w = m.size(1);
    m = constant_pad_nd(m, {c, cols - c - w}, 0);
    c += w;
  }
  return cat(mats, 0);
}

// ---- refusals ------------------------------------------------------------------------

void refuse_dynamic_shape(const char* op) {
  EMBER_ERROR(op,
              ": vmap: We do not support batching operators that can output dynamic shape (each sample's result "
              "shape would depend on its values). Attempted to vmap over ",
              op, "; compute it outside vmap, or use ops with fixed shapes (where, masked_fill)");
}

}  // namespace torch::batching
