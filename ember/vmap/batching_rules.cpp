#include "ember/vmap/batching_rules.h"

#include <algorithm>

#include "ember/core/error.h"
#include "ember/ops/all_ops.h"

namespace torch::batching {

namespace {
int64_t level_of(const Tensor* t) {
  const BatchedMeta* m = t != nullptr ? batched_meta(*t) : nullptr;
  return m != nullptr ? m->level : 0;
}
int64_t size_at(const Tensor* t, int64_t level) {
  const BatchedMeta* m = t != nullptr ? batched_meta(*t) : nullptr;
  return m != nullptr && m->level == level ? m->value.size(m->bdim) : -1;
}
}  // namespace

int64_t top_level(std::initializer_list<const Tensor*> ts) {
  int64_t l = 0;
  for (const Tensor* t : ts) l = std::max(l, level_of(t));
  return l;
}
int64_t top_level(TensorList ts) {
  int64_t l = 0;
  for (const Tensor& t : ts) l = std::max(l, level_of(&t));
  return l;
}

int64_t batch_size(std::initializer_list<const Tensor*> ts, int64_t level) {
  for (const Tensor* t : ts)
    if (int64_t b = size_at(t, level); b >= 0) return b;
  return 1;
}
int64_t batch_size(TensorList ts, int64_t level) {
  for (const Tensor& t : ts)
    if (int64_t b = size_at(&t, level); b >= 0) return b;
  return 1;
}

Peeled peel_front(const Tensor& t, int64_t level) {
  const BatchedMeta* m = batched_meta(t);
  if (m == nullptr || m->level != level) return {t, false};
  check_in_scope(*m);
  return {m->bdim == 0 ? m->value : m->value.movedim(m->bdim, 0), true};
}

DimVector phys_dims(IntArrayRef dims, int64_t rank, const char* op) {
  DimVector r;
  for (int64_t d : dims) r.push_back(phys_dim(d, rank, op));
  return r;
}

DimVector all_phys_dims(int64_t rank) {
  DimVector r;
  for (int64_t d = 1; d <= rank; ++d) r.push_back(d);
  return r;
}

void refuse_out(const char* op) {
  EMBER_CHECK(false, op,
              "_out: out= arguments are not supported inside vmap (the result's batch dim has nowhere to go)");
}

Tensor front_or_expand(const Tensor& t, int64_t level, int64_t b) {
  Peeled p = peel_front(t, level);
  if (p.batched) return p.value;
  return p.value.unsqueeze(0).expand(batch_shape(b, t.sizes()));
}

namespace {
// Physical operands for a broadcasting rule (see broadcasting()).
std::vector<Tensor> line_up(std::initializer_list<const Tensor*> inputs, int64_t level, std::optional<ScalarType> cast,
                            bool keep_first) {
  int64_t rank = 0;
  for (const Tensor* t : inputs)
    if (t != nullptr) rank = std::max(rank, t->dim());
  std::vector<Tensor> phys;
  phys.reserve(inputs.size());
  bool first = true;
  for (const Tensor* t : inputs) {
    if (t == nullptr) {
      phys.emplace_back();
      first = false;
      continue;
    }
    Peeled p = peel_front(*t, level);
    Tensor v = std::move(p.value);
    if (p.batched && t->dim() < rank) {
      DimVector shape{v.size(0)};
      shape.resize(1 + rank - t->dim(), 1);
      for (int64_t s : t->sizes()) shape.push_back(s);
      v = v.view(shape);
    }
    if (cast && !(keep_first && first) && v.scalar_type() != *cast) v = v.to(*cast);
    phys.push_back(std::move(v));
    first = false;
  }
  return phys;
}
}  // namespace

Tensor broadcasting(std::initializer_list<const Tensor*> inputs, std::optional<ScalarType> cast,
                    const BroadcastFn& fn) {
  const int64_t level = top_level(inputs);
  std::vector<Tensor> phys = line_up(inputs, level, cast, false);
  return wrap(fn(phys), level);
}

void broadcasting_(const char* op, std::initializer_list<const Tensor*> inputs, std::optional<ScalarType> cast,
                   const BroadcastFn& fn) {
  const int64_t level = top_level(inputs);
  const Tensor& self = **inputs.begin();
  const BatchedMeta* m = batched_meta(self);
  EMBER_CHECK(m != nullptr && m->level == level, op,
              ": vmap: in-place arithmetic is not possible because another argument is batched over a vmapped "
              "dimension but self (shape ",
              shape_str(self.sizes()),
              ") is not; the result would have more elements than self. Use the out-of-place op instead");
  std::vector<Tensor> phys = line_up(inputs, level, cast, true);
  fn(phys);
}

Tensor expand_batched(const Tensor& self, IntArrayRef size) {
  const int64_t nd = static_cast<int64_t>(size.size());
  EMBER_CHECK(nd >= self.dim(), "expand: the number of sizes provided (", nd,
              ") must be greater or equal to the number of dimensions in the tensor (", self.dim(), ")");
  return on_front(self, [&](const Tensor& v) {
    DimVector padded{v.size(0)};
    padded.resize(1 + nd - self.dim(), 1);
    for (int64_t s : self.sizes()) padded.push_back(s);
    return v.view(padded).expand(batch_shape(v.size(0), size));
  });
}

Tensor squeeze_batched(const Tensor& self) {
  return on_front(self, [&](const Tensor& v) {
    DimVector shape{v.size(0)};
    for (int64_t s : self.sizes())
      if (s != 1) shape.push_back(s);
    return v.view(shape);
  });
}

Tensor t_batched(const Tensor& self) {
  EMBER_CHECK(self.dim() <= 2, "t: expects a tensor with <= 2 dimensions, but self is ", self.dim(), "D");
  return on_front(self, [&](const Tensor& v) { return self.dim() < 2 ? v : v.transpose(1, 2); });
}

std::vector<Tensor> broadcast_tensors_batched(TensorList tensors) {
  DimVector shape;
  for (const Tensor& t : tensors) shape = ember::broadcast_shapes(shape, t.sizes(), "broadcast_tensors");
  std::vector<Tensor> out;
  for (const Tensor& t : tensors) out.push_back(t.expand(shape));
  return out;
}

namespace {
// The highest storage index a view of `size`/`stride` reaches past its offset.
int64_t max_reach(IntArrayRef size, IntArrayRef stride) {
  int64_t r = 0;
  for (size_t i = 0; i < size.size(); ++i)
    if (size[i] > 0) r += (size[i] - 1) * stride[i];
  return r;
}
}  // namespace

Tensor as_strided_batched(const Tensor& self, IntArrayRef size, IntArrayRef stride,
                          std::optional<int64_t> storage_offset) {
  EMBER_CHECK(size.size() == stride.size(), "as_strided: mismatch in length of strides and shape (", shape_str(size),
              " vs ", shape_str(stride), ")");
  const BatchedMeta* m = batched_meta(self);
  check_in_scope(*m);
  const int64_t off = storage_offset.value_or(self.storage_offset());
  if (checked_numel(size, "as_strided") > 0) {
    // functorch's check: the view stays inside the memory the sample can reach
    // (ranges are [first, one past the last] storage indices).
    const int64_t r0 = off, r1 = off + max_reach(size, stride) + 1;
    const int64_t t0 = self.storage_offset(), t1 = t0 + max_reach(self.sizes(), self.strides()) + 1;
    EMBER_CHECK(self.numel() > 0 && r0 >= t0 && r1 <= t1, "result = tensor.as_strided(", shape_str(size), ", ",
                shape_str(stride), ", ", off,
                ") can access memory outside of `tensor`. `result` can access some memory in range [", r0, ", ", r1,
                "], but `tensor` can only access some memory in range [", t0, ", ", t1,
                "]. This is not supported inside of vmap, please try to rewrite the `as_strided` call as a sequence "
                "of PyTorch view operations");
  }
  const Tensor& v = m->value;
  const int64_t batch = v.size(m->bdim);
  if (v.stride(m->bdim) == 0 && batch > 1 && self.numel() > 0 && checked_numel(size, "as_strided") > 0) {
    // Every sample is the same memory (an expanded batch: the primal under
    // jacfwd, Note [jvp under vmap]), yet the samples carry different tangents
    // or gradients, and the physical as_strided would overlap along the batch
    // dim (no derivative). So each sample gets its own copy of the storage the
    // view may reach, laid out as before: offsets keep their meaning. (Storage
    // between the tensor's elements, which a view of a non-dense tensor may
    // read, is zero in the copy.)
    const int64_t t0 = self.storage_offset(), extent = max_reach(self.sizes(), self.strides()) + 1;
    Tensor storage = v.new_zeros({batch * extent});
    DimVector copy_sizes{batch}, copy_strides{extent};
    for (int64_t d = 0; d < self.dim(); ++d) {
      copy_sizes.push_back(self.size(d));
      copy_strides.push_back(self.stride(d));
    }
    storage.as_strided(copy_sizes, copy_strides, 0).copy_(v.movedim(m->bdim, 0));
    DimVector st{extent};
    for (int64_t s : stride) st.push_back(s);
    return wrap(storage.as_strided(batch_shape(batch, size), st, off - t0), m->level);
  }
  DimVector st{v.stride(m->bdim)};
  for (int64_t s : stride) st.push_back(s);
  return wrap(v.as_strided(batch_shape(v.size(m->bdim), size), st, off), m->level);
}

namespace detail {
Tensor flat_batch(const Tensor& v) { return v.dim() == 1 ? v.unsqueeze(1) : v.flatten(1); }
Tensor keep_all_dims(const Tensor& r, int64_t rank) {
  DimVector shape{r.size(0)};
  shape.resize(1 + rank, 1);
  return r.view(shape);
}
}  // namespace detail

// matmul's cases on logical ranks: a vector operand becomes a 1-row (left)
// or 1-column (right) matrix, batched operands get size-1 dims after the
// batch up to the other's rank so their batch dims line up, one physical
// matmul broadcasts the rest, and the vector dims are squeezed out again.
Tensor matmul_batched(const Tensor& a, const Tensor& b) {
  const int64_t da = a.dim(), db = b.dim();
  EMBER_CHECK(da >= 1 && db >= 1, "matmul: both arguments to matmul need to be at least 1D, but they are ", da,
              "D and ", db, "D");
  const int64_t level = top_level({&a, &b});
  Peeled pa = peel_front(a, level), pb = peel_front(b, level);
  Tensor x = da == 1 ? pa.value.unsqueeze(pa.batched ? 1 : 0) : pa.value;
  Tensor y = db == 1 ? pb.value.unsqueeze(-1) : pb.value;
  const int64_t r = std::max({da, db, int64_t{2}});
  auto pad = [&](Tensor& t, bool batched) {
    const int64_t logical = t.dim() - (batched ? 1 : 0);
    if (!batched || logical >= r) return;
    DimVector shape{t.size(0)};
    shape.resize(1 + r - logical, 1);
    for (int64_t d = 1; d < t.dim(); ++d) shape.push_back(t.size(d));
    t = t.view(shape);
  };
  pad(x, pa.batched);
  pad(y, pb.batched);
  Tensor out = matmul(x, y);
  if (da == 1) out = out.squeeze(-2);
  if (db == 1) out = out.squeeze(-1);
  return wrap(std::move(out), level);
}

// multi_dot's product is the same whatever the order, so the batched form is
// matmul (whose rule lines the batches up) from left to right. ember::multi_dot
// has checked the logical ranks before calling this.
Tensor multi_dot_batched(TensorList tensors) {
  const size_t n = tensors.size();
  Tensor r = tensors[0];
  for (size_t i = 1; i < n; ++i) {
    EMBER_CHECK(r.size(-1) == tensors[i].size(0), "multi_dot: tensors[", i - 1, "] and tensors[", i,
                "] cannot be multiplied (", shape_str(r.sizes()), " and ", shape_str(tensors[i].sizes()), ")");
    r = matmul(r, tensors[i]);
  }
  return r;
}

Tensor cat_batched(TensorList tensors, int64_t dim) {
  EMBER_CHECK(!tensors.empty(), "torch.cat(): expected a non-empty list of Tensors");
  std::vector<Tensor> kept;
  for (size_t i = 0; i < tensors.size(); ++i) {
    EMBER_CHECK(tensors[i].defined(), "torch.cat(): tensor number ", i, " in the list is undefined");
    EMBER_CHECK(tensors[i].dim() > 0, "torch.cat(): zero-dimensional tensor (at position ", i,
                ") cannot be concatenated");
    // Legacy: 1-D empty tensors take no part (as in cat itself).
    if (!(tensors[i].dim() == 1 && tensors[i].size(0) == 0)) kept.push_back(tensors[i]);
  }
  if (kept.empty()) kept.assign(tensors.begin(), tensors.end());
  const int64_t level = top_level(TensorList(kept));
  std::vector<Tensor> phys = fronts(kept, level);
  return wrap(cat(phys, phys_dim(dim, kept[0].dim(), "cat")), level);
}

Tensor stack_batched(TensorList tensors, int64_t dim) {
  EMBER_CHECK(!tensors.empty(), "stack: expects a non-empty TensorList");
  for (size_t i = 1; i < tensors.size(); ++i)
    EMBER_CHECK(tensors[i].sizes().equals(tensors[0].sizes()), "stack expects each tensor to be equal size, but got ",
                shape_str(tensors[0].sizes()), " at entry 0 and ", shape_str(tensors[i].sizes()), " at entry ", i);
  const int64_t level = top_level(tensors);
  std::vector<Tensor> phys = fronts(tensors, level);
  return wrap(stack(phys, phys_dim(dim, tensors[0].dim() + 1, "stack")), level);
}

Tensor where_batched(const Tensor& condition, const Tensor& self, const Tensor& other) {
  EMBER_CHECK(condition.dtype() == kBool,
              "where: expected condition to be a boolean tensor, but got a tensor with dtype ", condition.dtype());
  const ScalarType dt = result_type(self, other);
  return broadcasting({&condition, &self, &other}, std::nullopt,
                      [&](std::vector<Tensor>& p) { return where(p[0], p[1].to(dt), p[2].to(dt)); });
}

// Each sample picks its own rows: a gather along the dim with the index
// broadcast over the other dims (functorch's rule). Only a batched self:
// index_select on the physical tensor.
Tensor index_select_batched(const Tensor& self, int64_t dim, const Tensor& index) {
  EMBER_CHECK(index.dim() <= 1, "index_select(): Index is supposed to be a vector, got shape ",
              shape_str(index.sizes()));
  const int64_t level = top_level({&self, &index});
  Peeled ps = peel_front(self, level), pi = peel_front(index, level);
  const int64_t rank = std::max<int64_t>(self.dim(), 1);
  const int64_t d = phys_dim(dim, rank, "index_select");
  Tensor s = self.dim() == 0 && ps.batched ? ps.value.unsqueeze(1) : ps.value;
  if (!pi.batched) return wrap(index_select(s, d, index), level);
  const int64_t b = pi.value.size(0);
  if (!ps.batched) s = front_or_expand(self.dim() == 0 ? self.unsqueeze(0) : self, level, b);
  // idx: [B, k] -> [B, 1, .., k, .., 1] expanded to the result's physical shape.
  Tensor idx = pi.value.reshape({b, -1});
  DimVector shape{b}, view{b};
  for (int64_t i = 1; i <= rank; ++i) {
    shape.push_back(i == d ? idx.size(1) : s.size(i));
    view.push_back(i == d ? idx.size(1) : 1);
  }
  Tensor out = gather(s, d, idx.view(view).expand(shape));
  if (index.dim() == 0 && self.dim() == 0) out = out.squeeze(1);
  return wrap(std::move(out), level);
}

Tensor gather_batched(const Tensor& self, int64_t dim, const Tensor& index) {
  const int64_t level = top_level({&self, &index});
  const int64_t b = batch_size({&self, &index}, level);
  Tensor s = front_or_expand(self, level, b), i = front_or_expand(index, level, b);
  const int64_t rank = std::max<int64_t>(self.dim(), 1);
  if (self.dim() == 0) s = s.unsqueeze(1);
  if (index.dim() == 0) i = i.unsqueeze(1);
  Tensor out = gather(s, phys_dim(dim, rank, "gather"), i);
  if (index.dim() == 0) out = out.squeeze(1);
  return wrap(std::move(out), level);
}

namespace {
// Self's physical tensor for an in-place write at `level` (raising as
// PyTorch does when self is not batched but another argument is).
Tensor inplace_front(const char* op, const Tensor& self, int64_t level) {
  const BatchedMeta* m = batched_meta(self);
  EMBER_CHECK(m != nullptr && m->level == level, op, ": vmap: in-place write into a tensor that is not batched (shape ",
              shape_str(self.sizes()), ") from a batched index or source; use the out-of-place op instead");
  return peel_front(self, level).value;
}
}  // namespace

Tensor& scatter_batched_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& src, ScatterKind kind) {
  const char* op = kind == ScatterKind::Add ? "scatter_add_" : "scatter_";
  const int64_t level = top_level({&self, &index, &src});
  const int64_t b = batch_size({&self, &index, &src}, level);
  Tensor s = inplace_front(op, self, level), i = front_or_expand(index, level, b);
  Tensor v = src.defined() ? front_or_expand(src, level, b) : Tensor();
  if (self.dim() == 0) {  // a 0-dim self scatters along dim 0 of a one-element vector
    s = s.unsqueeze(1);
    i = i.unsqueeze(1);
    if (v.defined()) v = v.dim() == 1 ? v.unsqueeze(1) : v;
  }
  const int64_t d = phys_dim(dim, std::max<int64_t>(self.dim(), 1), op);
  if (kind == ScatterKind::Add)
    s.scatter_add_(d, i, v);
  else
    s.scatter_(d, i, v);
  return self;
}

Tensor& index_add_batched_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& source, const Scalar& alpha) {
  const int64_t level = top_level({&self, &index, &source});
  const int64_t b = batch_size({&self, &index, &source}, level);
  Tensor s = inplace_front("index_add_", self, level);
  Tensor src = front_or_expand(source, level, b);
  if (self.dim() == 0) {
    s = s.unsqueeze(1);
    src = src.dim() == 1 ? src.unsqueeze(1) : src;
  }
  const int64_t d = phys_dim(dim, std::max<int64_t>(self.dim(), 1), "index_add_");
  Peeled pi = peel_front(index, level);
  if (!pi.batched) {
    s.index_add_(d, index, src, alpha);
    return self;
  }
  // Per-sample indices: the same sums as a scatter_add whose index repeats
  // index[k] over source's other dims.
  DimVector view{b};
  for (int64_t k = 1; k < src.dim(); ++k) view.push_back(k == d ? src.size(k) : 1);
  Tensor idx = pi.value.reshape({b, -1}).to(kLong).view(view).expand(src.sizes());
  s.scatter_add_(d, idx, alpha.equal(Scalar(1)) ? src : src * alpha);
  return self;
}

Tensor batched_clone(const Tensor& self, std::initializer_list<const Tensor*> others) {
  const int64_t level = std::max(top_level({&self}), top_level(others));
  if (is_batched(self) && batched_meta(self)->level == level) return self.clone();
  // Self is not batched at this level, so one of the others is.
  return wrap(front_or_expand(self, level, batch_size(others, level)).clone(), level);
}

std::vector<Tensor> fronts(TensorList ts, int64_t level) {
  const int64_t b = batch_size(ts, level);
  std::vector<Tensor> r;
  r.reserve(ts.size());
  for (const Tensor& t : ts) r.push_back(front_or_expand(t, level, b));
  return r;
}

}  // namespace torch::batching
