#include "ember/autograd/derivatives/nn_pad_grad.h"

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
#include "ember/ops/nn/pad.h"
#include "ember/vmap/vmap.h"

namespace torch::autograd {

namespace {
// ints: the pads; the gradient is the output cropped back, constant_pad_nd with the pads negated.
variable_list constant_pad_backward(const FormulaNode& n, const variable_list& g) {
  DimVector neg;
  for (int64_t v : n.ints) neg.push_back(-v);
  return {constant_pad_nd(g[0], neg, 0)};
}
}  // namespace

void record_constant_pad_nd(const Tensor& self, const Tensor& out, IntArrayRef pad) {
  record("ConstantPadNdBackward0", &constant_pad_backward, {self}, {out})->ints = DimVector(pad);
}

}  // namespace torch::autograd
