// constant_pad_nd is one kernel (fill + copy into a window) whose backward is
// constant_pad_nd with the pads negated; the other modes are compositions of
// narrow / flip / expand / cat, so their gradients come from those ops.
#include "ember/ops/nn/pad.h"
#include "ember/core/checked_arith.h"
#include "ember/core/record_scope.h"

#include <algorithm>
#include <string>

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
#include "ember/vmap/batching_rules.h"
#include "ember/vmap/vmap.h"

namespace torch {

namespace {

void check_pad_list(const char* op, const Tensor& self, IntArrayRef pad) {
  EMBER_CHECK(pad.size() % 2 == 0, op, ": length of pad must be even but instead it equals ", pad.size());
  EMBER_CHECK(static_cast<int64_t>(pad.size()) / 2 <= self.dim(), op,
              ": length of pad should be no more than twice the number of dimensions of the input, got pad of length ",
              pad.size(), " for input of size ", shape_str(self.sizes()));
}

Tensor pad_dim(const Tensor& x, int64_t d, int64_t l, int64_t r, std::string_view mode) {
  const int64_t n = x.size(d);
  auto edge = [&](int64_t start, int64_t len) {
    DimVector shape(x.sizes());
    shape[d] = len;
    return x.narrow(d, start, 1).expand(shape);
  };
  Tensor left, right;
  if (mode == "reflect") {
    left = x.narrow(d, 1, l).flip({d});
    right = x.narrow(d, n - 1 - r, r).flip({d});
  } else if (mode == "replicate") {
    left = edge(0, l);
    right = edge(n - 1, r);
  } else {  // circular
    left = x.narrow(d, n - l, l);
    right = x.narrow(d, 0, r);
  }
  return cat({left, x, right}, d);
}

}  // namespace

Tensor constant_pad_nd(const Tensor& self, IntArrayRef pad, const Scalar& value) {
  const char* op = "constant_pad_nd";
  check_pad_list(op, self, pad);  // on the logical shape: the batch dim is never padded
  EMBER_VMAP_ON_FRONT(self, v, constant_pad_nd(v, pad, value));
  EMBER_RECORD_OP("constant_pad_nd", self);
  const int64_t nd = self.dim(), np = static_cast<int64_t>(pad.size()) / 2;
  DimVector shape(self.sizes());
  Tensor src = self;
  DimVector starts(nd, 0);
  for (int64_t i = 0; i < np; ++i) {
    const int64_t d = nd - 1 - i, l = pad[2 * i], r = pad[2 * i + 1];
    shape[d] = checked_add(checked_add(self.size(d), l, op, "padded size"), r, op, "padded size");
    EMBER_CHECK(shape[d] >= 0, op, ": the input size ", self.size(d), ", plus negative padding ", l, " and ", r,
                " resulted in a negative output size, which is invalid. Check dimension ", d, " of your input of size ",
                shape_str(self.sizes()));
    // What negative padding crops, at most the whole dim (-l itself may not fit).
    auto crop = [&](int64_t p) { return p >= 0 ? 0 : p < -self.size(d) ? self.size(d) : -p; };
    const int64_t crop_l = crop(l), crop_r = crop(r);
    const int64_t keep = std::max<int64_t>(self.size(d) - crop_l - crop_r, 0);
    src = src.narrow(d, std::min(crop_l, self.size(d)), keep);
    starts[d] = std::max<int64_t>(l, 0);
  }
  Tensor out = full(shape, value, self.options());
  {
    autograd::BelowAutogradGuard no_grad;
    Tensor window = out;
    for (int64_t d = 0; d < nd; ++d) window = window.narrow(d, starts[d], src.size(d));
    if (src.numel() > 0) window.copy_(src);
  }
  if (autograd::needs_grad(self)) autograd::record_constant_pad_nd(self, out, pad);
  return out;
}

Tensor pad(const Tensor& self, IntArrayRef pad, std::string_view mode, std::optional<double> value) {
  // The non-constant modes compose narrow / flip / expand / cat, which take
  // batched inputs themselves (the checks below read logical shapes).
  EMBER_RECORD_COMPOSITE_OP("pad", self);
  const char* op = "pad";
  if (mode == "constant") return constant_pad_nd(self, pad, value.value_or(0.0));
  EMBER_CHECK(mode == "reflect" || mode == "replicate" || mode == "circular", op, ": unrecognised padding mode '",
              std::string(mode), "', expected one of 'constant', 'reflect', 'replicate' or 'circular'");
  EMBER_CHECK(!value.has_value(), op, ": padding mode \"", std::string(mode), "\" doesn't take in value argument");
  check_pad_list(op, self, pad);
  const int64_t np = static_cast<int64_t>(pad.size()) / 2;
  EMBER_CHECK(np >= 1 && np <= 3 && (self.dim() == np + 1 || self.dim() == np + 2), op, ": ", std::string(mode),
              " padding with ", pad.size(), " pad values expects a ", np + 1, "D or ", np + 2,
              "D input, but got input of size ", shape_str(self.sizes()));
  // PyTorch's aten::pad dispatches to one op per mode and dimension count.
  static constexpr const char* kNames[3][3] = {{"reflection_pad1d", "reflection_pad2d", "reflection_pad3d"},
                                               {"replication_pad1d", "replication_pad2d", "replication_pad3d"},
                                               {"_pad_circular", "_pad_circular", "_pad_circular"}};
  EMBER_RECORD_COMPOSITE_OP(kNames[mode == "reflect" ? 0 : mode == "replicate" ? 1 : 2][np - 1], self);
  // Negative pads crop, as PyTorch: reflect and replicate pad from the whole input
  // and crop afterwards; circular crops first and wraps the cropped input.
  Tensor x = self;
  for (int64_t i = 0; i < np; ++i) {
    const int64_t d = self.dim() - 1 - i, l = pad[2 * i], r = pad[2 * i + 1];
    const int64_t cut_l = l < 0 ? checked_abs(l, op, "padding") : 0;
    const int64_t cut_r = r < 0 ? checked_abs(r, op, "padding") : 0;
    const int64_t add_l = std::max<int64_t>(l, 0), add_r = std::max<int64_t>(r, 0);
    const int64_t n = self.size(d);
    if (mode == "circular") {
      EMBER_CHECK(n - cut_l - cut_r > 0, op, ": negative padding (", l, ", ", r,
                  ") is resulting in an empty dimension ", d, " of input ", shape_str(self.sizes()));
      x = x.narrow(d, cut_l, n - cut_l - cut_r);
      const int64_t m = n - cut_l - cut_r;
      EMBER_CHECK(add_l <= m && add_r <= m, op, ": padding value causes wrapping around more than once: padding (", l,
                  ", ", r, ") at dimension ", d, " of input ", shape_str(self.sizes()));
      x = pad_dim(x, d, add_l, add_r, mode);
      continue;
    }
    if (mode == "reflect")
      EMBER_CHECK(add_l < n && add_r < n, op,
                  ": padding size should be less than the corresponding input dimension, but got: padding (", l, ", ",
                  r, ") at dimension ", d, " of input ", shape_str(self.sizes()));
    else
      EMBER_CHECK(n > 0 || (add_l == 0 && add_r == 0), op, ": cannot replicate-pad an empty dimension ", d,
                  " of input ", shape_str(self.sizes()));
    EMBER_CHECK(cut_l + cut_r == 0 || n + l + r >= 1, op, ": input (size ", n, " at dimension ", d,
                ") is too small for padding (", l, ", ", r, "): calculated output size ", n + l + r);
    x = pad_dim(x, d, add_l, add_r, mode);
    if (cut_l > 0 || cut_r > 0) x = x.narrow(d, cut_l, x.size(d) - cut_l - cut_r);
  }
  return x;
}

}  // namespace torch
