#include "ember/ops/shape/shape_ops.h"
#include "ember/core/checked_arith.h"
#include "ember/core/record_scope.h"

#include "ember/autograd/derivatives/shape_grad.h"
#include "ember/autograd/derivatives/shape_layout_grad.h"
#include "ember/autograd/formula_node.h"

#include "ember/core/shape.h"
#include "ember/ops/elementwise/type_promotion.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/index/indexing.h"
#include "ember/ops/shape/copy.h"
#include "ember/ops/shape/view.h"
#include "ember/vmap/batched_tensor.h"
#include "ember/vmap/batching_rules.h"
#include "ember/vmap/rules_indexing.h"

namespace torch {

namespace {
// Legacy behaviour kept by PyTorch: 1-D empty tensors join anything.
bool skipped_in_cat(const Tensor& t) { return t.dim() == 1 && t.size(0) == 0; }

// copy_ into a temporary view of the destination (views share its storage).
void copy_into(Tensor dst, const Tensor& src) { copy_(dst, src); }
}  // namespace

Tensor cat(TensorList tensors, int64_t dim) {
  if (batching::any_batched(tensors)) [[unlikely]]
    return batching::cat_batched(tensors, dim);
  EMBER_RECORD_OP("cat", tensors);
  EMBER_CHECK(!tensors.empty(), "torch.cat(): expected a non-empty list of Tensors");
  for (size_t i = 0; i < tensors.size(); ++i) {
    EMBER_CHECK(tensors[i].defined(), "torch.cat(): tensor number ", i, " in the list is undefined");
    EMBER_CHECK(tensors[i].dim() > 0, "torch.cat(): zero-dimensional tensor (at position ", i,
                ") cannot be concatenated");
  }
  const ScalarType dt = result_type(tensors);
  const Tensor* ref = nullptr;
  for (size_t i = 0; i < tensors.size() && !ref; ++i)
    if (!skipped_in_cat(tensors[i])) ref = &tensors[i];
  if (!ref) {  // only legacy empties: the result is one of them
    wrap_dim(dim, 1, "torch.cat()");
    return empty({0}, TensorOptions().dtype(dt));
  }
  const int64_t d = wrap_dim(dim, ref->dim(), "torch.cat()");
  DimVector shape(ref->sizes());
  shape[d] = 0;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    if (skipped_in_cat(t)) continue;
    EMBER_CHECK(t.dim() == ref->dim(), "torch.cat(): Tensors must have same number of dimensions: got ", ref->dim(),
                " and ", t.dim());
    for (int64_t k = 0; k < t.dim(); ++k)
      EMBER_CHECK(k == d || t.size(k) == ref->size(k), "torch.cat(): Sizes of tensors must match except in dimension ",
                  d, ". Expected size ", ref->size(k), " but got size ", t.size(k), " for tensor number ", i,
                  " in the list.");
    shape[d] = checked_add(shape[d], t.size(d), "torch.cat()", "size of the concatenated dimension");
  }
  Tensor out = empty(shape, TensorOptions().dtype(dt));
  int64_t offset = 0;
  {
    autograd::BelowAutogradGuard no_grad;  // the copies are the op's own work; cat records one node below
    for (const Tensor& t : tensors) {
      if (skipped_in_cat(t)) continue;
      if (t.size(d) > 0) copy_into(narrow(out, d, offset, t.size(d)), t);
      offset += t.size(d);
    }
  }
  if (autograd::any_needs_grad(tensors) && (is_floating_point(dt) || is_complex(dt))) {
    DimVector lengths;
    for (const Tensor& t : tensors) lengths.push_back(skipped_in_cat(t) ? -1 : t.size(d));
    autograd::record_cat(tensors, out, d, lengths);
  }
  return out;
}
Tensor concat(TensorList tensors, int64_t dim) {
  EMBER_RECORD_COMPOSITE_OP("concat", tensors);
  return cat(tensors, dim);
}
Tensor concatenate(TensorList tensors, int64_t dim) {
  EMBER_RECORD_COMPOSITE_OP("concatenate", tensors);
  return cat(tensors, dim);
}

Tensor stack(TensorList tensors, int64_t dim) {
  if (batching::any_batched(tensors)) [[unlikely]]
    return batching::stack_batched(tensors, dim);
  EMBER_RECORD_OP("stack", tensors);
  EMBER_CHECK(!tensors.empty(), "stack: expects a non-empty TensorList");
  for (size_t i = 1; i < tensors.size(); ++i)
    EMBER_CHECK(tensors[i].sizes().equals(tensors[0].sizes()), "stack expects each tensor to be equal size, but got ",
                shape_str(tensors[0].sizes()), " at entry 0 and ", shape_str(tensors[i].sizes()), " at entry ", i);
  const int64_t d = wrap_dim(dim, tensors[0].dim() + 1, "stack");
  std::vector<Tensor> parts;
  for (const Tensor& t : tensors) parts.push_back(unsqueeze(t, d));
  return cat(parts, d);
}

Tensor atleast_1d(const Tensor& self) {
  EMBER_RECORD_COMPOSITE_OP("atleast_1d", self);
  return self.dim() == 0 ? reshape(self, {1}) : self;
}
Tensor atleast_2d(const Tensor& self) {
  EMBER_RECORD_COMPOSITE_OP("atleast_2d", self);
  if (self.dim() == 0) return reshape(self, {1, 1});
  return self.dim() == 1 ? unsqueeze(self, 0) : self;
}
Tensor atleast_3d(const Tensor& self) {
  EMBER_RECORD_COMPOSITE_OP("atleast_3d", self);
  if (self.dim() == 0) return reshape(self, {1, 1, 1});
  if (self.dim() == 1) return unsqueeze(unsqueeze(self, 0), 2);
  return self.dim() == 2 ? unsqueeze(self, 2) : self;
}

namespace {
template <typename F>
std::vector<Tensor> map_list(TensorList ts, F f) {
  std::vector<Tensor> out;
  for (const Tensor& t : ts) out.push_back(f(t));
  return out;
}
}  // namespace

Tensor hstack(TensorList tensors) {
  EMBER_RECORD_COMPOSITE_OP("hstack", tensors);
  EMBER_CHECK(!tensors.empty(), "hstack: expects a non-empty TensorList");
  std::vector<Tensor> ts = map_list(tensors, atleast_1d);
  return cat(ts, ts[0].dim() == 1 ? 0 : 1);
}
Tensor vstack(TensorList tensors) {
  EMBER_RECORD_COMPOSITE_OP("vstack", tensors);
  EMBER_CHECK(!tensors.empty(), "vstack: expects a non-empty TensorList");
  return cat(map_list(tensors, atleast_2d), 0);
}
Tensor row_stack(TensorList tensors) {
  EMBER_RECORD_COMPOSITE_OP("row_stack", tensors);
  return vstack(tensors);
}
Tensor dstack(TensorList tensors) {
  EMBER_RECORD_COMPOSITE_OP("dstack", tensors);
  EMBER_CHECK(!tensors.empty(), "dstack: expects a non-empty TensorList");
  return cat(map_list(tensors, atleast_3d), 2);
}
Tensor column_stack(TensorList tensors) {
  EMBER_RECORD_COMPOSITE_OP("column_stack", tensors);
  EMBER_CHECK(!tensors.empty(), "column_stack: expects a non-empty TensorList");
  return hstack(map_list(tensors, [](const Tensor& t) { return t.dim() <= 1 ? reshape(t, {t.numel(), 1}) : t; }));
}

Tensor block_diag(TensorList tensors) {
  if (batching::any_batched(tensors)) [[unlikely]]
    return batching::block_diag_batched(tensors);
  EMBER_RECORD_OP("block_diag", tensors);
  std::vector<Tensor> mats;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    EMBER_CHECK(t.dim() <= 2, "torch.block_diag: Input tensors must have 2 or fewer dimensions. Input ", i, " has ",
                t.dim(), " dimensions");
    mats.push_back(t.dim() == 2 ? t : reshape(t, {1, t.numel()}));
  }
  const ScalarType dt = tensors.empty() ? get_default_dtype() : result_type(tensors);
  int64_t rows = 0, cols = 0;
  for (const Tensor& m : mats) {
    rows += m.size(0);
    cols += m.size(1);
  }
  Tensor out = zeros({rows, cols}, TensorOptions().dtype(dt));
  int64_t r = 0, c = 0;
  for (const Tensor& m : mats) {
    if (m.numel() > 0) copy_into(narrow(narrow(out, 0, r, m.size(0)), 1, c, m.size(1)), m);
    r += m.size(0);
    c += m.size(1);
  }
  return out;
}

// ---- reordering ----------------------------------------------------------------
Tensor flip(const Tensor& self, IntArrayRef dims) {
  EMBER_VMAP_ON_FRONT(self, v, flip(v, batching::phys_dims(dims, self.dim(), "flip")));
  EMBER_RECORD_OP("flip", self);
  const uint64_t mask = dim_mask(dims, self.dim(), "flip");
  Tensor out = empty(self.sizes(), self.options());
  if (self.numel() == 0) return out;
  // A reversed view: negative strides starting from the last element of each flipped dim.
  DimVector st(self.strides());
  int64_t offset = self.storage_offset();
  for (int64_t d = 0; d < self.dim(); ++d)
    if (mask & (uint64_t(1) << d)) {
      offset += (self.size(d) - 1) * st[d];
      st[d] = -st[d];
    }
  {
    autograd::BelowAutogradGuard no_grad;
    copy_(out, make_view(self, self.sizes(), st, offset));
  }
  if (autograd::needs_grad(self)) {
    DimVector wrapped;
    for (int64_t d = 0; d < self.dim(); ++d)
      if (mask & (uint64_t(1) << d)) wrapped.push_back(d);
    autograd::record_flip(self, out, wrapped);
  }
  return out;
}
Tensor fliplr(const Tensor& self) {
  EMBER_RECORD_COMPOSITE_OP("fliplr", self);
  EMBER_CHECK(self.dim() >= 2, "fliplr: Input must be >= 2-d.");
  return flip(self, {1});
}
Tensor flipud(const Tensor& self) {
  EMBER_RECORD_COMPOSITE_OP("flipud", self);
  EMBER_CHECK(self.dim() >= 1, "flipud: Input must be >= 1-d.");
  return flip(self, {0});
}

namespace {
Tensor roll_dim(const Tensor& self, int64_t shift, int64_t d) {
  Tensor out = empty(self.sizes(), self.options());
  const int64_t n = self.size(d);
  if (self.numel() == 0) return out;
  const int64_t s = ((shift % n) + n) % n;
  if (n - s > 0) copy_into(narrow(out, d, s, n - s), narrow(self, d, 0, n - s));
  if (s > 0) copy_into(narrow(out, d, 0, s), narrow(self, d, n - s, s));
  return out;
}
}  // namespace

namespace {
Tensor roll_impl(const Tensor& self, IntArrayRef shifts, IntArrayRef dims) {
  if (dims.empty()) {
    EMBER_CHECK(shifts.size() == 1, "roll: shifts and dimensions must align. shifts: ", shifts.size(),
                ", dims:", dims.size());
    return view(roll_dim(reshape(self, {-1}), shifts[0], 0), self.sizes());
  }
  EMBER_CHECK(shifts.size() == dims.size(), "roll: shifts and dimensions must align. shifts: ", shifts.size(),
              ", dims:", dims.size());
  Tensor out = self;
  for (size_t i = 0; i < dims.size(); ++i) out = roll_dim(out, shifts[i], wrap_dim(dims[i], self.dim(), "roll"));
  return out;
}
}  // namespace

Tensor roll(const Tensor& self, IntArrayRef shifts, IntArrayRef dims) {
  if (batching::any_batched(self)) [[unlikely]]
    return batching::roll_batched(self, shifts, dims);
  EMBER_RECORD_OP("roll", self);
  Tensor out;
  {
    autograd::BelowAutogradGuard no_grad;  // the copies are the op's own work; one node is recorded below
    out = roll_impl(self, shifts, dims);
  }
  if (autograd::needs_grad(self)) autograd::record_roll(self, out, shifts, dims);
  return out;
}

// ---- repetition ------------------------------------------------------------------
Tensor repeat(const Tensor& self, IntArrayRef repeats) {
  if (batching::any_batched(self)) [[unlikely]]
    return batching::repeat_batched(self, repeats);
  EMBER_RECORD_OP("repeat", self);
  const int64_t nr = static_cast<int64_t>(repeats.size());
  EMBER_CHECK(nr >= self.dim(),
              "repeat: Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor");
  DimVector padded(nr - self.dim(), 1), out_shape;
  for (int64_t s : self.sizes()) padded.push_back(s);
  for (int64_t i = 0; i < nr; ++i) {
    EMBER_CHECK(repeats[i] >= 0, "repeat: Trying to create tensor with negative dimension ", repeats[i], ": ",
                shape_str(repeats));
    out_shape.push_back(checked_mul(padded[i], repeats[i], "repeat", "output size"));
  }
  Tensor out = empty(out_shape, self.options());
  if (autograd::needs_grad(self)) autograd::record_repeat(self, out, repeats);
  if (out.numel() == 0) return out;
  autograd::BelowAutogradGuard no_grad;  // the copy below is the op's own work
  // out viewed as [r0, p0, r1, p1, ...] is the source broadcast over the r dims.
  Tensor src = reshape(self, padded);
  DimVector split_sizes, src_strides;
  for (int64_t i = 0; i < nr; ++i) {
    split_sizes.push_back(repeats[i]);
    split_sizes.push_back(padded[i]);
    src_strides.push_back(0);
    src_strides.push_back(src.stride(i));
  }
  copy_into(view(out, split_sizes), make_view(src, split_sizes, src_strides, src.storage_offset()));
  return out;
}

Tensor tile(const Tensor& self, IntArrayRef dims) {
  EMBER_RECORD_COMPOSITE_OP("tile", self);  // repeat does the work
  DimVector reps;
  for (int64_t i = static_cast<int64_t>(dims.size()); i < self.dim(); ++i) reps.push_back(1);
  for (int64_t r : dims) reps.push_back(r);
  return repeat(self, reps);
}

Tensor repeat_interleave(const Tensor& repeats) {
  // Each sample's result length would be the sum of its own repeats.
  if (batching::any_batched(repeats)) [[unlikely]]
    batching::refuse_dynamic_shape("repeat_interleave");
  EMBER_RECORD_OP("repeat_interleave", repeats);
  EMBER_CHECK(repeats.dim() == 1, "repeat_interleave: only accept 1D vector as repeat, got shape ",
              shape_str(repeats.sizes()));
  EMBER_CHECK(repeats.dtype() == kLong || repeats.dtype() == kInt,
              "repeat_interleave: only support int32 and int64 repeats, got ", repeats.dtype());
  Tensor r = contiguous(ops::cast(repeats, kLong));
  const int64_t* rp = r.data_ptr<int64_t>();
  int64_t total = 0;
  for (int64_t i = 0; i < r.numel(); ++i) {
    EMBER_CHECK(rp[i] >= 0, "repeat_interleave: repeats can not be negative");
    total = checked_add(total, rp[i], "repeat_interleave", "sum of repeats");
  }
  Tensor out = empty({total}, TensorOptions().dtype(kLong));
  int64_t* o = out.data_ptr<int64_t>();
  for (int64_t i = 0; i < r.numel(); ++i)
    for (int64_t k = 0; k < rp[i]; ++k) *o++ = i;
  return ops::cast(out, repeats.dtype());
}

Tensor repeat_interleave(const Tensor& self, const Tensor& repeats, std::optional<int64_t> dim) {
  if (batching::any_batched(repeats)) [[unlikely]]
    batching::refuse_dynamic_shape("repeat_interleave");
  // With shared repeats this is reshape/expand/index_select, which take a batched self.
  EMBER_RECORD_COMPOSITE_OP("repeat_interleave", self, repeats);
  Tensor input = dim ? self : reshape(self, {-1});
  // An explicit dim must exist (a 0-dim input has none), as in PyTorch.
  const int64_t d = dim ? wrap_dim(*dim, input.dim(), "repeat_interleave", /*scalar_as_1d=*/false) : 0;
  input = input.dim() == 0 ? reshape(input, {1}) : input;
  Tensor reps = repeats;
  if (reps.dim() == 0 || (reps.dim() == 1 && reps.size(0) == 1)) reps = expand(reshape(reps, {1}), {input.size(d)});
  EMBER_CHECK(reps.dim() == 1 && reps.size(0) == input.size(d),
              "repeat_interleave: repeats must have the same size as input along dim, got repeats of shape ",
              shape_str(repeats.sizes()), " for input of shape ", shape_str(input.sizes()), " at dim ", d);
  return index_select(input, d, repeat_interleave(reps));
}

Tensor repeat_interleave(const Tensor& self, int64_t repeats, std::optional<int64_t> dim) {
  EMBER_RECORD_COMPOSITE_OP("repeat_interleave", self);
  EMBER_CHECK(repeats >= 0, "repeat_interleave: repeats can not be negative");
  return repeat_interleave(self, full({}, repeats, TensorOptions().dtype(kLong)), dim);
}

// ---- triangles -------------------------------------------------------------------
namespace {
// [rows, cols] mask of the elements tril/triu zero out (broadcast over batch dims).
Tensor outside_triangle(const Tensor& self, int64_t diagonal, bool lower, const char* op) {
  EMBER_CHECK(self.dim() >= 2, op, ": input tensor must have at least 2 dimensions, got ", self.dim());
  const int64_t rows = self.size(-2), cols = self.size(-1);
  Tensor mask = empty({rows, cols}, TensorOptions().dtype(kBool));
  bool* m = mask.data_ptr<bool>();
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) m[i * cols + j] = lower ? (j - i > diagonal) : (j - i < diagonal);
  return mask;
}
}  // namespace

namespace {
// tril/triu (formula: autograd/derivatives/shape_layout_grad.cpp).
Tensor& triangle_(Tensor& self, int64_t diagonal, bool lower, const char* op) {
  Tensor mask = outside_triangle(self, diagonal, lower, op);
  const bool grad = autograd::needs_grad(self);
  if (grad) autograd::check_inplace(self, op);
  {
    autograd::BelowAutogradGuard no_grad;
    masked_fill_(self, mask, 0);
  }
  if (grad) autograd::record_triangle(self, self, diagonal, lower);
  return self;
}
Tensor triangle(const Tensor& self, int64_t diagonal, bool lower, const char* op) {
  Tensor mask = outside_triangle(self, diagonal, lower, op);
  Tensor out;
  {
    autograd::BelowAutogradGuard no_grad;
    out = clone(self);
    masked_fill_(out, mask, 0);
  }
  if (autograd::needs_grad(self)) autograd::record_triangle(self, out, diagonal, lower);
  return out;
}
}  // namespace

Tensor& tril_(Tensor& self, int64_t diagonal) {
  if (batching::any_batched(self)) [[unlikely]]
    return batching::triangle_batched_(self, diagonal, true);
  EMBER_RECORD_OP("tril_", self);
  return triangle_(self, diagonal, true, "tril_");
}
Tensor& triu_(Tensor& self, int64_t diagonal) {
  if (batching::any_batched(self)) [[unlikely]]
    return batching::triangle_batched_(self, diagonal, false);
  EMBER_RECORD_OP("triu_", self);
  return triangle_(self, diagonal, false, "triu_");
}
Tensor tril(const Tensor& self, int64_t diagonal) {
  if (batching::any_batched(self)) [[unlikely]]
    return batching::triangle_batched(self, diagonal, true);
  EMBER_RECORD_OP("tril", self);
  return triangle(self, diagonal, true, "tril");
}
Tensor triu(const Tensor& self, int64_t diagonal) {
  if (batching::any_batched(self)) [[unlikely]]
    return batching::triangle_batched(self, diagonal, false);
  EMBER_RECORD_OP("triu", self);
  return triangle(self, diagonal, false, "triu");
}

// ---- grids -----------------------------------------------------------------------
std::vector<Tensor> meshgrid(TensorList tensors, std::string_view indexing) {
  EMBER_RECORD_COMPOSITE_OP("meshgrid", tensors);  // reshape + expand
  EMBER_CHECK(!tensors.empty(), "meshgrid: expects a non-empty TensorList");
  EMBER_CHECK(indexing == "ij" || indexing == "xy",
              "torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: ", indexing);
  for (size_t i = 0; i < tensors.size(); ++i) {
    EMBER_CHECK(tensors[i].dim() <= 1, "torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got a ",
                tensors[i].dim(), "D tensor of shape ", shape_str(tensors[i].sizes()), " at position ", i);
    EMBER_CHECK(tensors[i].dtype() == tensors[0].dtype(), "meshgrid: expects all tensors to have the same dtype, got ",
                tensors[0].dtype(), " and ", tensors[i].dtype());
  }
  std::vector<Tensor> in(tensors.begin(), tensors.end());
  const bool swap = indexing == "xy" && in.size() >= 2;
  if (swap) std::swap(in[0], in[1]);
  DimVector shape;
  for (const Tensor& t : in) shape.push_back(t.numel());
  std::vector<Tensor> out;
  for (size_t i = 0; i < in.size(); ++i) {
    DimVector vshape(in.size(), 1);
    vshape[i] = -1;
    out.push_back(expand(reshape(in[i], vshape), shape));
  }
  if (swap) std::swap(out[0], out[1]);  // grids of shape [len(y), len(x), ...] in input order
  return out;
}

Tensor cartesian_prod(TensorList tensors) {
  EMBER_RECORD_COMPOSITE_OP("cartesian_prod", tensors);  // meshgrid + reshape + stack
  for (const Tensor& t : tensors)
    EMBER_CHECK(t.dim() == 1, "cartesian_prod: Expect a 1D vector, but got shape ", shape_str(t.sizes()));
  if (tensors.size() == 1) return tensors[0];
  std::vector<Tensor> grids = meshgrid(tensors, "ij");
  for (Tensor& g : grids) g = reshape(g, {-1});
  return stack(grids, 1);
}

// ---- Tensor methods ----------------------------------------------------------------
Tensor Tensor::flip(IntArrayRef dims) const { return ember::flip(*this, dims); }
Tensor Tensor::fliplr() const { return ember::fliplr(*this); }
Tensor Tensor::flipud() const { return ember::flipud(*this); }
Tensor Tensor::roll(IntArrayRef shifts, IntArrayRef dims) const { return ember::roll(*this, shifts, dims); }
Tensor Tensor::repeat(IntArrayRef repeats) const { return ember::repeat(*this, repeats); }
Tensor Tensor::repeat_interleave(const Tensor& r, std::optional<int64_t> dim) const {
  return ember::repeat_interleave(*this, r, dim);
}
Tensor Tensor::repeat_interleave(int64_t r, std::optional<int64_t> dim) const {
  return ember::repeat_interleave(*this, r, dim);
}
Tensor Tensor::tile(IntArrayRef dims) const { return ember::tile(*this, dims); }
Tensor Tensor::tril(int64_t d) const { return ember::tril(*this, d); }
Tensor Tensor::triu(int64_t d) const { return ember::triu(*this, d); }
Tensor& Tensor::tril_(int64_t d) const { return ember::tril_(self_ref(), d); }
Tensor& Tensor::triu_(int64_t d) const { return ember::triu_(self_ref(), d); }

}  // namespace torch
