#pragma once
// Batching rules of the indexing and shape ops that need more than the
// generic rules of batching_rules.h: advanced indexing (index, index_put_),
// the whole-slice writes (index_copy_, index_fill_), take, the scatter
// reduce forms, roll, repeat, tril/triu and the diag family. Also the
// refusals PyTorch's vmap makes with a specific message: ops whose result
// shape depends on each sample's values (random ops: rules_random.h). Hooks: Note [vmap hooks] in
// ember/vmap/batched_tensor.h.
#include <cstdint>
#include <optional>
#include <string_view>

#include "ember/ops/index/indexing.h"
#include "ember/vmap/batching_rules.h"

namespace torch::batching {

// The op-entry question for ops that take an index list.
inline bool any_batched_index(const Tensor& self, OptionalTensorList indices) {
  if (!detail::hooks_on()) [[likely]]
    return false;
  if (is_batched(self)) return true;
  for (const std::optional<Tensor>& i : indices)
    if (i && is_batched(*i)) return true;
  return false;
}

// ---- advanced indexing ---------------------------------------------------------
// ember::index with a batched self and/or batched index tensors. Masks must
// not be batched (each sample would select its own number of elements).
Tensor index_batched(const Tensor& self, OptionalTensorList indices);
// ember::index_put_ / ops::index_put_impl: self must be batched at the top
// level when values or an index are (in-place); `op` names errors. The write
// always goes through ember::index_put_ on the physical tensors, which records
// it for autograd when they need grad (the logical tensors carry no grad state,
// so the callers' needs_grad tests cannot tell).
Tensor& index_put_batched_(Tensor& self, OptionalTensorList indices, const Tensor& values, bool accumulate,
                           const char* op);
// index_put: a fresh copy of self, batched whenever any input is.
Tensor index_put_batched(const Tensor& self, OptionalTensorList indices, const Tensor& values, bool accumulate);
// Tensor::index with a batched 0-dim integer index: each sample selects its own
// position (a per-sample select, through index_batched; a copy, not a view).
Tensor select_batched(const Tensor& self, int64_t dim, const Tensor& index);

// ---- whole-slice and element index ops ---------------------------------------------
Tensor& index_copy_batched_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& source);
// `value` is a 0-dim tensor (undefined for the Scalar form, given as `scalar`).
Tensor& index_fill_batched_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& value, const Scalar& scalar);
Tensor take_batched(const Tensor& self, const Tensor& index);
// masked_fill(_) with a batched 0-dim value tensor: a where() with the value.
Tensor masked_fill_batched_value(const Tensor& self, const Tensor& mask, const Tensor& value);
Tensor& masked_fill_batched_value_(Tensor& self, const Tensor& mask, const Tensor& value);
// scatter_(..., reduce) and scatter_reduce_: `scatter_form` true for scatter_'s
// "add"/"multiply", false for scatter_reduce_'s modes.
Tensor& scatter_reduce_batched_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                                std::string_view reduce, bool include_self, bool scatter_form);
// The out-of-place forms' fresh copy of self when the index list decides batching.
Tensor batched_clone_list(const Tensor& self, OptionalTensorList indices, const Tensor& values);

// ---- shape ops -----------------------------------------------------------------------
Tensor roll_batched(const Tensor& self, IntArrayRef shifts, IntArrayRef dims);
Tensor repeat_batched(const Tensor& self, IntArrayRef repeats);
Tensor triangle_batched(const Tensor& self, int64_t diagonal, bool lower);
Tensor& triangle_batched_(Tensor& self, int64_t diagonal, bool lower);
Tensor diag_batched(const Tensor& self, int64_t diagonal);
Tensor diag_embed_batched(const Tensor& self, int64_t offset, int64_t dim1, int64_t dim2);
// block_diag as per-sample pads and one cat.
Tensor block_diag_batched(TensorList tensors);
// ---- refusals ------------------------------------------------------------------------
// Raises PyTorch's error for an op whose result shape depends on the values.
[[noreturn]] void refuse_dynamic_shape(const char* op);

}  // namespace torch::batching
