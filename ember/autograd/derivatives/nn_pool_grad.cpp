#include "ember/autograd/derivatives/nn_pool_grad.h"
#include "ember/autograd/raw_backward.h"

#include "ember/autograd/formula_node.h"
#include "ember/ops/nn/pool_ops.h"

namespace torch::autograd {

namespace {

using pool::PoolSpec;

// ints: the PoolSpec, packed.
variable_list avg_forward_formula(const FormulaNode& n, const variable_list& g) {
  return {pool::avg_backward(g[0], PoolSpec::unpack(n.ints))};
}
variable_list avg_backward_formula(const FormulaNode& n, const variable_list& g) {
  return {pool::avg_forward(g[0], PoolSpec::unpack(n.ints))};
}
// saved: the indices; ints: the input's spatial sizes.
variable_list max_forward_formula(const FormulaNode& n, const variable_list& g) {
  return {pool::max_scatter(g[0], n.saved(0), n.ints)};
}
variable_list max_scatter_formula(const FormulaNode& n, const variable_list& g) {
  return {pool::max_gather(g[0], n.saved(0), static_cast<int64_t>(n.ints.size()))};
}
variable_list max_gather_formula(const FormulaNode& n, const variable_list& g) {
  return {pool::max_scatter(g[0], n.saved(0), n.ints)};
}
// saved: the byte positions; ints: the PoolSpec. The one-pass kernel for a float32
// gradient and no graph to build, else the differentiable scatter.
variable_list max_positions_formula(const FormulaNode& n, const variable_list& g) {
  const PoolSpec s = PoolSpec::unpack(n.ints);
  const Tensor pos = n.saved(0);
  if (raw_backward_ok(g) && g[0].scalar_type() == ScalarType::Float)
    return {pool::max_positions_backward(g[0].contiguous(), pos, s)};
  return {pool::max_scatter(g[0], pool::positions_to_indices(pos, s), s.in_size)};
}

const char* avg_pool_name(const PoolSpec& s, bool backward_backward) {
  static const char* avg[2][3] = {
      {"AvgPool1DBackward0", "AvgPool2DBackward0", "AvgPool3DBackward0"},
      {"AvgPool1DBackwardBackward0", "AvgPool2DBackwardBackward0", "AvgPool3DBackwardBackward0"}};
  static const char* adaptive[2][3] = {
      {"AdaptiveAvgPool1DBackward0", "AdaptiveAvgPool2DBackward0", "AdaptiveAvgPool3DBackward0"},
      {"AdaptiveAvgPool1DBackwardBackward0", "AdaptiveAvgPool2DBackwardBackward0",
       "AdaptiveAvgPool3DBackwardBackward0"}};
  return (s.adaptive ? adaptive : avg)[backward_backward ? 1 : 0][s.nd - 1];
}
const char* max_pool_name(const PoolSpec& s) {
  static const char* max[3] = {"MaxPool1DWithIndicesBackward0", "MaxPool2DWithIndicesBackward0",
                               "MaxPool3DWithIndicesBackward0"};
  static const char* adaptive[3] = {"AdaptiveMaxPool1DBackward0", "AdaptiveMaxPool2DBackward0",
                                    "AdaptiveMaxPool3DBackward0"};
  return (s.adaptive ? adaptive : max)[s.nd - 1];
}

}  // namespace

void record_avg_pool(const Tensor& input, const Tensor& out, const PoolSpec& s, bool backward) {
  record(avg_pool_name(s, backward), backward ? &avg_backward_formula : &avg_forward_formula, {input}, {out})->ints =
      s.pack();
}

void record_max_pool_indices(const Tensor& input, const Tensor& out, const Tensor& indices, const PoolSpec& s) {
  auto node = record(max_pool_name(s), &max_forward_formula, {input}, {out});
  node->save(indices);
  node->ints = s.in_size;
}

void record_max_pool_positions(const Tensor& input, const Tensor& out, const Tensor& positions, const PoolSpec& s) {
  auto node = record(max_pool_name(s), &max_positions_formula, {input}, {out});
  node->save(positions);
  node->ints = s.pack();
}

void record_max_pool_scatter(const Tensor& grad_out, const Tensor& grad_in, const Tensor& indices,
                             IntArrayRef in_size) {
  auto node = record("MaxPoolWithIndicesBackwardBackward0", &max_scatter_formula, {grad_out}, {grad_in});
  node->save(indices);
  node->ints = DimVector(in_size);
}

void record_max_pool_gather(const Tensor& grad_in, const Tensor& out, const Tensor& indices, IntArrayRef spatial) {
  auto node = record("MaxPoolGatherBackward0", &max_gather_formula, {grad_in}, {out});
  node->save(indices);
  node->ints = DimVector(spatial);
}

}  // namespace torch::autograd
