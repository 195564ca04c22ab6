#include "ember/ops/shape/view.h"
#include "ember/core/record_scope.h"

#include "ember/autograd/copy_slices.h"
#include "ember/autograd/derivatives/shape_grad.h"
#include "ember/autograd/derivatives/shape_layout_grad.h"
#include "ember/autograd/formula_node.h"
#include "ember/autograd/forward_ad.h"

#include <algorithm>
#include <cstring>
#include <numeric>

#include "ember/core/checked_arith.h"
#include "ember/core/shape.h"
#include "ember/ops/shape/copy.h"
#include "ember/vmap/batching_rules.h"

namespace torch {

namespace {
// Records the view's backward when self requires grad (formulas in
// autograd/derivatives/shape_grad.cpp) and returns the view.
Tensor with_grad(autograd::ShapeGradOp op, const Tensor& self, Tensor out, DimVector ints = {}) {
  if (autograd::needs_grad(self)) autograd::record_shape_op(op, self, out, std::move(ints));
  autograd::set_view_base(self, out);  // after recording: Note [Views and in-place]
  return out;
}
using autograd::ShapeGradOp;

// The pieces cut(0) .. cut(n - 1) of a multi-output view, sharing one backward
// node (Note [Multi-output views] in autograd/derivatives/shape_grad.h).
template <typename Cut>
std::vector<Tensor> cut_pieces(autograd::PiecesOp op, const Tensor& self, int64_t n, DimVector ints, Cut cut) {
  std::vector<Tensor> out;
  out.reserve(static_cast<size_t>(n));
  if (!autograd::needs_grad(self)) {
    for (int64_t i = 0; i < n; ++i) out.push_back(cut(i));
    return out;
  }
  {
    autograd::BelowAutogradGuard below;
    for (int64_t i = 0; i < n; ++i) out.push_back(cut(i));
  }
  autograd::record_pieces(op, self, out, std::move(ints));
  return out;
}
}  // namespace

Tensor view(const Tensor& self, IntArrayRef size) {
  EMBER_VMAP_ON_FRONT(self, v, view(v, batching::batch_shape(v.size(0), size)));
  EMBER_RECORD_OP("view", self);
  DimVector shape = infer_size(size, self.numel(), "view");
  DimVector st;
  EMBER_CHECK(compute_view_strides(self.sizes(), self.strides(), shape, st), "view: view size ", shape_str(shape),
              " is not compatible with input tensor's size ", shape_str(self.sizes()), " and stride ",
              shape_str(self.strides()),
              " (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead.");
  return with_grad(ShapeGradOp::View, self, make_view(self, shape, st, self.storage_offset()));
}

Tensor reshape(const Tensor& self, IntArrayRef shape_in) {
  EMBER_VMAP_ON_FRONT(self, v, reshape(v, batching::batch_shape(v.size(0), shape_in)));
  EMBER_RECORD_OP("reshape", self);
  DimVector shape = infer_size(shape_in, self.numel(), "reshape");
  DimVector st;
  if (compute_view_strides(self.sizes(), self.strides(), shape, st))
    return with_grad(ShapeGradOp::View, self, make_view(self, shape, st, self.storage_offset()));
  Tensor copy = clone(self.detach());
  return with_grad(ShapeGradOp::UnsafeView, self,
                   make_view(copy, shape, contiguous_strides(shape), copy.storage_offset()));
}

Tensor flatten(const Tensor& self, int64_t start_dim, int64_t end_dim) {
  EMBER_VMAP_ON_FRONT(self, v,
                      self.dim() == 0 ? reshape(v, {v.size(0), 1})
                                      : flatten(v, batching::phys_dim(start_dim, self.dim(), "flatten"),
                                                batching::phys_dim(end_dim, self.dim(), "flatten")));
  EMBER_RECORD_OP("flatten", self);
  if (self.dim() == 0) return reshape(self, {1});
  int64_t s = wrap_dim(start_dim, self.dim(), "flatten"), e = wrap_dim(end_dim, self.dim(), "flatten");
  EMBER_CHECK(s <= e, "flatten: start_dim (", s, ") cannot come after end_dim (", e, ")");
  if (s == e) return self;
  DimVector shape;
  for (int64_t d = 0; d < s; ++d) shape.push_back(self.size(d));
  int64_t n = 1;
  for (int64_t d = s; d <= e; ++d) n *= self.size(d);
  shape.push_back(n);
  for (int64_t d = e + 1; d < self.dim(); ++d) shape.push_back(self.size(d));
  return reshape(self, shape);
}

Tensor unflatten(const Tensor& self, int64_t dim, IntArrayRef sizes) {
  EMBER_VMAP_ON_FRONT(self, v, unflatten(v, batching::phys_dim(dim, self.dim(), "unflatten"), sizes));
  EMBER_RECORD_OP("unflatten", self);
  int64_t d = wrap_dim(dim, self.dim(), "unflatten");
  EMBER_CHECK(!sizes.empty(), "unflatten: sizes must be non-empty");
  // PyTorch names the dim being split rather than the whole input's numel.
  int64_t known = 1, inferred_dims = 0;
  for (int64_t s : sizes) {
    if (s == -1)
      ++inferred_dims;
    else
      known = checked_mul(known, s, "unflatten", "product of sizes");
  }
  const bool fits =
      inferred_dims == 0 ? known == self.size(d) : inferred_dims == 1 && known != 0 && self.size(d) % known == 0;
  EMBER_CHECK(inferred_dims > 1 || fits, "unflatten: Provided sizes ", shape_str(sizes),
              " don't multiply up to the size of dim ", d, " (", self.size(d), ") in the input tensor");
  DimVector inferred = infer_size(sizes, self.size(d), "unflatten");
  DimVector shape;
  for (int64_t i = 0; i < d; ++i) shape.push_back(self.size(i));
  for (int64_t s : inferred) shape.push_back(s);
  for (int64_t i = d + 1; i < self.dim(); ++i) shape.push_back(self.size(i));
  return view(self, shape);
}

Tensor permute(const Tensor& self, IntArrayRef dims) {
  EMBER_VMAP_ON_FRONT(self, v, permute(v, batching::batch_shape(0, batching::phys_dims(dims, self.dim(), "permute"))));
  EMBER_RECORD_OP("permute", self);
  const int64_t nd = self.dim();
  EMBER_CHECK(static_cast<int64_t>(dims.size()) == nd, "permute: number of dims don't match in permute (input has ", nd,
              " dims, got ", dims.size(), ")");
  dim_mask(dims, nd, "permute");
  DimVector sz(nd), st(nd);
  for (int64_t i = 0; i < nd; ++i) {
    int64_t d = wrap_dim(dims[i], nd, "permute");
    sz[i] = self.size(d);
    st[i] = self.stride(d);
  }
  DimVector wrapped(nd);
  for (int64_t i = 0; i < nd; ++i) wrapped[i] = wrap_dim(dims[i], nd, "permute");
  return with_grad(ShapeGradOp::Permute, self, make_view(self, sz, st, self.storage_offset()), wrapped);
}

Tensor movedim(const Tensor& self, IntArrayRef source, IntArrayRef destination) {
  EMBER_VMAP_ON_FRONT(self, v,
                      movedim(v, batching::phys_dims(source, self.dim(), "movedim"),
                              batching::phys_dims(destination, self.dim(), "movedim")));
  EMBER_RECORD_OP("movedim", self);
  const int64_t nd = self.dim();
  EMBER_CHECK(source.size() == destination.size(), "movedim: Invalid source or destination dims: source (",
              shape_str(source), ") and destination (", shape_str(destination),
              ") must have the same number of elements");
  dim_mask(source, nd, "movedim");
  dim_mask(destination, nd, "movedim");
  std::vector<int64_t> order(nd, -1);
  std::vector<bool> used(nd, false);
  for (size_t i = 0; i < source.size(); ++i) {
    int64_t s = wrap_dim(source[i], nd, "movedim"), d = wrap_dim(destination[i], nd, "movedim");
    order[d] = s;
    used[s] = true;
  }
  int64_t next = 0;
  for (int64_t d = 0; d < nd; ++d) {
    if (order[d] != -1) continue;
    while (used[next]) ++next;
    order[d] = next++;
  }
  return permute(self, order);
}
Tensor movedim(const Tensor& self, int64_t source, int64_t destination) {
  return movedim(self, IntArrayRef(source), IntArrayRef(destination));
}

Tensor transpose(const Tensor& self, int64_t dim0, int64_t dim1) {
  EMBER_VMAP_ON_FRONT(self, v,
                      self.dim() == 0 ? v
                                      : transpose(v, batching::phys_dim(dim0, self.dim(), "transpose"),
                                                  batching::phys_dim(dim1, self.dim(), "transpose")));
  EMBER_RECORD_OP("transpose", self);
  const int64_t nd = self.dim();
  if (nd == 0) {
    wrap_dim(dim0, nd, "transpose");
    wrap_dim(dim1, nd, "transpose");
    return make_view(self, {}, {}, self.storage_offset());
  }
  int64_t a = wrap_dim(dim0, nd, "transpose"), b = wrap_dim(dim1, nd, "transpose");
  DimVector sz(self.sizes()), st(self.strides());
  std::swap(sz[a], sz[b]);
  std::swap(st[a], st[b]);
  return with_grad(ShapeGradOp::Transpose, self, make_view(self, sz, st, self.storage_offset()), {a, b});
}

Tensor t(const Tensor& self) {
  if (batching::any_batched(self)) [[unlikely]]
    return batching::t_batched(self);
  EMBER_RECORD_OP("t", self);
  EMBER_CHECK(self.dim() <= 2, "t: expects a tensor with <= 2 dimensions, but self is ", self.dim(), "D");
  return self.dim() < 2 ? make_view(self, self.sizes(), self.strides(), self.storage_offset()) : transpose(self, 0, 1);
}

Tensor expand(const Tensor& self, IntArrayRef size) {
  if (batching::any_batched(self)) [[unlikely]]
    return batching::expand_batched(self, size);
  EMBER_RECORD_OP("expand", self);
  const int64_t nd = static_cast<int64_t>(size.size());
  EMBER_CHECK(nd >= self.dim(), "expand: the number of sizes provided (", nd,
              ") must be greater or equal to the number of dimensions in the tensor (", self.dim(), ")");
  DimVector sz(nd), st(nd);
  for (int64_t i = nd - 1; i >= 0; --i) {
    int64_t off = nd - 1 - i;
    int64_t d = self.dim() - 1 - off;
    int64_t cur_size = d >= 0 ? self.size(d) : 1;
    int64_t cur_stride = d >= 0 ? self.stride(d) : 0;
    int64_t target = size[i];
    if (target == -1) {
      EMBER_CHECK(d >= 0, "expand: -1 is not allowed in a leading, non-existing dimension ", i);
      target = cur_size;
    }
    EMBER_CHECK(target >= 0, "expand: invalid size ", target, " in ", shape_str(size));
    if (cur_size == target) {
      st[i] = d >= 0 ? cur_stride : 0;
    } else {
      EMBER_CHECK(cur_size == 1, "expand: the expanded size of the tensor (", target,
                  ") must match the existing size (", cur_size, ") at non-singleton dimension ", i,
                  ".  Target sizes: ", shape_str(size), ".  Tensor sizes: ", shape_str(self.sizes()));
      st[i] = 0;
    }
    sz[i] = target;
  }
  checked_numel(sz, "expand");  // a view of 2^62 x 4 elements would wrap numel() to 0
  return with_grad(ShapeGradOp::Expand, self, make_view(self, sz, st, self.storage_offset()));
}

Tensor squeeze(const Tensor& self) {
  if (batching::any_batched(self)) [[unlikely]]
    return batching::squeeze_batched(self);
  EMBER_RECORD_OP("squeeze", self);
  DimVector sz, st;
  for (int64_t d = 0; d < self.dim(); ++d)
    if (self.size(d) != 1) {
      sz.push_back(self.size(d));
      st.push_back(self.stride(d));
    }
  return with_grad(ShapeGradOp::Squeeze, self, make_view(self, sz, st, self.storage_offset()));
}

Tensor squeeze(const Tensor& self, int64_t dim) {
  EMBER_VMAP_ON_FRONT(self, v, self.dim() == 0 ? v : squeeze(v, batching::phys_dim(dim, self.dim(), "squeeze")));
  EMBER_RECORD_OP("squeeze", self);
  if (self.dim() == 0) {
    wrap_dim(dim, 0, "squeeze");
    return make_view(self, {}, {}, self.storage_offset());
  }
  int64_t d = wrap_dim(dim, self.dim(), "squeeze");
  if (self.size(d) != 1) return make_view(self, self.sizes(), self.strides(), self.storage_offset());
  DimVector sz(self.sizes()), st(self.strides());
  sz.erase(d);
  st.erase(d);
  return with_grad(ShapeGradOp::SqueezeDim, self, make_view(self, sz, st, self.storage_offset()));
}

Tensor unsqueeze(const Tensor& self, int64_t dim) {
  EMBER_VMAP_ON_FRONT(self, v, unsqueeze(v, batching::phys_dim(dim, self.dim() + 1, "unsqueeze")));
  EMBER_RECORD_OP("unsqueeze", self);
  int64_t d = wrap_dim(dim, self.dim() + 1, "unsqueeze");
  DimVector sz(self.sizes()), st(self.strides());
  int64_t new_stride = d >= self.dim() ? 1 : self.size(d) * self.stride(d);
  sz.insert(d, 1);
  st.insert(d, new_stride);
  return with_grad(ShapeGradOp::Unsqueeze, self, make_view(self, sz, st, self.storage_offset()), {d});
}

Tensor narrow(const Tensor& self, int64_t dim, int64_t start, int64_t length) {
  EMBER_VMAP_ON_FRONT(self, v, narrow(v, batching::phys_dim(dim, self.dim(), "narrow"), start, length));
  EMBER_RECORD_OP("narrow", self);
  EMBER_CHECK(self.dim() > 0, "narrow: cannot be applied to a 0-dim tensor.");
  int64_t d = wrap_dim(dim, self.dim(), "narrow");
  int64_t cur = self.size(d);
  EMBER_CHECK(length >= 0, "narrow: length must be non-negative, got ", length);
  EMBER_CHECK(start >= -cur && start <= cur, "narrow: start (", start, ") out of range for dimension ", d, " of size ",
              cur);
  if (start < 0) start += cur;
  EMBER_CHECK(length >= 0 && start <= cur - length, "narrow: start (", start, ") + length (", length,
              ") exceeds dimension size (", cur, ").");
  return slice(self, d, start, start + length, 1);
}

Tensor select(const Tensor& self, int64_t dim, int64_t index) {
  EMBER_VMAP_ON_FRONT(self, v, select(v, batching::phys_dim(dim, self.dim(), "select"), index));
  EMBER_RECORD_OP("select", self);
  EMBER_CHECK(self.dim() > 0, "select: cannot be applied to a 0-dim tensor.");
  int64_t d = wrap_dim(dim, self.dim(), "select");
  int64_t size = self.size(d);
  EMBER_CHECK(index >= -size && index < size, "select: index ", index, " out of range for tensor of size ",
              shape_str(self.sizes()), " at dimension ", d);
  if (index < 0) index += size;
  DimVector sz(self.sizes()), st(self.strides());
  int64_t offset = self.storage_offset() + index * st[d];
  sz.erase(d);
  st.erase(d);
  return with_grad(ShapeGradOp::Select, self, make_view(self, sz, st, offset), {d, index});
}

Tensor slice(const Tensor& self, int64_t dim, std::optional<int64_t> start_opt, std::optional<int64_t> end_opt,
             int64_t step) {
  EMBER_VMAP_ON_FRONT(self, v, slice(v, batching::phys_dim(dim, self.dim(), "slice"), start_opt, end_opt, step));
  EMBER_RECORD_OP("slice", self);
  EMBER_CHECK(self.dim() > 0, "slice: cannot be applied to a 0-dim tensor.");
  EMBER_CHECK(step > 0, "slice: step must be positive, got ", step);
  int64_t d = wrap_dim(dim, self.dim(), "slice");
  int64_t size = self.size(d);
  int64_t start = start_opt.value_or(0), end = end_opt.value_or(size);
  // Python slice clamping.
  if (start < 0) start += size;
  if (end < 0) end += size;
  start = std::clamp<int64_t>(start, 0, size);
  end = std::clamp<int64_t>(end, start, size);
  DimVector sz(self.sizes()), st(self.strides());
  int64_t offset = self.storage_offset() + start * st[d];
  sz[d] = end == start ? 0 : (end - start - 1) / step + 1;  // no overflow for huge steps
  st[d] *= step;
  return with_grad(ShapeGradOp::Slice, self, make_view(self, sz, st, offset), {d, start, end, step});
}

Tensor unfold(const Tensor& self, int64_t dim, int64_t size, int64_t step) {
  EMBER_VMAP_ON_FRONT(self, v, unfold(v, batching::phys_dim(dim, self.dim(), "unfold"), size, step));
  EMBER_RECORD_OP("unfold", self);
  int64_t d = self.dim() == 0 ? 0 : wrap_dim(dim, self.dim(), "unfold");
  int64_t cur = self.dim() == 0 ? 1 : self.size(d);
  EMBER_CHECK(size <= cur, "unfold: maximum size for tensor at dimension ", d, " is ", cur, " but size is ", size);
  EMBER_CHECK(step > 0, "unfold: step is ", step, " but must be > 0");
  EMBER_CHECK(size >= 0, "unfold: size is ", size, " but must be >= 0");
  DimVector sz(self.sizes()), st(self.strides());
  if (self.dim() == 0) {
    sz = {size};
    st = {1};
    Tensor out = make_view(self, sz, st, self.storage_offset());
    if (autograd::needs_grad(self)) autograd::record_unfold(self, out, 0, size, step);
    autograd::set_view_base(self, out);
    return out;
  }
  int64_t cur_stride = st[d];
  sz[d] = (cur - size) / step + 1;
  // A single window never moves, so when stride * step does not fit (a step
  // of INT64_MAX) its stride is the dimension's own: any value is valid there.
  if (__builtin_mul_overflow(cur_stride, step, &st[d])) {
    EMBER_CHECK(sz[d] == 1, "unfold: stride ", cur_stride, " * step ", step, " overflows");
    st[d] = cur_stride;
  }
  sz.push_back(size);
  st.push_back(cur_stride);
  Tensor out = make_view(self, sz, st, self.storage_offset());
  if (autograd::needs_grad(self)) autograd::record_unfold(self, out, d, size, step);
  autograd::set_view_base(self, out);
  return out;
}

Tensor as_strided(const Tensor& self, IntArrayRef size, IntArrayRef stride, std::optional<int64_t> storage_offset) {
  if (batching::any_batched(self)) [[unlikely]]
    return batching::as_strided_batched(self, size, stride, storage_offset);
  EMBER_RECORD_OP("as_strided", self);
  EMBER_CHECK(size.size() == stride.size(), "as_strided: mismatch in length of strides and shape (", shape_str(size),
              " vs ", shape_str(stride), ")");
  int64_t off = storage_offset.value_or(self.storage_offset());
  EMBER_CHECK(off >= 0, "as_strided: Tensor: invalid storage offset ", off);
  const int64_t extent = checked_extent(size, stride, "as_strided");
  const int64_t storage_elems = static_cast<int64_t>(self.impl()->storage()->nbytes() / self.itemsize());
  EMBER_CHECK(extent == 0 || (off <= storage_elems && extent <= storage_elems - off), "as_strided: setStorage: sizes ",
              shape_str(size), ", strides ", shape_str(stride), ", storage offset ", off, " require a storage of ",
              extent, " elements past the offset, but the storage has only ", storage_elems);
  Tensor out = make_view(self, size, stride, off);
  if (autograd::needs_grad(self)) autograd::record_as_strided(self, out);
  autograd::set_view_base(self, out);
  return out;
}

Tensor diagonal(const Tensor& self, int64_t offset, int64_t dim1, int64_t dim2) {
  EMBER_VMAP_ON_FRONT(self, v,
                      diagonal(v, offset, batching::phys_dim(dim1, self.dim(), "diagonal"),
                               batching::phys_dim(dim2, self.dim(), "diagonal")));
  EMBER_RECORD_OP("diagonal", self);
  const int64_t nd = self.dim();
  EMBER_CHECK(nd >= 2, "diagonal: expected a tensor with at least 2 dimensions, got ", nd);
  int64_t a = wrap_dim(dim1, nd, "diagonal"), b = wrap_dim(dim2, nd, "diagonal");
  EMBER_CHECK(a != b, "diagonal: dimensions cannot be identical ", dim1, ", ", dim2);
  int64_t len, off = self.storage_offset();
  if (offset >= 0) {
    len = std::max<int64_t>(std::min(self.size(a), self.size(b) - offset), 0);
    if (len > 0) off += offset * self.stride(b);
  } else {
    len = std::max<int64_t>(std::min(self.size(a) + offset, self.size(b)), 0);
    if (len > 0) off -= offset * self.stride(a);
  }
  DimVector sz, st;
  for (int64_t d = 0; d < nd; ++d)
    if (d != a && d != b) {
      sz.push_back(self.size(d));
      st.push_back(self.stride(d));
    }
  sz.push_back(len);
  st.push_back(self.stride(a) + self.stride(b));
  Tensor out = make_view(self, sz, st, off);
  if (autograd::needs_grad(self)) autograd::record_diagonal(self, out, offset, a, b);
  autograd::set_view_base(self, out);
  return out;
}

std::vector<Tensor> split(const Tensor& self, int64_t split_size, int64_t dim) {
  EMBER_VMAP_ON_FRONT_MULTI(self, v, split(v, split_size, batching::phys_dim(dim, self.dim(), "split")));
  EMBER_RECORD_OP("split", self);
  EMBER_CHECK(self.dim() > 0, "split: expects at least a 1-dimensional tensor");
  int64_t d = wrap_dim(dim, self.dim(), "split");
  int64_t size = self.size(d);
  EMBER_CHECK(split_size >= 0, "split: split_size expects a non-negative integer, got ", split_size);
  EMBER_CHECK(split_size > 0 || size == 0,
              "split: split_size can only be 0 if dimension size is 0, but got dimension size of ", size);
  int64_t n = split_size == 0 || size == 0 ? 1 : (size - 1) / split_size + 1;  // no overflow for huge sizes
  DimVector ints{d};
  for (int64_t i = 0; i < n; ++i) ints.push_back(std::min(split_size, size - i * split_size));
  return cut_pieces(autograd::PiecesOp::Split, self, n, ints,
                    [&](int64_t i) { return narrow(self, d, i * split_size, ints[i + 1]); });
}

std::vector<Tensor> split_with_sizes(const Tensor& self, IntArrayRef split_sizes, int64_t dim) {
  EMBER_VMAP_ON_FRONT_MULTI(self, v,
                            split_with_sizes(v, split_sizes, batching::phys_dim(dim, self.dim(), "split_with_sizes")));
  EMBER_RECORD_OP("split_with_sizes", self);
  EMBER_CHECK(self.dim() > 0, "split_with_sizes: expects at least a 1-dimensional tensor");
  int64_t d = wrap_dim(dim, self.dim(), "split_with_sizes");
  int64_t total = 0;
  for (int64_t s : split_sizes) {
    EMBER_CHECK(s >= 0, "split_with_sizes: expects split_sizes have only non-negative entries, but got split_sizes=",
                shape_str(split_sizes));
    total += s;
  }
  EMBER_CHECK(total == self.size(d), "split_with_sizes: expects split_sizes to sum exactly to ", self.size(d),
              " (input tensor's size at dimension ", d, "), but got split_sizes=", shape_str(split_sizes));
  DimVector ints{d};
  for (int64_t s : split_sizes) ints.push_back(s);
  int64_t start = 0;
  return cut_pieces(autograd::PiecesOp::SplitWithSizes, self, static_cast<int64_t>(split_sizes.size()), ints,
                    [&](int64_t i) {
                      Tensor piece = narrow(self, d, start, split_sizes[i]);
                      start += split_sizes[i];
                      return piece;
                    });
}
std::vector<Tensor> split(const Tensor& self, IntArrayRef sizes, int64_t dim) {
  return split_with_sizes(self, sizes, dim);
}

std::vector<Tensor> chunk(const Tensor& self, int64_t chunks, int64_t dim) {
  EMBER_VMAP_ON_FRONT_MULTI(self, v, chunk(v, chunks, batching::phys_dim(dim, self.dim(), "chunk")));
  EMBER_RECORD_OP("chunk", self);
  EMBER_CHECK(self.dim() > 0, "chunk: expects at least a 1-dimensional tensor");
  EMBER_CHECK(chunks > 0, "chunk: expects `chunks` to be greater than 0, got: ", chunks);
  int64_t d = wrap_dim(dim, self.dim(), "chunk");
  int64_t size = self.size(d);
  int64_t split_size = size == 0 ? 0 : (size - 1) / chunks + 1;
  if (split_size == 0 && size == 0) {
    std::vector<int64_t> sizes(chunks, 0);
    return split_with_sizes(self, sizes, d);
  }
  return split(self, split_size, d);
}

std::vector<Tensor> tensor_split(const Tensor& self, int64_t sections, int64_t dim) {
  EMBER_VMAP_ON_FRONT_MULTI(self, v, tensor_split(v, sections, batching::phys_dim(dim, self.dim(), "tensor_split")));
  EMBER_RECORD_OP("tensor_split", self);
  EMBER_CHECK(self.dim() > 0, "tensor_split: expected at least a 1-dimensional tensor");
  EMBER_CHECK(sections > 0, "tensor_split: number of sections must be larger than 0, got ", sections);
  int64_t d = wrap_dim(dim, self.dim(), "tensor_split");
  int64_t size = self.size(d);
  int64_t base = size / sections, extra = size % sections;
  std::vector<Tensor> out;
  // One tensor per section, empty ones included (as PyTorch): a count that no
  // vector can hold fails here, before a loop of that many steps.
  try {
    out.reserve(static_cast<size_t>(sections));
  } catch (const std::exception&) {  // std::length_error, std::bad_alloc
    EMBER_ERROR("tensor_split: cannot return ", sections, " sections (too many tensors to allocate)");
  }
  int64_t start = 0;
  for (int64_t i = 0; i < sections; ++i) {
    int64_t len = base + (i < extra ? 1 : 0);
    out.push_back(slice(self, d, start, start + len));
    start += len;
  }
  return out;
}

// Pieces between consecutive split points `indices` (Python slices
// self[a:b] along dim: each point is clamped to the dim, and a point before the
// previous one gives an empty piece; the next piece starts at the point itself).
std::vector<Tensor> tensor_split(const Tensor& self, IntArrayRef indices, int64_t dim) {
  EMBER_VMAP_ON_FRONT_MULTI(self, v, tensor_split(v, indices, batching::phys_dim(dim, self.dim(), "tensor_split")));
  EMBER_RECORD_OP("tensor_split", self);
  EMBER_CHECK(self.dim() > 0, "tensor_split: expected at least a 1-dimensional tensor");
  const int64_t d = wrap_dim(dim, self.dim(), "tensor_split");
  const int64_t size = self.size(d);
  auto point = [&](size_t i) {
    if (i == indices.size()) return size;
    return std::clamp(indices[i] < 0 ? indices[i] + size : indices[i], int64_t{0}, size);
  };
  std::vector<Tensor> out;
  for (size_t i = 0; i <= indices.size(); ++i) {
    const int64_t start = i == 0 ? 0 : point(i - 1), end = point(i);
    out.push_back(slice(self, d, start, std::max(start, end)));
  }
  return out;
}

namespace {
// hsplit/vsplit/dsplit: tensor_split along dim 1 (dim 0 for 1-D hsplit), 0 and
// 2, where a section count must divide the dim evenly (NumPy's rule).
int64_t numpy_split_dim(const char* op, const Tensor& self, int64_t dim, int64_t min_dims) {
  EMBER_CHECK(self.dim() >= min_dims, "torch.", op, " requires a tensor with at least ", min_dims,
              " dimension, but got a tensor with ", self.dim(), " dimensions!");
  return op[0] == 'h' && self.dim() == 1 ? 0 : dim;
}
std::vector<Tensor> numpy_split(const char* op, const Tensor& self, int64_t sections, int64_t dim, int64_t min_dims) {
  const int64_t d = numpy_split_dim(op, self, dim, min_dims);
  EMBER_CHECK(sections != 0 && self.size(d) % sections == 0, "torch.", op, " attempted to split along dimension ", d,
              ", but the size of the dimension ", self.size(d), " is not divisible by the split_size ", sections, "!");
  return tensor_split(self, sections, d);
}
}  // namespace

std::vector<Tensor> hsplit(const Tensor& self, int64_t sections) { return numpy_split("hsplit", self, sections, 1, 1); }
std::vector<Tensor> vsplit(const Tensor& self, int64_t sections) { return numpy_split("vsplit", self, sections, 0, 2); }
std::vector<Tensor> dsplit(const Tensor& self, int64_t sections) { return numpy_split("dsplit", self, sections, 2, 3); }
std::vector<Tensor> hsplit(const Tensor& self, IntArrayRef indices) {
  return tensor_split(self, indices, numpy_split_dim("hsplit", self, 1, 1));
}
std::vector<Tensor> vsplit(const Tensor& self, IntArrayRef indices) {
  return tensor_split(self, indices, numpy_split_dim("vsplit", self, 0, 2));
}
std::vector<Tensor> dsplit(const Tensor& self, IntArrayRef indices) {
  return tensor_split(self, indices, numpy_split_dim("dsplit", self, 2, 3));
}

std::vector<Tensor> unbind(const Tensor& self, int64_t dim) {
  EMBER_VMAP_ON_FRONT_MULTI(self, v, unbind(v, batching::phys_dim(dim, self.dim(), "unbind")));
  EMBER_RECORD_OP("unbind", self);
  EMBER_CHECK(self.dim() > 0, "unbind: dimension specified as 0 but tensor has no dimensions");
  int64_t d = wrap_dim(dim, self.dim(), "unbind");
  return cut_pieces(autograd::PiecesOp::Unbind, self, self.size(d), {d}, [&](int64_t i) { return select(self, d, i); });
}

std::vector<int64_t> broadcast_shapes(ArrayRef<std::vector<int64_t>> shapes) {
  DimVector out;
  for (const auto& s : shapes) out = ember::broadcast_shapes(out, s, "broadcast_shapes");
  return out.vec();
}

std::vector<Tensor> broadcast_tensors(TensorList tensors) {
  if (batching::any_batched(tensors)) [[unlikely]]
    return batching::broadcast_tensors_batched(tensors);
  EMBER_RECORD_OP("broadcast_tensors", tensors);
  DimVector shape;
  for (const Tensor& t : tensors) shape = ember::broadcast_shapes(shape, t.sizes(), "broadcast_tensors");
  std::vector<Tensor> out;
  for (const Tensor& t : tensors) out.push_back(expand(t, shape));
  return out;
}

// ---- Tensor methods ----------------------------------------------------------
Tensor Tensor::view(IntArrayRef size) const { return ember::view(*this, size); }
// The same bytes read as another dtype. With a different element size the last
// dim (which must be contiguous) grows or shrinks by the ratio, as at::view(dtype).
Tensor Tensor::view(ScalarType dt) const {
  const int64_t from = element_size(), to = ember::element_size(dt);
  if (from == to) {
    Tensor v = make_view(*this, sizes(), strides(), storage_offset());
    v.unsafeGetTensorImpl()->set_dtype(dt);
    return v;
  }
  EMBER_CHECK(dim() > 0, "view: self.dim() cannot be 0 to view ", dtype(), " as ", dt, " (different element sizes)");
  EMBER_CHECK(stride(-1) == 1, "view: self.stride(-1) must be 1 to view ", dtype(), " as ", dt,
              " (different element sizes), but got ", stride(-1));
  DimVector size(sizes()), stride_v(strides());
  int64_t offset = storage_offset();
  const int64_t last = dim() - 1;
  if (from > to) {  // each element becomes `ratio` smaller ones
    const int64_t ratio = from / to;
    for (int64_t d = 0; d < last; ++d) stride_v[d] *= ratio;
    size[last] *= ratio;
    offset *= ratio;
  } else {  // `ratio` elements become one larger one
    const int64_t ratio = to / from;
    EMBER_CHECK(size[last] % ratio == 0, "view: self.size(-1) must be divisible by ", ratio, " to view ", dtype(),
                " as ", dt, " (different element sizes), but got ", size[last]);
    EMBER_CHECK(offset % ratio == 0, "view: self.storage_offset() must be divisible by ", ratio, " to view ", dtype(),
                " as ", dt, " (different element sizes), but got ", offset);
    for (int64_t d = 0; d < last; ++d)
      EMBER_CHECK(stride_v[d] % ratio == 0, "view: self.stride(", d, ") must be divisible by ", ratio, " to view ",
                  dtype(), " as ", dt, " (different element sizes), but got ", stride_v[d]);
    for (int64_t d = 0; d < last; ++d) stride_v[d] /= ratio;
    size[last] /= ratio;
    offset /= ratio;
  }
  Tensor v(make_intrusive<TensorImpl>(impl()->storage(), dt, size, stride_v, offset));
  return v;
}
Tensor Tensor::view_as(const Tensor& o) const { return ember::view(*this, o.sizes()); }
Tensor Tensor::reshape(IntArrayRef s) const { return ember::reshape(*this, s); }
Tensor Tensor::reshape_as(const Tensor& o) const { return ember::reshape(*this, o.sizes()); }
Tensor Tensor::flatten(int64_t s, int64_t e) const { return ember::flatten(*this, s, e); }
Tensor Tensor::unflatten(int64_t d, IntArrayRef s) const { return ember::unflatten(*this, d, s); }
Tensor Tensor::permute(IntArrayRef d) const { return ember::permute(*this, d); }
Tensor Tensor::movedim(IntArrayRef s, IntArrayRef d) const { return ember::movedim(*this, s, d); }
Tensor Tensor::transpose(int64_t a, int64_t b) const { return ember::transpose(*this, a, b); }
Tensor Tensor::t() const { return ember::t(*this); }
Tensor Tensor::mT() const {
  EMBER_CHECK(dim() >= 2, "mT: tensor.mT is only supported on matrices or batches of matrices. Got ", dim(),
              "-D tensor.");
  return ember::transpose(*this, -2, -1);
}
Tensor Tensor::mH() const {
  EMBER_CHECK(dim() >= 2, "mH: tensor.mH is only supported on matrices or batches of matrices. Got ", dim(),
              "-D tensor.");
  return ember::transpose(*this, -2, -1).conj();
}
Tensor Tensor::adjoint() const {
  EMBER_CHECK(dim() >= 2, "adjoint: tensor.adjoint() is only supported on matrices or batches of matrices. Got ", dim(),
              "-D tensor.");
  return mH();
}
Tensor Tensor::H() const {
  EMBER_CHECK(dim() == 2 || dim() == 0, "H: tensor.H is only supported on matrices (2-D tensors). Got ", dim(),
              "-D tensor.");
  return dim() == 0 ? *this : ember::t(*this).conj();
}
Tensor Tensor::expand(IntArrayRef s, bool) const { return ember::expand(*this, s); }
Tensor Tensor::expand_as(const Tensor& o) const { return ember::expand(*this, o.sizes()); }
Tensor Tensor::squeeze() const { return ember::squeeze(*this); }
Tensor Tensor::squeeze(int64_t d) const { return ember::squeeze(*this, d); }
Tensor Tensor::unsqueeze(int64_t d) const { return ember::unsqueeze(*this, d); }
Tensor Tensor::narrow(int64_t d, int64_t s, int64_t l) const { return ember::narrow(*this, d, s, l); }
Tensor Tensor::select(int64_t d, int64_t i) const { return ember::select(*this, d, i); }
Tensor Tensor::slice(int64_t d, std::optional<int64_t> s, std::optional<int64_t> e, int64_t st) const {
  return ember::slice(*this, d, s, e, st);
}
Tensor Tensor::unfold(int64_t d, int64_t s, int64_t st) const { return ember::unfold(*this, d, s, st); }
Tensor Tensor::as_strided(IntArrayRef s, IntArrayRef st, std::optional<int64_t> o) const {
  return ember::as_strided(*this, s, st, o);
}
Tensor Tensor::diagonal(int64_t o, int64_t a, int64_t b) const { return ember::diagonal(*this, o, a, b); }
std::vector<Tensor> Tensor::split(int64_t s, int64_t d) const { return ember::split(*this, s, d); }
std::vector<Tensor> Tensor::split(IntArrayRef s, int64_t d) const { return ember::split_with_sizes(*this, s, d); }
std::vector<Tensor> Tensor::split_with_sizes(IntArrayRef s, int64_t d) const {
  return ember::split_with_sizes(*this, s, d);
}
std::vector<Tensor> Tensor::chunk(int64_t c, int64_t d) const { return ember::chunk(*this, c, d); }
std::vector<Tensor> Tensor::unbind(int64_t d) const { return ember::unbind(*this, d); }
std::vector<Tensor> Tensor::tensor_split(int64_t sections, int64_t dim) const {
  return ember::tensor_split(*this, sections, dim);
}
std::vector<Tensor> Tensor::tensor_split(IntArrayRef indices, int64_t dim) const {
  return ember::tensor_split(*this, indices, dim);
}
std::vector<Tensor> Tensor::hsplit(int64_t sections) const { return ember::hsplit(*this, sections); }
std::vector<Tensor> Tensor::hsplit(IntArrayRef indices) const { return ember::hsplit(*this, indices); }
std::vector<Tensor> Tensor::vsplit(int64_t sections) const { return ember::vsplit(*this, sections); }
std::vector<Tensor> Tensor::vsplit(IntArrayRef indices) const { return ember::vsplit(*this, indices); }
std::vector<Tensor> Tensor::dsplit(int64_t sections) const { return ember::dsplit(*this, sections); }
std::vector<Tensor> Tensor::dsplit(IntArrayRef indices) const { return ember::dsplit(*this, indices); }

namespace {
Tensor& set_geometry_from(Tensor& self, const Tensor& v) {
  self.unsafeGetTensorImpl()->set_geometry(v.sizes(), v.strides(), v.storage_offset());
  return self;
}
}  // namespace
Tensor& Tensor::squeeze_() const { return set_geometry_from(self_ref(), ember::squeeze(self_ref())); }
Tensor& Tensor::squeeze_(int64_t d) const { return set_geometry_from(self_ref(), ember::squeeze(self_ref(), d)); }
Tensor& Tensor::unsqueeze_(int64_t d) const { return set_geometry_from(self_ref(), ember::unsqueeze(self_ref(), d)); }
Tensor& Tensor::transpose_(int64_t a, int64_t b) const {
  return set_geometry_from(self_ref(), ember::transpose(self_ref(), a, b));
}
Tensor& Tensor::t_() const { return set_geometry_from(self_ref(), ember::t(self_ref())); }
Tensor& Tensor::as_strided_(IntArrayRef s, IntArrayRef st, std::optional<int64_t> o) const {
  return set_geometry_from(self_ref(), ember::as_strided(self_ref(), s, st, o));
}
Tensor& Tensor::resize_(IntArrayRef size) const {
  int64_t n = checked_numel(size, "resize_");
  size_t need;
  EMBER_CHECK(!__builtin_add_overflow(n, storage_offset(), &n) &&
                  !__builtin_mul_overflow(static_cast<size_t>(n), itemsize(), &need),
              "resize_: size ", shape_str(size), " overflows the address space");
  if (need > impl()->storage()->nbytes()) {
    // Grow: new storage with the old contents copied over (row-major prefix).
    Storage s = StorageImpl::allocate(need);
    Tensor old = contiguous();
    std::memcpy(static_cast<char*>(s->data()) + storage_offset() * itemsize(), old.data_ptr(),
                std::min(old.nbytes(), need - storage_offset() * itemsize()));
    unsafeGetTensorImpl()->set_storage(std::move(s));
  }
  unsafeGetTensorImpl()->set_geometry(size, contiguous_strides(size), storage_offset());
  return self_ref();
}

Tensor Tensor::operator[](int64_t index) const { return ember::select(*this, 0, index); }

}  // namespace torch
