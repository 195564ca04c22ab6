// OpInfo entries for the losses and beamforming of ember::audio: the binary's
// generic walks run gradcheck (and gradgradcheck where marked) in float64.
// rnnt_loss's gradient is computed in its forward pass as torchaudio's is
// (Note [RNN-T gradient]), so it is differentiable once: gradgrad = false, as
// torchaudio's (whose backward is not differentiable either).
#include "autograd/opinfo.h"
#include "ember/audio/functional/beamforming.h"
#include "ember/audio/functional/filtering.h"
#include "ember/audio/functional/rnnt.h"

namespace torch::testing {
namespace {

namespace AF = ::torch::audio::functional;
using Shapes = std::vector<std::vector<int64_t>>;

Tensor ints(std::vector<int64_t> v, std::vector<int64_t> shape) {
  return tensor(v, TensorOptions(kInt)).reshape(shape);
}

OpInfo rnnt(const char* name, double clamp, bool fused, const char* reduction) {
  OpInfo info = single_output_op(
      name,
      [clamp, fused, reduction](const variable_list& x) {
        return AF::rnnt_loss(x[0], ints({1, 2, 0, 3, 0, 0}, {2, 3}), ints({4, 3}, {2}), ints({3, 1}, {2}), -1, clamp,
                             reduction, fused);
      },
      {{2, 4, 4, 5}}, -2, 2, 5101);
  info.gradgrad = false;
  info.forward_ad = false;
  return info;
}

// Beamforming entries take real and imaginary parts (and a real mask) and
// return view_as_real of the complex result; the PSD matrices are built from
// the inputs so they are Hermitian positive definite.
Tensor cplx(const variable_list& x) { return complex(x[0], x[1]); }
Tensor psd_s(const Tensor& spec, const Tensor& m) { return AF::psd(spec, m); }
Tensor psd_n(const Tensor& spec, const Tensor& m) { return AF::psd(spec, 1 - m); }

OpInfo beam(const char* name, std::function<Tensor(const Tensor&, const Tensor&)> f) {
  return single_output_op(
      name,
      [f](const variable_list& x) {
        // mask in (0.1, 0.9) from the third input in [-1, 1).
        return view_as_real(f(cplx(x), x[2] * 0.4 + 0.5));
      },
      {{1, 2, 2, 5}, {1, 2, 2, 5}, {1, 2, 5}}, -1, 1, 5201);
}

// flanger and phaser: delay lines whose backward is the transposed line
// (Note [Delay-line gradients] in filtering.cpp); no forward-mode rule.
OpInfo delay_line(const char* name, std::function<Tensor(const variable_list&)> f, Shapes shapes) {
  OpInfo info = single_output_op(name, std::move(f), std::move(shapes), -0.3, 0.3, 5301);
  info.forward_ad = false;
  return info;
}

RegisterOps reg({
    rnnt("audio::functional::rnnt_loss(none)", -1, true, "none"),
    rnnt("audio::functional::rnnt_loss(mean)", -1, true, "mean"),
    rnnt("audio::functional::rnnt_loss(fused_log_softmax=false, sum)", -1, false, "sum"),
    delay_line("audio::functional::flanger",
               [](const variable_list& x) { return AF::flanger(x[0], 4000, 0.5, 1.0, 30.0, 71.0, 60.0); },
               {{1, 2, 16}}),
    delay_line("audio::functional::flanger(triangular, quadratic, negative regen)",
               [](const variable_list& x) {
                 return AF::flanger(x[0], 4000, 0.0, 1.5, -40.0, 50.0, 90.0, 60.0, "triangular", "quadratic");
               },
               {{2, 1, 14}}),
    delay_line("audio::functional::phaser",
               [](const variable_list& x) { return AF::phaser(x[0], 2000, 0.6, 0.9, 3.0, 0.6, 40.0); }, {{2, 20}}),
    delay_line("audio::functional::phaser(triangular)",
               [](const variable_list& x) { return AF::phaser(x[0], 2000, 0.6, 0.9, 2.0, 0.5, 60.0, false); },
               {{1, 18}}),
    beam("audio::functional::psd(mask)", [](const Tensor& x, const Tensor& m) { return AF::psd(x, m); }),
    beam("audio::functional::psd(mask, normalize=false)",
         [](const Tensor& x, const Tensor& m) { return AF::psd(x, m, false); }),
    beam("audio::functional::mvdr_weights_souden",
         [](const Tensor& x, const Tensor& m) { return AF::mvdr_weights_souden(psd_s(x, m), psd_n(x, m), 1); }),
    beam("audio::functional::mvdr_weights_rtf(rtf_power)",
         [](const Tensor& x, const Tensor& m) {
           Tensor n = psd_n(x, m);
           return AF::mvdr_weights_rtf(AF::rtf_power(psd_s(x, m), n, 0), n, 0);
         }),
    beam("audio::functional::rtf_power(n_iter=1)",
         [](const Tensor& x, const Tensor& m) { return AF::rtf_power(psd_s(x, m), psd_n(x, m), 1, 1); }),
    // Eigenvectors are defined up to a phase: |v| is the gauge-free part.
    beam("audio::functional::rtf_evd(abs)",
         [](const Tensor& x, const Tensor& m) {
           return complex(AF::rtf_evd(psd_s(x, m)).abs(), zeros({1, 2, 2}, TensorOptions(kDouble)));
         }),
    beam("audio::functional::apply_beamforming",
         [](const Tensor& x, const Tensor& m) {
           return AF::apply_beamforming(AF::mvdr_weights_souden(psd_s(x, m), psd_n(x, m), 0), x);
         }),
});

}  // namespace
}  // namespace torch::testing
