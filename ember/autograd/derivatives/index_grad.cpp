#include "ember/autograd/derivatives/index_grad.h"

#include "ember/autograd/formula_node.h"
#include "ember/autograd/forward_ad.h"
#include "ember/autograd/grad_mode.h"
#include "ember/autograd/node.h"
#include "ember/core/dispatch.h"
#include "ember/core/error.h"
#include "ember/core/parallel.h"
#include "ember/core/shape.h"
#include "ember/core/tensor.h"
#include "ember/ops/all_ops.h"
#include "ember/vmap/vmap.h"

namespace torch::autograd {

namespace {

variable_list masked_fill_backward(const FormulaNode& n, const variable_list& g) {
  return {g[0].masked_fill(n.saved(0), 0), Tensor()};
}
variable_list index_select_backward(const FormulaNode& n, const variable_list& g) {
  Tensor r = g[0].new_zeros(n.shapes[0]);
  return {r.index_add(n.ints[0], n.saved(0), g[0]), Tensor()};
}
variable_list gather_backward(const FormulaNode& n, const variable_list& g) {
  Tensor r = g[0].new_zeros(n.shapes[0]);
  return {r.scatter_add(n.ints[0], n.saved(0), g[0]), Tensor()};
}
// Saved: 0 cond.
variable_list where_backward(const FormulaNode& n, const variable_list& g) {
  const Tensor cond = n.saved(0);
  const Tensor zero = zeros({}, g[0].options());
  return {Tensor(), n.needs_input_grad(1) ? where(cond, g[0], zero) : Tensor(),
          n.needs_input_grad(2) ? where(cond, zero, g[0]) : Tensor()};
}

// Index lists are saved tensor by tensor from `first`; ints[k] says whether
// entry k was present (the list's length is ints.size() - skip).
void save_indices(FormulaNode& n, OptionalTensors indices) {
  for (const auto& i : indices) {
    const bool present = i.has_value() && i->defined();
    n.ints.push_back(present ? 1 : 0);
    if (present) n.save(*i);
  }
}
std::vector<std::optional<Tensor>> load_indices(const FormulaNode& n, size_t first_saved, size_t first_int) {
  std::vector<std::optional<Tensor>> out;
  size_t s = first_saved;
  for (size_t k = first_int; k < n.ints.size(); ++k) {
    if (n.ints[k])
      out.emplace_back(n.saved(s++));
    else
      out.emplace_back(std::nullopt);
  }
  return out;
}

// Saved: the indices; shapes[0] self's sizes; ints: presence flags.
variable_list index_backward(const FormulaNode& n, const variable_list& g) {
  auto indices = load_indices(n, 0, 0);
  return {index_put(g[0].new_zeros(n.shapes[0]), indices, g[0], /*accumulate=*/true)};
}

// Saved: the indices; shapes[0] values' sizes; ints: accumulate, presence flags.
variable_list index_put_backward(const FormulaNode& n, const variable_list& g) {
  auto indices = load_indices(n, 0, 1);
  Tensor gs, gv;
  if (n.needs_input_grad(0))
    gs = n.ints[0] ? g[0] : index_put(g[0], indices, zeros({}, g[0].options()), /*accumulate=*/false);
  if (n.needs_input_grad(1)) gv = sum_to_size(index(g[0], indices), n.shapes[0]);
  return {gs, gv};
}

// Saved: 0 index; ints: dim. Inputs: self, index, src (absent for the value form).
variable_list scatter_backward(const FormulaNode& n, const variable_list& g) {
  const int64_t dim = n.ints[0];
  const Tensor index = n.saved(0);
  return {n.needs_input_grad(0) ? g[0].scatter(dim, index, Scalar(0)) : Tensor(), Tensor(),
          n.needs_input_grad(2) ? g[0].gather(dim, index) : Tensor()};
}
variable_list scatter_add_backward(const FormulaNode& n, const variable_list& g) {
  return {g[0], Tensor(), n.needs_input_grad(2) ? g[0].gather(n.ints[0], n.saved(0)) : Tensor()};
}

// Saved: 0 index; ints: dim, include_self, is_mean. As PyTorch: mean divides
// by the number of values that met at each position (constant in the inputs).
variable_list scatter_reduce_backward(const FormulaNode& n, const variable_list& g) {
  const int64_t dim = n.ints[0];
  const bool include_self = n.ints[1] != 0, is_mean = n.ints[2] != 0;
  const Tensor index = n.saved(0);
  Tensor grad = g[0];
  Tensor count;
  if (is_mean) {
    autograd::BelowAutogradGuard ng;
    count = include_self ? ones_like(grad) : zeros_like(grad);
    count = count.scatter_add(dim, index, ones(index.sizes(), grad.options()));
    count = count.masked_fill(count == 0, 1);
  }
  Tensor gs, gsrc;
  if (n.needs_input_grad(0)) {
    gs = is_mean ? grad / count : grad;
    if (!include_self) gs = gs.scatter(dim, index, Scalar(0));
  }
  if (n.needs_input_grad(2)) {
    gsrc = grad.gather(dim, index);
    if (is_mean) gsrc = gsrc / count.gather(dim, index);
  }
  return {gs, Tensor(), gsrc};
}

// prod / amax / amin (PyTorch's scatter_reduce_backward). Saved: 0 index,
// 1 self before the write (a differentiable clone of it), 2 src, 3 the result;
// ints: dim, include_self, is_prod. prod divides out each factor, with the
// exclusive product where a position got a single zero; amax/amin share the
// gradient evenly among the values equal to the result (self's value counts
// only when include_self).
variable_list scatter_reduce_select_backward(const FormulaNode& n, const variable_list& g) {
  const int64_t dim = n.ints[0];
  const bool include_self = n.ints[1] != 0, is_prod = n.ints[2] != 0;
  const Tensor index = n.saved(0), self = n.saved(1), src = n.saved(2), result = n.saved(3);
  const Tensor& grad = g[0];
  Tensor gs, gsrc;
  if (is_prod) {
    Tensor masked_self = self.masked_fill(self == 0, 1);
    gs = grad * masked_self.scatter_reduce(dim, index, src, "prod", include_self) / masked_self;
    Tensor src_zero = src == 0;
    Tensor zeros_at = zeros_like(self).scatter_add(dim, index, src_zero.to(self.dtype())).gather(dim, index);
    Tensor single_zero = src_zero.logical_and(zeros_at == 1);
    Tensor masked_src_result = self.scatter_reduce(dim, index, src.masked_fill(single_zero, 1), "prod", include_self);
    gsrc = where(single_zero, (grad * masked_src_result).gather(dim, index),
                 (grad * result).gather(dim, index) / src.masked_fill(src_zero, 1));
  } else {
    Tensor value = result.gather(dim, index);
    Tensor self_is = self == result;
    if (!include_self) self_is = self_is.scatter(dim, index, Scalar(false));
    Tensor src_is = src == value;
    Tensor count = self_is.to(grad.dtype()).scatter_add(dim, index, src_is.to(grad.dtype()));
    Tensor share = grad / count.masked_fill(count == 0, 1);
    gs = share * self_is;
    gsrc = share.gather(dim, index) * src_is;
  }
  if (!include_self) gs = gs.scatter(dim, index, Scalar(0));
  return {n.needs_input_grad(0) ? gs : Tensor(), Tensor(), n.needs_input_grad(2) ? gsrc : Tensor()};
}

// Saved: 0 index; ints: dim; shapes[0] source's sizes; scalars: alpha.
variable_list index_add_backward(const FormulaNode& n, const variable_list& g) {
  Tensor gsrc;
  if (n.needs_input_grad(2)) {
    gsrc = g[0].index_select(n.ints[0], n.saved(0)).reshape(n.shapes[0]);
    if (!n.scalars[0].equal(Scalar(1))) gsrc = gsrc * n.scalars[0];
  }
  return {g[0], Tensor(), gsrc};
}
variable_list index_copy_backward(const FormulaNode& n, const variable_list& g) {
  const Tensor index = n.saved(0);
  return {n.needs_input_grad(0) ? g[0].index_fill(n.ints[0], index, 0) : Tensor(), Tensor(),
          n.needs_input_grad(2) ? g[0].index_select(n.ints[0], index).reshape(n.shapes[0]) : Tensor()};
}
// Saved: 0 index (non-negative); ints: dim. Inputs: self, index, value (absent for a Scalar).
variable_list index_fill_backward(const FormulaNode& n, const variable_list& g) {
  const Tensor index = n.saved(0);
  return {n.needs_input_grad(0) ? g[0].index_fill(n.ints[0], index, 0) : Tensor(), Tensor(),
          n.needs_input_grad(2) ? g[0].index_select(n.ints[0], index).sum() : Tensor()};
}

// Saved: 0 index; shapes[0] self's sizes.
variable_list take_backward(const FormulaNode& n, const variable_list& g) {
  const DimVector& sizes = n.shapes[0];
  int64_t numel = 1;
  for (int64_t s : sizes) numel *= s;
  std::vector<std::optional<Tensor>> idx{n.saved(0).reshape({-1})};
  Tensor flat = index_put(g[0].new_zeros({numel}), idx, g[0].reshape({-1}), /*accumulate=*/true);
  return {flat.reshape(sizes), Tensor()};
}

// Saved: 0 mask (broadcast); shapes[0] the broadcast shape, shapes[1] self's sizes.
variable_list masked_select_backward(const FormulaNode& n, const variable_list& g) {
  std::vector<std::optional<Tensor>> idx{n.saved(0)};
  Tensor r = index_put(g[0].new_zeros(n.shapes[0]), idx, g[0], /*accumulate=*/false);
  return {sum_to_size(r, n.shapes[1]), Tensor()};
}

Recorded inplace_node(const char* name, FormulaNode::Formula f, const Tensor& self, const Tensor& index,
                      const Tensor& src, int64_t dim) {
  auto node = record(name, f, {self, index, src}, {self});
  node->save(index);
  node->ints = {dim};
  return node;
}

}  // namespace

Tensor sum_to_size(const Tensor& grad, IntArrayRef sizes) {
  if (grad.sizes().equals(sizes)) return grad;
  const int64_t lead = grad.dim() - static_cast<int64_t>(sizes.size());
  if (lead < 0) {  // sizes has extra leading unit dims
    return sum_to_size(grad, sizes.slice(static_cast<size_t>(-lead))).reshape(sizes);
  }
  DimVector dims;
  for (int64_t d = 0; d < grad.dim(); ++d)
    if (d < lead || (sizes[d - lead] == 1 && grad.size(d) != 1)) dims.push_back(d);
  Tensor r = dims.empty() ? grad : grad.sum(dims, /*keepdim=*/true);
  return r.reshape(sizes);
}

void record_index(const Tensor& self, OptionalTensors indices, const Tensor& out) {
  auto node = record("IndexBackward0", &index_backward, {self}, {out});
  save_indices(*node, indices);
  node->shapes.push_back(DimVector(self.sizes()));
}

void record_index_put(const Tensor& self, OptionalTensors indices, const Tensor& values, bool accumulate) {
  auto node = record("IndexPutBackward0", &index_put_backward, {self, values}, {self});
  node->ints = {accumulate ? 1 : 0};
  save_indices(*node, indices);
  node->shapes.push_back(DimVector(values.sizes()));
}

void record_scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  inplace_node(src.defined() ? "ScatterBackward0" : "ScatterBackward1", &scatter_backward, self, index, src, dim);
}

void record_scatter_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  inplace_node("ScatterAddBackward0", &scatter_add_backward, self, index, src, dim);
}

void record_scatter_reduce(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                           std::string_view reduce, bool include_self, const Tensor& self_before) {
  if (reduce == "sum" || reduce == "mean") {
    auto node = inplace_node("ScatterReduceBackward0", &scatter_reduce_backward, self, index, src, dim);
    node->ints = {dim, include_self ? 1 : 0, reduce == "mean" ? 1 : 0};
    return;
  }
  EMBER_INTERNAL_ASSERT(self_before.defined());
  auto node = record("ScatterReduceBackward0", &scatter_reduce_select_backward, {self, index, src}, {self});
  node->save(index);
  node->save(self_before);
  node->save(src);
  node->save(self, /*is_output=*/true);
  node->ints = {dim, include_self ? 1 : 0, reduce == "prod" ? 1 : 0};
}

void record_index_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source, const Scalar& alpha) {
  auto node = inplace_node("IndexAddBackward0", &index_add_backward, self, index, source, dim);
  node->shapes.push_back(DimVector(source.sizes()));
  node->scalars = {alpha};
}

void record_index_copy(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source) {
  auto node = inplace_node("IndexCopyBackward0", &index_copy_backward, self, index, source, dim);
  node->shapes.push_back(DimVector(source.sizes()));
}

void record_index_fill(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& value) {
  // index_fill accepts negative indices; index_select (in the formula) does not.
  Tensor idx;
  {
    autograd::BelowAutogradGuard ng;
    const int64_t size = self.dim() == 0 ? 1 : self.size(dim);
    idx = where(index < 0, index + size, index);
  }
  inplace_node(value.defined() ? "IndexFillBackward1" : "IndexFillBackward0", &index_fill_backward, self, idx, value,
               dim);
}

void record_take(const Tensor& self, const Tensor& index, const Tensor& out) {
  auto node = record("TakeBackward0", &take_backward, {self, index}, {out});
  node->save(index);
  node->shapes.push_back(DimVector(self.sizes()));
}

void record_masked_select(const Tensor& self, const Tensor& mask, const Tensor& out) {
  auto node = record("MaskedSelectBackward0", &masked_select_backward, {self, mask}, {out});
  node->save(mask);
  node->shapes.push_back(DimVector(mask.sizes()));
  node->shapes.push_back(DimVector(self.sizes()));
}

void record_masked_fill(const Tensor& self, const Tensor& mask, const Tensor& out) {
  auto node = record("MaskedFillBackward0", &masked_fill_backward, {self, mask}, {out});
  node->save(mask);
}
void record_index_select(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& out) {
  auto node = record("IndexSelectBackward0", &index_select_backward, {self, index}, {out});
  node->save(index);
  node->ints = {dim};
  node->shapes.push_back(DimVector(self.sizes()));
}
void record_gather(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& out) {
  auto node = record("GatherBackward0", &gather_backward, {self, index}, {out});
  node->save(index);
  node->ints = {dim};
  node->shapes.push_back(DimVector(self.sizes()));
}

void record_where(const Tensor& cond, const Tensor& self, const Tensor& other, const Tensor& out) {
  auto node = record("WhereBackward0", &where_backward, {cond, self, other}, {out});
  node->save(cond);
}

}  // namespace torch::autograd
