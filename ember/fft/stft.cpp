// stft / istft following ATen's SpectralOps.cpp step by step. Note [Fused stft]:
// when no gradient is needed and the input is real and onesided, the framing,
// the window product and the rfft run in one pass (detail::framed_rfft)
// instead of unfold -> mul -> rfft, which saves two full copies of the frames.
#include "ember/fft/stft.h"
#include "ember/core/record_scope.h"

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
#include "ember/fft/kernel.h"
#include "ember/fft/primitives.h"
#include "ember/linalg/batching_rules.h"
#include "ember/ops/all_ops.h"
#include "ember/vmap/vmap.h"

namespace torch {

using fft::detail::Norm;

namespace {

// A window of win_length centred in n_fft samples (zeros around), or the window itself.
Tensor centred_window(const Tensor& window, int64_t n_fft, int64_t win_length) {
  if (!window.defined() || win_length == n_fft) return window;
  const int64_t left = (n_fft - win_length) / 2;
  return constant_pad_nd(window, {left, n_fft - win_length - left}, 0);
}

void check_window(const char* op, const Tensor& window, int64_t win_length) {
  if (!window.defined()) return;
  EMBER_CHECK(window.dim() == 1 && window.size(0) == win_length, op,
              ": expected a 1D window tensor of size equal to win_length=", win_length, ", but got window with size ",
              shape_str(window.sizes()));
}

// frames [B, F, n] summed into [B, length] at positions f * hop + k (differentiable through index_add).
Tensor overlap_add(const Tensor& frames, int64_t length, int64_t hop) {
  const int64_t b = frames.size(0), f = frames.size(1), n = frames.size(2);
  Tensor pos =
      (arange(f, TensorOptions(kLong)).view({f, 1}) * hop + arange(n, TensorOptions(kLong)).view({1, n})).reshape({-1});
  return zeros({b, length}, frames.options()).index_add(1, pos, frames.reshape({b, f * n}));
}

Tensor stft_impl(const Tensor& self, int64_t n_fft, std::optional<int64_t> hop_opt, std::optional<int64_t> win_opt,
                 const std::optional<Tensor>& window_opt, bool center, std::string_view pad_mode, bool normalized,
                 std::optional<bool> onesided_opt, std::optional<bool> return_complex_opt) {
  if (batching::any_batched(self, window_opt)) [[unlikely]]
    return batching::stft_batched(self, window_opt, [&](const Tensor& v) {
      return stft_impl(v, n_fft, hop_opt, win_opt, window_opt, center, pad_mode, normalized, onesided_opt,
                       return_complex_opt);
    });
  EMBER_RECORD_OP("stft", self);
  const char* op = "stft";
  EMBER_CHECK(self.defined(), op, ": expected a defined tensor");
  const Tensor window = window_opt.value_or(Tensor());
  const bool complex_in = self.is_complex() || (window.defined() && window.is_complex());
  EMBER_CHECK(return_complex_opt.has_value() || complex_in, op,
              ": requires the return_complex parameter be given for real inputs (got a ", dtype_name(self.dtype()),
              " input)");
  const bool return_complex = return_complex_opt.value_or(true);
  EMBER_CHECK(self.dim() == 1 || self.dim() == 2, op, ": expected a 1D or 2D tensor, but got a tensor of size ",
              shape_str(self.sizes()));
  ScalarType t = self.dtype();
  if (!is_floating_point(t) && !is_complex(t)) t = get_default_dtype();
  EMBER_CHECK(t == kFloat || t == kDouble || t == kComplexFloat || t == kComplexDouble, op,
              ": expected a float32, float64, complex64 or complex128 input, got ", dtype_name(t));
  Tensor x = self.to(t);
  if (x.dim() == 1) x = x.unsqueeze(0);
  if (center) {
    const int64_t p = n_fft / 2;
    Tensor x3 = x.unsqueeze(0);  // [1, B, L]: pad's 1-d modes take a 3-d input
    x3 = pad_mode == "constant" ? constant_pad_nd(x3, {p, p}, 0) : pad(x3, {p, p}, pad_mode);
    x = x3.squeeze(0);
  }
  const int64_t len = x.size(1);
  const int64_t hop = hop_opt.value_or(n_fft / 4), win_length = win_opt.value_or(n_fft);
  EMBER_CHECK(n_fft > 0 && n_fft <= len, op, ": expected 0 < n_fft <= ", len, ", but got n_fft=", n_fft);
  EMBER_CHECK(hop > 0, op, ": expected hop_length > 0, but got hop_length=", hop);
  EMBER_CHECK(win_length > 0 && win_length <= n_fft, op,
              ": expected 0 < win_length <= n_fft, but got win_length=", win_length);
  check_window(op, window, win_length);
  Tensor w = centred_window(window, n_fft, win_length);
  if (!w.defined() && win_length < n_fft)
    w = centred_window(ones({win_length}, TensorOptions(to_real_type(t))), n_fft, win_length);
  const bool onesided = onesided_opt.value_or(!complex_in);
  EMBER_CHECK(!(complex_in && onesided), op, ": Cannot have onesided output if window or input is complex");
  const Norm norm = normalized ? Norm::ByRootN : Norm::None;
  const int64_t frames = 1 + (len - n_fft) / hop;

  Tensor out;
  const bool fused = !complex_in && onesided && !autograd::needs_grad(x, w) && (!w.defined() || w.dtype() == t);
  if (fused) {
    out = empty({x.size(0), frames, n_fft / 2 + 1}, TensorOptions(to_complex_type(t)));
    const Tensor xc = x.contiguous(), wc = w.defined() ? w.contiguous() : w;
    fft::detail::framed_rfft(xc, wc, out, n_fft, hop, fft::detail::norm_scale(norm, n_fft));
  } else {
    Tensor f = x.unfold(1, n_fft, hop);  // [B, frames, n_fft]
    if (w.defined()) f = f * w;
    const int64_t dims[] = {2};
    out = complex_in ? fft::detail::fft_c2c(f.to(to_complex_type(f.dtype())), dims, norm, true)
                     : fft::detail::fft_r2c(f, dims, norm, onesided);
  }
  out = out.transpose(1, 2);
  if (self.dim() == 1) out = out.squeeze(0);
  return return_complex ? out : view_as_real(out);
}

}  // namespace

Tensor stft(const Tensor& self, int64_t n_fft, std::optional<int64_t> hop_length, std::optional<int64_t> win_length,
            const std::optional<Tensor>& window, bool normalized, std::optional<bool> onesided,
            std::optional<bool> return_complex) {
  return stft_impl(self, n_fft, hop_length, win_length, window, false, "constant", normalized, onesided,
                   return_complex);
}

Tensor stft(const Tensor& self, int64_t n_fft, std::optional<int64_t> hop_length, std::optional<int64_t> win_length,
            const std::optional<Tensor>& window, bool center, std::string_view pad_mode, bool normalized,
            std::optional<bool> onesided, std::optional<bool> return_complex) {
  return stft_impl(self, n_fft, hop_length, win_length, window, center, pad_mode, normalized, onesided, return_complex);
}

Tensor istft(const Tensor& self, int64_t n_fft, std::optional<int64_t> hop_length, std::optional<int64_t> win_length,
             const std::optional<Tensor>& window_opt, bool center, bool normalized, std::optional<bool> onesided_opt,
             std::optional<int64_t> length, bool return_complex) {
  if (batching::any_batched(self, window_opt)) [[unlikely]]
    return batching::istft_batched(self, window_opt, [&](const Tensor& v) {
      return istft(v, n_fft, hop_length, win_length, window_opt, center, normalized, onesided_opt, length,
                   return_complex);
    });
  EMBER_RECORD_OP("istft", self);
  const char* op = "istft";
  EMBER_CHECK(self.defined(), op, ": expected a defined tensor");
  EMBER_CHECK(self.is_complex(), op, ": requires a complex-valued input tensor, got ", dtype_name(self.dtype()));
  EMBER_CHECK(self.dim() == 2 || self.dim() == 3, op,
              ": expected a tensor with 2 or 3 dimensions of complex values, but got a tensor of size ",
              shape_str(self.sizes()));
  const Tensor window = window_opt.value_or(Tensor());
  const int64_t hop = hop_length.value_or(n_fft / 4), win = win_length.value_or(n_fft);
  const Tensor x = self.dim() == 2 ? self.unsqueeze(0) : self;  // [B, fft_size, frames]
  const int64_t fft_size = x.size(1), n_frames = x.size(2);
  const bool onesided = onesided_opt.value_or(fft_size != n_fft);
  if (onesided) {
    EMBER_CHECK(n_fft / 2 + 1 == fft_size, op,
                ": expected the frequency dimension (3rd to the last) of the input tensor to match n_fft / 2 + 1 = ",
                n_fft / 2 + 1, " when onesided=True, but got ", fft_size);
  } else {
    EMBER_CHECK(n_fft == fft_size, op,
                ": expected the frequency dimension (3rd to the last) of the input tensor to match n_fft = ", n_fft,
                " when onesided=False, but got ", fft_size);
  }
  EMBER_CHECK(hop > 0 && hop <= win, op, ": expected 0 < hop_length <= win_length, but got hop_length=", hop,
              " and win_length=", win);
  EMBER_CHECK(win > 0 && win <= n_fft, op, ": expected 0 < win_length <= n_fft, but got win_length=", win,
              " and n_fft=", n_fft);
  EMBER_CHECK(n_frames > 0, op, ": expected at least one frame, got an input of size ", shape_str(self.sizes()));
  check_window(op, window, win);
  const ScalarType real_t = to_real_type(self.dtype());
  Tensor w = centred_window(window.defined() ? window : ones({win}, TensorOptions(real_t)), n_fft, win);

  Tensor frames = x.transpose(1, 2);  // [B, frames, fft_size]
  const Norm norm = normalized ? Norm::ByRootN : Norm::ByN;
  const int64_t dims[] = {2};
  if (return_complex) {
    EMBER_CHECK(!onesided, op, ": Cannot have onesided output if window or input is complex");
    frames = fft::detail::fft_c2c(frames, dims, norm, false);
  } else {
    EMBER_CHECK(!w.is_complex(), op, ": Complex windows are incompatible with return_complex=False");
    if (!onesided) frames = frames.narrow(2, 0, n_fft / 2 + 1);
    frames = fft::detail::fft_c2r(frames, dims, norm, n_fft);
  }
  const int64_t expected = n_fft + hop * (n_frames - 1);
  Tensor y = overlap_add(frames * w.view({1, 1, n_fft}), expected, hop);
  Tensor env = overlap_add(w.pow(2).view({1, 1, n_fft}).expand({1, n_frames, n_fft}), expected, hop);
  const int64_t start = center ? n_fft / 2 : 0;
  const int64_t end = length ? start + *length : (center ? expected - n_fft / 2 : expected);
  const int64_t stop = std::min(std::max(end, start), expected);
  y = y.slice(1, start, stop);
  env = env.slice(1, start, stop);
  if (env.numel() > 0) {
    const double lowest = env.abs().min().item().toDouble();
    EMBER_CHECK(lowest > 1e-11, op, ": window overlap add min: ", lowest,
                " (the squared window summed over the frames must be nonzero at every output sample)");
  }
  y = y / env;
  if (end > expected) y = constant_pad_nd(y, {0, end - expected}, 0);
  return self.dim() == 2 ? y.squeeze(0) : y;
}

}  // namespace torch
