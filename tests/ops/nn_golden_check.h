#pragma once
// Shared by the nn op tests: runs an op on the golden inputs <name>.in0, ...,
// compares <name>.out, then backpropagates <name>.gout and compares each
// floating input's gradient with <name>.grad<i> (tools/golden/gen_nn_ops.py).
#include <functional>
#include <string>
#include <vector>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/ops/nn/activation.h"
#include "ember/ops/nn/dropout.h"
#include "ember/ops/nn/embedding.h"
#include "ember/ops/nn/linear.h"
#include "ember/ops/nn/normalization.h"
#include "ember/torch.h"

namespace torch::testing {

inline const Golden& nn_golden() {
  static const Golden g("nn_ops.golden");
  return g;
}

inline std::vector<Tensor> nn_inputs(const std::string& name, bool requires_grad) {
  std::vector<Tensor> in;
  for (int i = 0; nn_golden().has(name + ".in" + std::to_string(i)); ++i) {
    Tensor t = nn_golden()[name + ".in" + std::to_string(i)];
    if (requires_grad && t.is_floating_point()) t.requires_grad_(true);
    in.push_back(t);
  }
  return in;
}

using NnOp = std::function<Tensor(const std::vector<Tensor>&)>;

// Tolerances: float32 gradients go through several reductions, so they get
// float32's default rtol with a slightly looser atol.
inline void check_nn_case(const std::string& name, const NnOp& op, bool grads = true) {
  SCOPED_TRACE(name);
  ASSERT_TRUE(nn_golden().has(name + ".out")) << "no golden case " << name;
  std::vector<Tensor> in = nn_inputs(name, grads);
  const Tensor expected = nn_golden()[name + ".out"];
  Tensor out = op(in);
  EXPECT_TENSOR_CLOSE(out.detach(), expected);
  if (!grads) return;
  out.backward(nn_golden()[name + ".gout"]);
  for (size_t i = 0; i < in.size(); ++i) {
    const std::string gname = name + ".grad" + std::to_string(i);
    if (!nn_golden().has(gname)) continue;
    SCOPED_TRACE(gname);
    const Tensor want = nn_golden()[gname];
    ASSERT_TRUE(in[i].grad().defined()) << "no gradient for input " << i;
    const double atol = want.dtype() == kFloat ? 1e-4 : 1e-7;
    EXPECT_TENSOR_CLOSE_TOL(in[i].grad(), want, default_rtol(want.dtype()), atol);
  }
}

}  // namespace torch::testing
