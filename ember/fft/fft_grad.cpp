// Derivative table of the FFT family (PyTorch's derivatives.yaml rows
// _fft_c2c, _fft_r2c, _fft_c2r). Every public transform (fft, rfft, irfft,
// hfft, fftn, ..., stft, istft) is made of these three primitives plus
// differentiable conj / pad / narrow / mul, so these formulas are all it needs.
// Conjugate Wirtinger convention: for a C-linear y = A x the input gradient is
// A^H g; a DFT's adjoint is the opposite-direction DFT with the same scale.
#include "ember/fft/fft_grad.h"

#include "ember/autograd/formula_node.h"
#include "ember/autograd/forward_ad.h"
#include "ember/autograd/grad_mode.h"
#include "ember/autograd/node.h"
#include "ember/core/dispatch.h"
#include "ember/core/error.h"
#include "ember/core/parallel.h"
#include "ember/core/shape.h"
#include "ember/core/tensor.h"
#include "ember/fft.h"
#include "ember/ops/all_ops.h"
#include "ember/vmap/vmap.h"

namespace torch::autograd {

namespace {

using fft::detail::Norm;

// ints layout shared by the three nodes: dims..., then the node's trailing values.
DimVector dims_of(const FormulaNode& n, size_t trailing) {
  return DimVector(IntArrayRef(n.ints.data(), n.ints.size() - trailing));
}
Norm norm_of(const FormulaNode& n, size_t trailing) { return static_cast<Norm>(n.ints[n.ints.size() - trailing]); }

// The real part as a differentiable op: a dtype copy whose backward is the
// complex(g, 0) cast (ToCopyBackward0).
Tensor real_part(const Tensor& z) { return z.to(to_real_type(z.dtype())); }

// c2c: grad = c2c(g, dims, norm, !forward).  ints: dims..., norm, forward.
variable_list fft_c2c_backward(const FormulaNode& n, const variable_list& g) {
  return {fft::detail::fft_c2c(g[0], dims_of(n, 2), norm_of(n, 2), n.ints[n.ints.size() - 1] == 0)};
}

// r2c: the adjoint of "DFT then keep bins 0..n/2" is "zero-fill the dropped bins,
// inverse DFT"; the input is real, so its gradient is the real part.
// ints: dims..., norm, onesided, size of self along dims.back().
variable_list fft_r2c_backward(const FormulaNode& n, const variable_list& g) {
  const DimVector dims = dims_of(n, 3);
  const bool onesided = n.ints[n.ints.size() - 2] != 0;
  const int64_t last = dims[dims.size() - 1], full = n.ints[n.ints.size() - 1];
  Tensor grad = g[0];
  if (onesided && grad.size(last) < full) {
    DimVector pad(2 * (grad.dim() - last), 0);
    pad[2 * (grad.dim() - 1 - last) + 1] = full - grad.size(last);
    grad = constant_pad_nd(grad, pad, 0);
  }
  return {real_part(fft::detail::fft_c2c(grad, dims, norm_of(n, 3), /*forward=*/false))};
}

// c2r: the adjoint is a onesided r2c of g in which the bins that c2r used twice
// (1 .. n - n/2 - 1, mirrored into the upper half) count twice.
// ints: dims..., norm.
variable_list fft_c2r_backward(const FormulaNode& n, const variable_list& g) {
  const DimVector dims = dims_of(n, 1);
  const int64_t last = dims[dims.size() - 1];
  Tensor gi = fft::detail::fft_r2c(g[0], dims, norm_of(n, 1), /*onesided=*/true);
  const int64_t bins = gi.size(last), doubled = g[0].size(last) - bins;
  if (doubled > 0) {
    Tensor w = ones({bins}, TensorOptions(to_real_type(gi.dtype())));
    w.narrow(0, 1, doubled).fill_(2);
    DimVector shape(gi.dim(), 1);
    shape[last] = bins;
    gi = gi * w.view(shape);
  }
  return {gi};
}

DimVector pack(IntArrayRef dims, std::initializer_list<int64_t> tail) {
  DimVector v(dims);
  for (int64_t t : tail) v.push_back(t);
  return v;
}

}  // namespace

void record_fft_c2c(const Tensor& self, const Tensor& out, IntArrayRef dims, Norm norm, bool forward) {
  record("FftC2CBackward0", &fft_c2c_backward, {self}, {out})->ints =
      pack(dims, {static_cast<int64_t>(norm), forward ? 1 : 0});
}
void record_fft_r2c(const Tensor& self, const Tensor& out, IntArrayRef dims, Norm norm, bool onesided) {
  record("FftR2CBackward0", &fft_r2c_backward, {self}, {out})->ints =
      pack(dims, {static_cast<int64_t>(norm), onesided ? 1 : 0, self.size(dims.back())});
}
void record_fft_c2r(const Tensor& self, const Tensor& out, IntArrayRef dims, Norm norm, int64_t last_dim_size) {
  record("FftC2RBackward0", &fft_c2r_backward, {self}, {out})->ints = pack(dims, {static_cast<int64_t>(norm)});
}

}  // namespace torch::autograd
