// The torch.fft transforms, following ATen's SpectralOps.cpp: argument
// checking, dtype promotion, padding/trimming to `n`/`s`, the norm string to
// a scale, then one of the three primitives (ember/fft/primitives.h).
// hfft/ihfft are irfft/rfft of the conjugate with the opposite norm direction.
#include "ember/fft/fft.h"
#include "ember/core/record_scope.h"

#include <algorithm>
#include <string>

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
#include "ember/fft/primitives.h"
#include "ember/linalg/batching_rules.h"
#include "ember/ops/all_ops.h"
#include "ember/vmap/vmap.h"

namespace torch::fft {

using detail::Norm;

namespace {

// "backward" (default) scales the inverse by 1/n, "forward" the forward one, "ortho" both by 1/sqrt(n).
Norm norm_from_string(const char* op, NormArg norm, bool forward) {
  if (!norm.has_value() || *norm == "backward") return forward ? Norm::None : Norm::ByN;
  if (*norm == "forward") return forward ? Norm::ByN : Norm::None;
  if (*norm == "ortho") return Norm::ByRootN;
  EMBER_CHECK(false, op, ": Invalid normalization mode: \"", std::string(*norm),
              "\" (expected \"backward\", \"forward\" or \"ortho\")");
  return Norm::None;
}

// Integer inputs compute in the default float dtype; only float32/float64 and complex64/complex128 are supported.
Tensor promote(const char* op, const Tensor& self, bool require_complex) {
  EMBER_CHECK(self.defined(), op, ": expected a defined tensor");
  ScalarType t = self.dtype();
  if (!is_complex(t) && !is_floating_point(t)) t = get_default_dtype();
  EMBER_CHECK(t == kFloat || t == kDouble || t == kComplexFloat || t == kComplexDouble, op, ": Unsupported dtype ",
              dtype_name(t), " (expected float32, float64, complex64 or complex128)");
  if (require_complex) t = to_complex_type(t);
  return self.to(t);
}

void check_real(const char* op, const Tensor& self) {
  EMBER_CHECK(self.defined(), op, ": expected a defined tensor");
  EMBER_CHECK(!self.is_complex(), op, " expects a real input tensor, but got ", dtype_name(self.dtype()));
}

void check_n(const char* op, int64_t n) {
  EMBER_CHECK(n >= 1, op, ": Invalid number of data points (", n, ") specified");
}

// Zero-pads or trims `x` along dims[i] to sizes[i] (-1 keeps the size).
Tensor resize_input(const Tensor& x, IntArrayRef dims, IntArrayRef sizes) {
  DimVector pad(2 * x.dim(), 0);
  bool must_pad = false;
  Tensor r = x;
  for (size_t i = 0; i < dims.size(); ++i) {
    const int64_t d = dims[i], have = x.size(d);
    if (sizes[i] == -1) continue;
    if (have < sizes[i]) {
      must_pad = true;
      pad[2 * (x.dim() - 1 - d) + 1] = sizes[i] - have;
    } else if (have > sizes[i]) {
      r = r.narrow(d, 0, sizes[i]);
    }
  }
  return must_pad ? constant_pad_nd(r, pad, 0) : r;
}

// ---- one dimension ----------------------------------------------------------

Tensor c2c_1d(const char* op, const Tensor& self, std::optional<int64_t> n_opt, int64_t dim, NormArg norm,
              bool forward) {
  EMBER_VMAP_ON_FRONT(self, v, c2c_1d(op, v, n_opt, batching::fft_phys_dim(dim, self.dim(), op), norm, forward));
  EMBER_RECORD_OP(op, self);
  const Tensor x = promote(op, self, /*require_complex=*/true);
  const int64_t d = wrap_dim(dim, x.dim(), op, /*scalar_as_1d=*/false);
  const int64_t n = n_opt.value_or(x.size(d));
  check_n(op, n);
  const Tensor in = n_opt ? resize_input(x, {d}, {n}) : x;
  const int64_t dims[] = {d};
  return detail::fft_c2c(in, dims, norm_from_string(op, norm, forward), forward);
}

// Real input: fft/ifft (two-sided), rfft/ihfft (onesided); the inverse direction is the conjugate.
Tensor r2c_1d(const char* op, const Tensor& self, std::optional<int64_t> n_opt, int64_t dim, NormArg norm, bool forward,
              bool onesided) {
  EMBER_VMAP_ON_FRONT(self, v,
                      r2c_1d(op, v, n_opt, batching::fft_phys_dim(dim, self.dim(), op), norm, forward, onesided));
  EMBER_RECORD_OP(op, self);
  check_real(op, self);
  const Tensor x = promote(op, self, false);
  const int64_t d = wrap_dim(dim, x.dim(), op, false);
  const int64_t n = n_opt.value_or(x.size(d));
  check_n(op, n);
  const Tensor in = n_opt ? resize_input(x, {d}, {n}) : x;
  const int64_t dims[] = {d};
  Tensor out = detail::fft_r2c(in, dims, norm_from_string(op, norm, forward), onesided);
  return forward ? out : out.conj();
}

// irfft (inverse) and hfft (forward: the transform of the conjugate).
Tensor c2r_1d(const char* op, const Tensor& self, std::optional<int64_t> n_opt, int64_t dim, NormArg norm,
              bool forward) {
  EMBER_VMAP_ON_FRONT(self, v, c2r_1d(op, v, n_opt, batching::fft_phys_dim(dim, self.dim(), op), norm, forward));
  EMBER_RECORD_OP(op, self);
  const Tensor x = promote(op, self, true);
  const int64_t d = wrap_dim(dim, x.dim(), op, false);
  const int64_t n = n_opt.value_or(2 * (x.size(d) - 1));
  check_n(op, n);
  Tensor in = resize_input(x, {d}, {n / 2 + 1});
  if (forward) in = in.conj();
  const int64_t dims[] = {d};
  return detail::fft_c2r(in, dims, norm_from_string(op, norm, forward), n);
}

// ---- n dimensions -----------------------------------------------------------

struct ShapeAndDims {
  DimVector shape, dims;
};

// PyTorch's canonicalize_fft_shape_and_dim_args: dims wrapped and unique;
// without dims, `s` names the last len(s) dims; -1 in `s` keeps that size.
ShapeAndDims canonicalize(const char* op, const Tensor& x, OptionalIntArrayRef s, OptionalIntArrayRef dim) {
  ShapeAndDims r;
  const int64_t nd = x.dim();
  if (dim) {
    for (int64_t d : *dim) r.dims.push_back(wrap_dim(d, nd, op, false));
    DimVector sorted = r.dims;
    std::sort(sorted.begin(), sorted.end());
    EMBER_CHECK(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end(), op, ": FFT dims must be unique, got ",
                shape_str(*dim));
  }
  if (s) {
    const int64_t ns = static_cast<int64_t>(s->size());
    if (!dim) {
      EMBER_CHECK(ns <= nd, op, ": Got shape with ", ns, " values but input tensor only has ", nd, " dimensions.");
      for (int64_t i = nd - ns; i < nd; ++i) r.dims.push_back(i);
    }
    EMBER_CHECK(static_cast<int64_t>(r.dims.size()) == ns, op,
                ": When given, dim and shape arguments must have the same length, got s ", shape_str(*s), " and dim ",
                shape_str(*dim));
    for (int64_t i = 0; i < ns; ++i) {
      const int64_t v = (*s)[i] == -1 ? x.size(r.dims[i]) : (*s)[i];
      check_n(op, v);
      r.shape.push_back(v);
    }
  } else {
    if (!dim)
      for (int64_t i = 0; i < nd; ++i) r.dims.push_back(i);
    for (int64_t d : r.dims) r.shape.push_back(x.size(d));
  }
  return r;
}

Tensor c2c_nd(const char* op, const Tensor& self, OptionalIntArrayRef s, OptionalIntArrayRef dim, NormArg norm,
              bool forward) {
  EMBER_VMAP_ON_FRONT(self, v, c2c_nd(op, v, s, batching::fft_phys_dims(op, self, s, dim), norm, forward));
  EMBER_RECORD_OP(op, self);
  const Tensor x = promote(op, self, true);
  const ShapeAndDims sd = canonicalize(op, x, s, dim);
  return detail::fft_c2c(resize_input(x, sd.dims, sd.shape), sd.dims, norm_from_string(op, norm, forward), forward);
}

Tensor rfftn_impl(const char* op, const Tensor& self, OptionalIntArrayRef s, OptionalIntArrayRef dim, NormArg norm) {
  EMBER_VMAP_ON_FRONT(self, v, rfftn_impl(op, v, s, batching::fft_phys_dims(op, self, s, dim), norm));
  EMBER_RECORD_OP(op, self);
  check_real(op, self);
  const Tensor x = promote(op, self, false);
  const ShapeAndDims sd = canonicalize(op, x, s, dim);
  EMBER_CHECK(!sd.dims.empty(), op, " must transform at least one axis");
  return detail::fft_r2c(resize_input(x, sd.dims, sd.shape), sd.dims, norm_from_string(op, norm, true), true);
}

Tensor irfftn_impl(const char* op, const Tensor& self, OptionalIntArrayRef s, OptionalIntArrayRef dim, NormArg norm) {
  EMBER_VMAP_ON_FRONT(self, v, irfftn_impl(op, v, s, batching::fft_phys_dims(op, self, s, dim), norm));
  EMBER_RECORD_OP(op, self);
  const Tensor x = promote(op, self, true);
  ShapeAndDims sd = canonicalize(op, x, s, dim);
  EMBER_CHECK(!sd.dims.empty(), op, " must transform at least one axis");
  const int64_t last = (s && s->back() != -1) ? sd.shape.back() : 2 * (x.size(sd.dims.back()) - 1);
  check_n(op, last);
  sd.shape.back() = last / 2 + 1;
  return detail::fft_c2r(resize_input(x, sd.dims, sd.shape), sd.dims, norm_from_string(op, norm, false), last);
}

}  // namespace

Tensor fft(const Tensor& self, std::optional<int64_t> n, int64_t dim, NormArg norm) {
  return self.defined() && self.is_complex() ? c2c_1d("fft_fft", self, n, dim, norm, true)
                                             : r2c_1d("fft_fft", self, n, dim, norm, true, false);
}
Tensor ifft(const Tensor& self, std::optional<int64_t> n, int64_t dim, NormArg norm) {
  return self.defined() && self.is_complex() ? c2c_1d("fft_ifft", self, n, dim, norm, false)
                                             : r2c_1d("fft_ifft", self, n, dim, norm, false, false);
}
Tensor rfft(const Tensor& self, std::optional<int64_t> n, int64_t dim, NormArg norm) {
  return r2c_1d("fft_rfft", self, n, dim, norm, true, true);
}
Tensor irfft(const Tensor& self, std::optional<int64_t> n, int64_t dim, NormArg norm) {
  return c2r_1d("fft_irfft", self, n, dim, norm, false);
}
Tensor hfft(const Tensor& self, std::optional<int64_t> n, int64_t dim, NormArg norm) {
  return c2r_1d("fft_hfft", self, n, dim, norm, true);
}
Tensor ihfft(const Tensor& self, std::optional<int64_t> n, int64_t dim, NormArg norm) {
  return r2c_1d("fft_ihfft", self, n, dim, norm, false, true);
}

Tensor fft2(const Tensor& self, OptionalIntArrayRef s, IntArrayRef dim, NormArg norm) {
  return c2c_nd("fft_fft2", self, s, dim, norm, true);
}
Tensor ifft2(const Tensor& self, OptionalIntArrayRef s, IntArrayRef dim, NormArg norm) {
  return c2c_nd("fft_ifft2", self, s, dim, norm, false);
}
Tensor rfft2(const Tensor& self, OptionalIntArrayRef s, IntArrayRef dim, NormArg norm) {
  return rfftn_impl("fft_rfft2", self, s, dim, norm);
}
Tensor irfft2(const Tensor& self, OptionalIntArrayRef s, IntArrayRef dim, NormArg norm) {
  return irfftn_impl("fft_irfft2", self, s, dim, norm);
}
Tensor fftn(const Tensor& self, OptionalIntArrayRef s, OptionalIntArrayRef dim, NormArg norm) {
  return c2c_nd("fft_fftn", self, s, dim, norm, true);
}
Tensor ifftn(const Tensor& self, OptionalIntArrayRef s, OptionalIntArrayRef dim, NormArg norm) {
  return c2c_nd("fft_ifftn", self, s, dim, norm, false);
}
Tensor rfftn(const Tensor& self, OptionalIntArrayRef s, OptionalIntArrayRef dim, NormArg norm) {
  return rfftn_impl("fft_rfftn", self, s, dim, norm);
}
Tensor irfftn(const Tensor& self, OptionalIntArrayRef s, OptionalIntArrayRef dim, NormArg norm) {
  return irfftn_impl("fft_irfftn", self, s, dim, norm);
}

}  // namespace torch::fft
