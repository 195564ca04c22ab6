// linear and bilinear: shaped into the matmul family's GEMMs, so autograd
// comes from addmm/matmul (AddmmBackward0 for the 2-D case, as in PyTorch).
#include "ember/ops/nn/linear.h"
#include "ember/core/record_scope.h"

#include "ember/core/shape.h"
#include "ember/ops/elementwise/binary.h"
#include "ember/ops/elementwise/operators.h"
#include "ember/ops/matmul/matmul.h"
#include "ember/ops/nn/nn_util.h"
#include "ember/ops/reduce/reduce.h"
#include "ember/ops/shape/view.h"
#include "ember/vmap/batching_rules.h"

namespace torch {

Tensor linear(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias_opt) {
  if (batching::any_batched(input, weight, bias_opt)) [[unlikely]] {
    EMBER_CHECK(
        input.dtype() == weight.dtype() && (!bias_opt || !bias_opt->defined() || bias_opt->dtype() == input.dtype()),
        "linear: expected input, weight and bias of one dtype, got ", input.dtype(), " and ", weight.dtype());
    Tensor out = matmul(input, weight.t());
    return bias_opt && bias_opt->defined() ? out + *bias_opt : out;
  }
  EMBER_RECORD_OP("linear", input, weight);
  const Tensor bias = nn_detail::opt(bias_opt);
  EMBER_CHECK(input.defined() && weight.defined(), "linear: expected defined input and weight");
  EMBER_CHECK(input.dim() >= 1, "linear: input must have at least 1 dimension, got ", shape_str(input.sizes()));
  EMBER_CHECK(weight.dim() == 1 || weight.dim() == 2, "linear: weight must be 1-D or 2-D, got ",
              shape_str(weight.sizes()));
  EMBER_CHECK(input.size(-1) == weight.size(-1), "linear: mat1 and mat2 shapes cannot be multiplied (input ",
              shape_str(input.sizes()), " and weight ", shape_str(weight.sizes()), ")");
  EMBER_CHECK(input.dtype() == weight.dtype(), "linear: expected input and weight to have the same dtype, got ",
              input.dtype(), " and ", weight.dtype());
  if (bias.defined())
    EMBER_CHECK(bias.dtype() == input.dtype(), "linear: expected bias to have the dtype of input, got ", bias.dtype(),
                " and ", input.dtype());
  if (weight.dim() == 2 && bias.defined()) {
    if (input.dim() == 2) return addmm(bias, input, weight.t());
    // Contiguous [*, in]: fold the leading dims into the GEMM's rows.
    if (input.dim() > 2 && input.is_contiguous()) {
      DimVector out(input.sizes());
      out.back() = weight.size(0);
      return addmm(bias, input.view({-1, input.size(-1)}), weight.t()).view(out);
    }
  }
  Tensor out = matmul(input, weight.t());
  return bias.defined() ? out + bias : out;
}

Tensor bilinear(const Tensor& input1, const Tensor& input2, const Tensor& weight,
                const std::optional<Tensor>& bias_opt) {
  // Composite (reshape, mm, bmm): each takes batched inputs.
  EMBER_RECORD_COMPOSITE_OP("bilinear", input1, input2, weight, bias_opt);
  const Tensor bias = nn_detail::opt(bias_opt);
  EMBER_CHECK(weight.dim() == 3, "bilinear: expected a 3-D weight [out, in1, in2], got ", shape_str(weight.sizes()));
  EMBER_CHECK(input1.dim() == input2.dim(), "bilinear: input1 and input2 must have the same number of dims, got ",
              shape_str(input1.sizes()), " and ", shape_str(input2.sizes()));
  EMBER_CHECK(input1.dim() >= 1, "bilinear: inputs must have at least 1 dimension");
  for (int64_t d = 0; d + 1 < input1.dim(); ++d)
    EMBER_CHECK(input1.size(d) == input2.size(d), "bilinear: input batch dimensions do not match: got ",
                shape_str(input1.sizes()), " and ", shape_str(input2.sizes()));
  EMBER_CHECK(input1.size(-1) == weight.size(1), "bilinear: input1 size does not match weight size: got ",
              input1.size(-1), " but expected ", weight.size(1), " (input1 ", shape_str(input1.sizes()), ", weight ",
              shape_str(weight.sizes()), ")");
  EMBER_CHECK(input2.size(-1) == weight.size(2), "bilinear: input2 size does not match weight size: got ",
              input2.size(-1), " but expected ", weight.size(2), " (input2 ", shape_str(input2.sizes()), ", weight ",
              shape_str(weight.sizes()), ")");
  if (bias.defined())
    EMBER_CHECK(bias.dim() == 1 && bias.size(0) == weight.size(0),
                "bilinear: bias size does not match weight size: got ", shape_str(bias.sizes()), " but expected [",
                weight.size(0), "]");
  const int64_t o = weight.size(0), i1 = weight.size(1), i2 = weight.size(2);
  DimVector out_shape(input1.sizes());
  out_shape.back() = o;
  Tensor x1 = input1.reshape({-1, i1});
  Tensor x2 = input2.reshape({-1, i2});
  // [B, i1] @ [i1, o*i2] -> [B, o, i2], then contract i2 with input2.
  Tensor t = x1.mm(weight.permute({1, 0, 2}).reshape({i1, o * i2})).view({-1, o, i2});
  Tensor y = t.bmm(x2.unsqueeze(2)).squeeze(2);
  if (bias.defined()) y = y + bias;
  return y.view(out_shape);
}

}  // namespace torch
