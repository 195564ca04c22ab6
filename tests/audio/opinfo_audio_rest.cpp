// OpInfo entries for the losses and beamforming of ember::audio: the binary's
// generic walks run gradcheck (and gradgradcheck where marked) in float64.
// rnnt_loss's gradient is computed in its forward pass as torchaudio's is
// (Note [RNN-T gradient]), so it is differentiable once: gradgrad = false, as
// torchaudio's (whose backward is not differentiable either).
#include "autograd/opinfo.h"
#include "ember/audio/functional/rnnt.h"

namespace torch::testing {
namespace {

namespace AF = ::torch::audio::functional;

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

RegisterOps reg({
    rnnt("audio::functional::rnnt_loss(none)", -1, true, "none"),
    rnnt("audio::functional::rnnt_loss(mean)", -1, true, "mean"),
    rnnt("audio::functional::rnnt_loss(fused_log_softmax=false, sum)", -1, false, "sum"),
});

}  // namespace
}  // namespace torch::testing
