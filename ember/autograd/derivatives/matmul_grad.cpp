#include "ember/autograd/derivatives/matmul_grad.h"

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

// A matrix stored column-major (the transpose of a contiguous one), like the
// weight.t() operand of linear. Sizes of 1 make a matrix both row- and
// column-major; those count as row-major.
bool column_major(const Tensor& t) {
  return t.dim() == 2 && t.size(0) > 1 && t.size(1) > 1 && t.stride(0) == 1 && t.stride(1) == t.size(0);
}

// Note [GEMM gradient layout]
// The gradient of a column-major operand is computed as the transpose of a
// row-major product, (g^T conj(a))^T instead of a^H g, so it comes out in the
// operand's own layout, as PyTorch's mm_mat1/mm_mat2_backward do. For linear,
// whose GEMM operand is weight.t(), the weight's gradient is then contiguous
// after TBackward: accumulating it into .grad and the optimizer's update
// stream through memory instead of striding across rows (a quarter of an MLP
// training step before). Both forms are the same sums.
//
// Saved: 0 a, 1 b; scalars: alpha, beta. The products are differentiable
// matmuls again, so double backward works.
variable_list gemm_backward(const FormulaNode& n, const variable_list& g) {
  const Scalar& alpha = n.scalars[0];
  const Scalar& beta = n.scalars[1];
  auto scaled = [](Tensor t, const Scalar& s) { return s.equal(Scalar(1)) ? t : t * s; };
  Tensor ga, gb, gi;
  Tensor a, b;  // unpacked once: each operand's gradient reads both
  if (n.needs_input_grad(0) || n.needs_input_grad(1)) {
    a = n.saved(0);
    b = n.saved(1);
  }
  if (n.needs_input_grad(0)) {
    ga = column_major(a) ? b.conj().matmul(g[0].transpose(-2, -1)).transpose(-2, -1)
                         : g[0].matmul(b.transpose(-2, -1).conj());
    ga = scaled(ga, alpha);
  }
  if (n.needs_input_grad(1)) {
    gb = column_major(b) ? g[0].transpose(-2, -1).matmul(a.conj()).transpose(-2, -1)
                         : a.transpose(-2, -1).conj().matmul(g[0]);
    gb = scaled(gb, alpha);
  }
  if (n.needs_input_grad(2)) gi = scaled(g[0], beta);
  return {ga, gb, gi};
}

// out = beta * init + alpha * (a @ b): the product rule, each factor's tangent
// against the other's saved value.
variable_list gemm_jvp(const FormulaNode& n, const variable_list& t, const variable_list& o) {
  const Scalar& alpha = n.scalars[0];
  const Scalar& beta = n.scalars[1];
  Tensor r;
  if (t[0].defined()) r = t[0].matmul(n.saved(1));
  if (t[1].defined()) {
    Tensor p = n.saved(0).matmul(t[1]);
    r = r.defined() ? r + p : p;
  }
  if (r.defined() && !alpha.equal(Scalar(1))) r = r * alpha;
  if (t.size() > 2 && t[2].defined()) {
    Tensor p = beta.equal(Scalar(1)) ? t[2] : t[2] * beta;
    r = r.defined() ? r + p : p;
  }
  if (r.defined() && r.numel() == o[0].numel() && !r.sizes().equals(o[0].sizes())) r = r.reshape(o[0].sizes());
  return {r};
}

}  // namespace

namespace {
// PyTorch's grad_fn name for a matmul-family op ("addmm" -> "AddmmBackward0").
const char* gemm_node_name(const char* op) {
  static const std::pair<const char*, const char*> kNames[] = {
      {"mm", "MmBackward0"},       {"bmm", "BmmBackward0"},         {"mv", "MvBackward0"},
      {"dot", "DotBackward0"},     {"vdot", "VdotBackward0"},       {"outer", "OuterBackward0"},
      {"addmm", "AddmmBackward0"}, {"baddbmm", "BaddbmmBackward0"}, {"addbmm", "AddbmmBackward0"},
      {"addmv", "AddmvBackward0"}, {"addr", "AddrBackward0"},       {"matmul", "MatmulBackward0"}};
  for (const auto& [k, v] : kNames)
    if (std::string_view(k) == op) return v;
  return "MmBackward0";
}
}  // namespace

void record_gemm(const char* op, const Tensor& a, const Tensor& b, const Tensor& init, const Tensor& out,
                 const Scalar& alpha, const Scalar& beta) {
  auto node = record(gemm_node_name(op), &gemm_backward, {a, b, init}, {out});
  node->jvp = &gemm_jvp;
  node->save(a);
  node->save(b);
  node->scalars = {alpha, beta};
}

}  // namespace torch::autograd
