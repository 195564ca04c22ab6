#pragma once
// The batching rules' shared pieces: how a rule peels its inputs at one vmap
// level, how it wraps a physical result, and the generic rules op families
// use (Note [vmap hooks] in ember/vmap/batched_tensor.h). Ops call these
// behind `if (batching::any_batched(...)) [[unlikely]]`; a rule calls the same op
// again on physical tensors, which either are plain or are batched at a
// lower level (peeled by the next call).
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <tuple>
#include <utility>
#include <vector>

#include "ember/core/shape.h"
#include "ember/vmap/batched_tensor.h"

namespace torch::batching {

// The level a rule peels: the highest level among its batched inputs.
int64_t top_level(std::initializer_list<const Tensor*> ts);
int64_t top_level(TensorList ts);

// `t` as the rule at `level` sees it: batched at that level, its physical
// tensor with the batch moved to dim 0; otherwise `t` itself.
struct Peeled {
  Tensor value;
  bool batched = false;
};
Peeled peel_front(const Tensor& t, int64_t level);
// The batch size at `level` (the first input batched there).
int64_t batch_size(std::initializer_list<const Tensor*> ts, int64_t level);
int64_t batch_size(TensorList ts, int64_t level);

inline Tensor wrap(Tensor physical, int64_t level, int64_t bdim = 0) {
  return make_batched(std::move(physical), bdim, level);
}

// The physical dim of logical dim `d` of a tensor of logical rank `rank`
// whose batch is at dim 0 (negative dims wrap against the logical rank;
// a 0-dim tensor takes dim 0 or -1, as ops do).
inline int64_t phys_dim(int64_t d, int64_t rank, const char* op = "") { return wrap_dim(d, rank, op) + 1; }
DimVector phys_dims(IntArrayRef dims, int64_t rank, const char* op = "");
// All logical dims, shifted: what a reduction over every dim reduces.
DimVector all_phys_dims(int64_t rank);

// {b, sizes...}: a logical shape argument with the batch in front.
inline DimVector batch_shape(int64_t b, IntArrayRef sizes) {
  DimVector r{b};
  for (int64_t s : sizes) r.push_back(s);
  return r;
}

// Refuses out= arguments inside vmap (the result's batch would have no home).
void refuse_out(const char* op);

// A physical tensor of `t` batched at `level`, with the batch at dim 0, or
// `t` expanded along a new dim 0 of size `b` when it is not batched there.
Tensor front_or_expand(const Tensor& t, int64_t level, int64_t b);

// ---- generic rules -----------------------------------------------------------

// An op that maps each element to one element of the same position (unary
// elementwise, casts, clone): `fn` runs on the physical tensor, whose batch
// dim the result keeps.
template <typename F>
Tensor elementwise(const Tensor& self, F&& fn) {
  const BatchedMeta* m = batched_meta(self);
  check_in_scope(*m);
  return make_batched(fn(m->value), m->bdim, m->level);
}

// The in-place form: `fn` updates the physical tensor; self is returned.
template <typename F>
Tensor& elementwise_(Tensor& self, F&& fn) {
  const BatchedMeta* m = batched_meta(self);
  check_in_scope(*m);
  Tensor v = m->value;
  fn(v);
  return self;
}

// An op on one tensor that takes logical dims: `fn` gets the physical tensor
// with the batch at dim 0 (callers shift dims with phys_dim) and returns a
// result whose dim 0 is the batch.
template <typename F>
Tensor on_front(const Tensor& self, F&& fn) {
  const int64_t level = batched_meta(self)->level;
  return wrap(fn(peel_front(self, level).value), level);
}

namespace detail {
// Wraps a rule's physical result(s): a Tensor, a tuple of them or a vector.
template <typename R>
R wrap_result(R r, int64_t level) {
  if constexpr (std::is_same_v<R, Tensor>) {
    return wrap(std::move(r), level);
  } else if constexpr (std::is_same_v<R, std::vector<Tensor>>) {
    for (Tensor& t : r) t = wrap(std::move(t), level);
    return r;
  } else {
    std::apply([&](auto&... t) { ((t = wrap(std::move(t), level)), ...); }, r);
    return r;
  }
}
// [B, ...] -> [B, N] (a 0-dim logical tensor: [B] -> [B, 1]).
Tensor flat_batch(const Tensor& v);
// [B] -> [B, 1, ..., 1] with `rank` ones: a full reduction's keepdim.
Tensor keep_all_dims(const Tensor& r, int64_t rank);
}  // namespace detail

// Same as on_front for ops with several results (a tuple or a vector).
template <typename F>
auto on_front_multi(const Tensor& self, F&& fn) {
  const int64_t level = batched_meta(self)->level;
  return detail::wrap_result(fn(peel_front(self, level).value), level);
}

// A reduction over logical `dims` (empty: every dim): `fn(v, pdims, keepdim)`
// reduces the physical tensor `v` (batch at 0) over the physical dims. A
// 0-dim logical tensor reduces a size-1 dim added after the batch.
template <typename F>
auto reduction(const Tensor& self, IntArrayRef dims, bool keepdim, F&& fn) {
  const int64_t level = batched_meta(self)->level;
  const Tensor v = peel_front(self, level).value;
  const int64_t rank = self.dim();
  if (rank == 0) {
    for (int64_t d : dims) wrap_dim(d, 0);
    return detail::wrap_result(fn(v.unsqueeze(1), DimVector{1}, false), level);
  }
  return detail::wrap_result(fn(v, dims.empty() ? all_phys_dims(rank) : phys_dims(dims, rank), keepdim), level);
}

// A reduction over every dim by an op that has no dim-list form (prod(),
// argmax(dim=None)): `fn(flat)` reduces dim 1 of the [B, N] flattening
// without keepdim; with keepdim the results get one size-1 dim per logical dim.
template <typename F>
auto full_reduction(const Tensor& self, bool keepdim, F&& fn) {
  const int64_t level = batched_meta(self)->level;
  auto r = fn(detail::flat_batch(peel_front(self, level).value));
  if (keepdim) {
    if constexpr (std::is_same_v<decltype(r), Tensor>)
      r = detail::keep_all_dims(r, self.dim());
    else
      std::apply([&](auto&... t) { ((t = detail::keep_all_dims(t, self.dim())), ...); }, r);
  }
  return detail::wrap_result(std::move(r), level);
}

// An op along one logical dim that keeps the shape (softmax, cumsum): `fn(v,
// pdim)` on the physical tensor; a 0-dim logical tensor is seen as [B, 1].
// along_dim for ops with several results (sort, topk, cummax): `fn` returns
// a tuple.
template <typename F>
auto along_dim_multi(const Tensor& self, int64_t dim, const char* op, F&& fn) {
  const int64_t level = batched_meta(self)->level;
  const Tensor v = peel_front(self, level).value;
  if (self.dim() == 0) {
    wrap_dim(dim, 0, op);
    auto r = fn(v.unsqueeze(1), int64_t{1});
    std::apply([](auto&... t) { ((t = t.squeeze(1)), ...); }, r);
    return detail::wrap_result(std::move(r), level);
  }
  return detail::wrap_result(fn(v, phys_dim(dim, self.dim(), op)), level);
}

template <typename F>
Tensor along_dim(const Tensor& self, int64_t dim, const char* op, F&& fn) {
  return std::get<0>(
      along_dim_multi(self, dim, op, [&](const Tensor& v, int64_t d) { return std::make_tuple(fn(v, d)); }));
}

// Broadcasting ops (binary, where, lerp, ...): `inputs` may hold nullptr for
// Scalar operands. Batched inputs get their batch at dim 0 and size-1 dims
// after it up to the highest logical rank, so the batch lines up under
// right-aligned broadcasting; unbatched inputs broadcast as they are. With
// `cast`, every tensor is first cast to it: the compute dtype the op derives
// from the logical inputs (a 0-dim logical tensor is 1-dim physically, which
// would change type promotion). `fn` gets the physical tensors in input order
// (undefined for nullptr) and returns a result whose dim 0 is the batch.
using BroadcastFn = std::function<Tensor(std::vector<Tensor>&)>;
Tensor broadcasting(std::initializer_list<const Tensor*> inputs, std::optional<ScalarType> cast, const BroadcastFn& fn);
// The in-place form: inputs[0] is self, which must be batched at the top
// level when any input is (PyTorch's rule); it is not cast.
void broadcasting_(const char* op, std::initializer_list<const Tensor*> inputs, std::optional<ScalarType> cast,
                   const BroadcastFn& fn);

// Rules of view ops whose logical arguments need more than a dim shift.
Tensor expand_batched(const Tensor& self, IntArrayRef size);
Tensor squeeze_batched(const Tensor& self);
Tensor t_batched(const Tensor& self);
std::vector<Tensor> broadcast_tensors_batched(TensorList tensors);
// as_strided with functorch's semantics: size/stride describe one sample and
// the offset is taken as if each sample's storage started where sample 0's
// does (sample k's view starts k batch strides further). Raises PyTorch's
// error when the view would reach memory outside the sample.
Tensor as_strided_batched(const Tensor& self, IntArrayRef size, IntArrayRef stride,
                          std::optional<int64_t> storage_offset);

// t.new_zeros(size) and friends on a batched t: `fn(value, {b, size...})`
// makes the physical tensor, batched like t (at dim 0).
template <typename F>
Tensor new_batched(const Tensor& t, IntArrayRef size, F&& fn) {
  const BatchedMeta* m = batched_meta(t);
  check_in_scope(*m);
  return wrap(fn(m->value, batch_shape(m->value.size(m->bdim), size)), m->level);
}

// Ops over a list whose members share a logical rank (cat, stack): every
// member gets a batch at dim 0 (unbatched ones are expanded to it).
std::vector<Tensor> fronts(TensorList ts, int64_t level);

// Multi-input rules.
Tensor matmul_batched(const Tensor& a, const Tensor& b);
Tensor multi_dot_batched(TensorList tensors);
Tensor cat_batched(TensorList tensors, int64_t dim);
Tensor stack_batched(TensorList tensors, int64_t dim);
Tensor where_batched(const Tensor& condition, const Tensor& self, const Tensor& other);
Tensor index_select_batched(const Tensor& self, int64_t dim, const Tensor& index);
Tensor gather_batched(const Tensor& self, int64_t dim, const Tensor& index);
// Scatter-style in-place writes (scatter_, scatter_add_, index_add_): self
// must be batched when index or src is.
enum class ScatterKind { Assign, Add };
Tensor& scatter_batched_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& src, ScatterKind kind);
Tensor& index_add_batched_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& source, const Scalar& alpha);
// The out-of-place forms' fresh copy of self, batched whenever any input is.
Tensor batched_clone(const Tensor& self, std::initializer_list<const Tensor*> others);

}  // namespace torch::batching

// Entry lines for ops with one tensor input (Note [vmap hooks]): `expr` is
// the same op applied to `v`, the physical tensor.
//   EMBER_VMAP_ELEMENTWISE(self, v, gelu(v, approximate));
//   EMBER_VMAP_ON_FRONT(self, v, sum(v, batching::phys_dim(dim, self.dim()), keepdim));
#define EMBER_VMAP_ELEMENTWISE(self, v, expr)            \
  if (::ember::batching::any_batched(self)) [[unlikely]] \
  return ::ember::batching::elementwise(self, [&](const ::ember::Tensor& v) { return expr; })
#define EMBER_VMAP_ELEMENTWISE_(self, v, expr)           \
  if (::ember::batching::any_batched(self)) [[unlikely]] \
  return ::ember::batching::elementwise_(self, [&](::ember::Tensor& v) { expr; })
#define EMBER_VMAP_ON_FRONT(self, v, expr)               \
  if (::ember::batching::any_batched(self)) [[unlikely]] \
  return ::ember::batching::on_front(self, [&](const ::ember::Tensor& v) { return expr; })
#define EMBER_VMAP_ON_FRONT_MULTI(self, v, expr)         \
  if (::ember::batching::any_batched(self)) [[unlikely]] \
  return ::ember::batching::on_front_multi(self, [&](const ::ember::Tensor& v) { return expr; })
#define EMBER_VMAP_REDUCTION(self, dims, keepdim, v, d, k, expr) \
  if (::ember::batching::any_batched(self)) [[unlikely]]         \
  return ::ember::batching::reduction(self, dims, keepdim,       \
                                      [&](const ::ember::Tensor& v, ::ember::IntArrayRef d, bool k) { return expr; })
#define EMBER_VMAP_FULL_REDUCTION(self, keepdim, v, expr) \
  if (::ember::batching::any_batched(self)) [[unlikely]]  \
  return ::ember::batching::full_reduction(self, keepdim, [&](const ::ember::Tensor& v) { return expr; })
#define EMBER_VMAP_ALONG_DIM(self, dim, op, v, d, expr)  \
  if (::ember::batching::any_batched(self)) [[unlikely]] \
  return ::ember::batching::along_dim(self, dim, op, [&](const ::ember::Tensor& v, int64_t d) { return expr; })
#define EMBER_VMAP_ALONG_DIM_MULTI(self, dim, op, v, d, expr) \
  if (::ember::batching::any_batched(self)) [[unlikely]]      \
  return ::ember::batching::along_dim_multi(self, dim, op, [&](const ::ember::Tensor& v, int64_t d) { return expr; })
