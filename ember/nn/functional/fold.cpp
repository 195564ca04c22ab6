#include "ember/nn/functional/fold.h"

#include <array>

#include "ember/core/checked_arith.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/index/indexing.h"
#include "ember/ops/nn/pad.h"

namespace torch::nn::functional {

namespace {

// Sliding-block geometry shared by fold and unfold, checked as PyTorch does.
struct Blocks {
  std::array<int64_t, 2> k, d, p, s, out;
};

Blocks blocks_for(const char* op, std::array<int64_t, 2> spatial, const ExpandingArray<2>& kernel_size,
                  const ExpandingArray<2>& dilation, const ExpandingArray<2>& padding,
                  const ExpandingArray<2>& stride) {
  Blocks b{};
  for (size_t i = 0; i < 2; ++i) {
    b.k[i] = (*kernel_size)[i];
    b.d[i] = (*dilation)[i];
    b.p[i] = (*padding)[i];
    b.s[i] = (*stride)[i];
    EMBER_CHECK(b.k[i] > 0, op, ": kernel_size should be greater than zero, but got ", kernel_size);
    EMBER_CHECK(b.d[i] > 0, op, ": dilation should be greater than zero, but got ", dilation);
    EMBER_CHECK(b.p[i] >= 0, op, ": padding should be non-negative, but got ", padding);
    EMBER_CHECK(b.s[i] > 0, op, ": stride should be greater than zero, but got ", stride);
  }
  for (size_t i = 0; i < 2; ++i) {
    const int64_t padded = checked_add(spatial[i], checked_mul(2, b.p[i], op, "padded size"), op, "padded size");
    const int64_t extent =
        checked_add(checked_mul(b.d[i], b.k[i] - 1, op, "dilated kernel size"), 1, op, "dilated kernel size");
    b.out[i] = (padded - extent) / b.s[i] + 1;
  }
  EMBER_CHECK(b.out[0] >= 1 && b.out[1] >= 1, op, ": given input with spatial size (", spatial[0], ", ", spatial[1],
              "), kernel_size=", kernel_size, ", dilation=", dilation, ", padding=", padding,
              ", calculated shape of the array of sliding blocks as (", b.out[0], ", ", b.out[1],
              "), but its components must be at least one.");
  return b;
}

// (..., Hp, Wp) -> (..., kh, kw, oh, ow): every block's elements, through views only,
// so autograd (and double backward) comes from unfold/slice/permute.
Tensor block_view(const Tensor& padded, const Blocks& b) {
  const int64_t lead = padded.dim() - 2;
  Tensor v = padded.unfold(lead, b.d[0] * (b.k[0] - 1) + 1, b.s[0]);  // (..., oh, Wp, span_h)
  v = v.unfold(lead + 1, b.d[1] * (b.k[1] - 1) + 1, b.s[1]);          // (..., oh, ow, span_h, span_w)
  v = v.slice(lead + 2, 0, std::nullopt, b.d[0]).slice(lead + 3, 0, std::nullopt, b.d[1]);
  std::vector<int64_t> perm;
  for (int64_t i = 0; i < lead; ++i) perm.push_back(i);
  for (int64_t i : {lead + 2, lead + 3, lead, lead + 1}) perm.push_back(i);
  return v.permute(perm);
}

}  // namespace

Tensor unfold(const Tensor& input, const UnfoldFuncOptions& options) {
  EMBER_CHECK(input.dim() == 3 || input.dim() == 4,
              "unfold: expected 3D or 4D (batch mode) tensor with possibly 0 batch size and non-zero dimensions for "
              "input, but got a ",
              input.dim(), "D tensor of shape ", shape_str(input.sizes()));
  const bool batched = input.dim() == 4;
  const Tensor x = batched ? input : input.unsqueeze(0);
  EMBER_CHECK(x.size(1) > 0 && x.size(2) > 0 && x.size(3) > 0,
              "unfold: expected non-zero channel and spatial sizes, got input of shape ", shape_str(input.sizes()));
  const Blocks b = blocks_for("unfold", {x.size(2), x.size(3)}, options.kernel_size(), options.dilation(),
                              options.padding(), options.stride());
  const Tensor padded =
      b.p[0] == 0 && b.p[1] == 0 ? x : constant_pad_nd(x, std::vector<int64_t>{b.p[1], b.p[1], b.p[0], b.p[0]});
  Tensor cols = block_view(padded, b).reshape(
      {x.size(0), checked_mul(x.size(1), checked_mul(b.k[0], b.k[1], "unfold", "kernel area"), "unfold", "block size"),
       checked_mul(b.out[0], b.out[1], "unfold", "number of blocks")});
  return batched ? cols : cols.squeeze(0);
}

Tensor fold(const Tensor& input, const FoldFuncOptions& options) {
  EMBER_CHECK(input.dim() == 2 || input.dim() == 3,
              "fold: Input Error: Only unbatched (2D) or batched (3D) input Tensors are supported (got ", input.dim(),
              "D): input of shape ", shape_str(input.sizes()));
  const bool batched = input.dim() == 3;
  const Tensor cols = batched ? input : input.unsqueeze(0);
  const std::array<int64_t, 2> size{(*options.output_size())[0], (*options.output_size())[1]};
  EMBER_CHECK(size[0] > 0 && size[1] > 0, "fold: output_size should be greater than zero, but got ",
              options.output_size());
  const Blocks b =
      blocks_for("fold", size, options.kernel_size(), options.dilation(), options.padding(), options.stride());
  const int64_t block = checked_mul(b.k[0], b.k[1], "fold", "kernel area");
  const int64_t n_blocks = checked_mul(b.out[0], b.out[1], "fold", "number of blocks");
  EMBER_CHECK(cols.size(1) % block == 0,
              "fold: expected size of input's dimension 1 to be divisible by the product "
              "of kernel_size, but got input.size(1)=",
              cols.size(1), " and kernel_size=", options.kernel_size());
  EMBER_CHECK(cols.size(2) == n_blocks, "fold: given output_size=", options.output_size(),
              ", kernel_size=", options.kernel_size(), ", dilation=", options.dilation(),
              ", padding=", options.padding(), ", stride=", options.stride(),
              ", expected size of input's dimension 2 to match the calculated number of sliding blocks ", b.out[0],
              " * ", b.out[1], " = ", n_blocks, ", but got input.size(2)=", cols.size(2), ".");
  // Where each column entry lands in the padded image: unfold applied to the
  // padded image's flat indices. fold is then one index_add over them.
  const int64_t hp = size[0] + 2 * b.p[0], wp = size[1] + 2 * b.p[1];
  const Tensor where = block_view(arange(hp * wp, kLong).view({hp, wp}), b).reshape({-1});
  const int64_t n = cols.size(0), c = cols.size(1) / block;
  Tensor image = index_add(zeros({n, c, hp * wp}, cols.options()), 2, where, cols.reshape({n, c, block * n_blocks}));
  image = image.view({n, c, hp, wp}).slice(2, b.p[0], b.p[0] + size[0]).slice(3, b.p[1], b.p[1] + size[1]);
  image = image.contiguous();
  return batched ? image : image.squeeze(0);
}

}  // namespace torch::nn::functional
