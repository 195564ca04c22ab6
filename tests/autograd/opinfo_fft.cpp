// OpInfo entries for ember::fft, stft and istft (formulas:
// ember/fft/fft_grad.cpp). Each entry runs on a real and a
// complex float64 sample where the op accepts both; sizes cover even, odd and
// prime lengths, padding and trimming with n/s, and every norm.
#include "opinfo.h"

namespace torch::testing {
namespace {

using Fn = std::function<Tensor(const Tensor&)>;

Tensor complex_sample(IntArrayRef shape, uint64_t seed) {
  return ember::complex(sample(shape, -2, 2, seed).detach(), sample(shape, -2, 2, seed + 1).detach()).requires_grad_();
}

// `real` / `cplx`: which sample kinds the op takes.
OpInfo op(const char* name, Fn f, std::vector<int64_t> shape, bool real, bool cplx, const char* grad_fn = "") {
  OpInfo o;
  o.name = name;
  o.fn = [f](const variable_list& x) { return variable_list{f(x[0])}; };
  o.samples = [=] {
    std::vector<variable_list> s;
    if (real) s.push_back({sample(shape, -2, 2, 501)});
    if (cplx) s.push_back({complex_sample(shape, 503)});
    return s;
  };
  o.grad_fn_name = grad_fn;
  return o;
}

namespace F = ember::fft;

RegisterOps reg({
    op(
        "fft.fft", [](const Tensor& x) { return F::fft(x); }, {3, 7}, true, true),
    op(
        "fft.fft(n pad, ortho)", [](const Tensor& x) { return F::fft(x, 9, 0, "ortho"); }, {5, 2}, true, true),
    op(
        "fft.fft(complex)", [](const Tensor& x) { return F::fft(x); }, {6}, false, true, "FftC2CBackward0"),
    op(
        "fft.ifft", [](const Tensor& x) { return F::ifft(x, 4, -1, "forward"); }, {2, 6}, true, true),
    op(
        "fft.rfft", [](const Tensor& x) { return F::rfft(x); }, {2, 8}, true, false, "FftR2CBackward0"),
    op(
        "fft.rfft(odd, trim)", [](const Tensor& x) { return F::rfft(x, 5, 0, "ortho"); }, {7, 2}, true, false),
    op(
        "fft.irfft", [](const Tensor& x) { return F::irfft(x); }, {2, 5}, false, true, "FftC2RBackward0"),
    op(
        "fft.irfft(odd n)", [](const Tensor& x) { return F::irfft(x, 7, -1, "ortho"); }, {4}, false, true),
    op(
        "fft.hfft", [](const Tensor& x) { return F::hfft(x, 6); }, {3, 4}, false, true),
    op(
        "fft.ihfft", [](const Tensor& x) { return F::ihfft(x, std::nullopt, 0); }, {5, 2}, true, false),
    op(
        "fft.fft2", [](const Tensor& x) { return F::fft2(x); }, {3, 4}, true, true),
    op(
        "fft.ifft2(s)",
        [](const Tensor& x) {
          return F::ifft2(x, IntArrayRef{2, 5});
        },
        {3, 4}, false, true),
    op(
        "fft.rfft2",
        [](const Tensor& x) {
          return F::rfft2(x, std::nullopt, {0, 1}, "forward");
        },
        {4, 5}, true, false),
    op(
        "fft.irfft2", [](const Tensor& x) { return F::irfft2(x); }, {3, 3}, false, true),
    op(
        "fft.fftn",
        [](const Tensor& x) {
          return F::fftn(x, std::nullopt, IntArrayRef{0, 2});
        },
        {3, 2, 4}, true, true),
    op(
        "fft.ifftn", [](const Tensor& x) { return F::ifftn(x); }, {2, 3, 2}, false, true),
    op(
        "fft.rfftn",
        [](const Tensor& x) {
          return F::rfftn(x, IntArrayRef{3, 4});
        },
        {2, 3, 5}, true, false),
    op(
        "fft.irfftn",
        [](const Tensor& x) {
          return F::irfftn(x, IntArrayRef{3, 5}, std::nullopt, "ortho");
        },
        {2, 3, 3}, false, true),
    op(
        "fft.fftshift", [](const Tensor& x) { return F::fftshift(x); }, {3, 4}, true, true),
    op(
        "fft.ifftshift", [](const Tensor& x) { return F::ifftshift(x, IntArrayRef{1}); }, {3, 5}, true, false),
    op(
        "stft",
        [](const Tensor& x) {
          return ember::stft(x, 8, 3, 6, ember::hann_window(6, TensorOptions(kDouble)), true, "reflect", false,
                             std::nullopt, true);
        },
        {2, 20}, true, true),
    op(
        "stft(normalized, constant pad, no window)",
        [](const Tensor& x) { return ember::stft(x, 6, 2, std::nullopt, {}, true, "constant", true, false, true); },
        {15}, true, false),
    op(
        "istft",
        [](const Tensor& x) {
          return ember::istft(x, 8, 2, std::nullopt, ember::hann_window(8, TensorOptions(kDouble)), true, false,
                              std::nullopt, 14);
        },
        {5, 7}, false, true),
});

// The window's gradient: stft(x, window) differentiated in both arguments.
OpInfo stft_window() {
  OpInfo o;
  o.name = "stft(window grad)";
  o.fn = [](const variable_list& x) {
    return variable_list{ember::stft(x[0], 8, 4, std::nullopt, x[1], false, std::nullopt, true)};
  };
  o.samples = [] { return std::vector<variable_list>{{sample({24}, -2, 2, 505), sample({8}, 0, 1, 506)}}; };
  return o;
}
RegisterOps reg_window({stft_window()});

}  // namespace
}  // namespace torch::testing
