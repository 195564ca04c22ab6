// rnnt_loss and RNNTLoss against torchaudio 0.13 (tools/golden/gen_audio_rnnt.py):
// the loss and torchaudio's gradient w.r.t. the logits.
#include <gtest/gtest.h>

#include <string>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/audio/functional/rnnt.h"
#include "ember/audio/transforms/rnnt.h"
#include "ember/torch.h"

namespace torch::testing {
namespace {

namespace AF = ::torch::audio::functional;
namespace AT = ::torch::audio::transforms;

const Golden& golden() {
  static const Golden g("audio_rnnt.golden");
  return g;
}
Tensor G(const std::string& name) { return golden()[name]; }

// Runs the case `name` with the given keywords and checks loss and gradient.
void check_case(const std::string& name, int64_t blank, double clamp, const std::string& reduction, bool fused = true,
                ScalarType dtype = kFloat) {
  SCOPED_TRACE(name);
  Tensor x = G(name + ".logits").to(dtype).clone().requires_grad_(true);
  Tensor loss = AF::rnnt_loss(x, G(name + ".targets"), G(name + ".logit_lengths"), G(name + ".target_lengths"), blank,
                              clamp, reduction, fused);
  EXPECT_EQ(loss.scalar_type(), dtype);
  EXPECT_TENSOR_CLOSE_TOL(loss.to(kFloat), G(name + ".loss"), 1e-4, 1e-4);
  loss.sum().backward();
  EXPECT_TENSOR_CLOSE_TOL(x.grad().to(kFloat), G(name + ".grad"), 1e-4, 1e-5);
}

TEST(AudioRnntLoss, MatchesTorchaudio) {
  check_case("none", -1, -1, "none");
  check_case("mean", -1, -1, "mean");
  check_case("sum", -1, -1, "sum");
  check_case("clamp", -1, 0.05, "none");
  check_case("clamp_mean", -1, 0.2, "mean");
  check_case("blank0", 0, -1, "sum");
  check_case("full", -1, -1, "none");
  check_case("empty_target", -1, -1, "none");
  check_case("unfused", -1, -1, "none", false);
}

TEST(AudioRnntLoss, Float64) {
  check_case("none", -1, -1, "none", true, kDouble);
  check_case("clamp", -1, 0.05, "none", true, kDouble);
}

TEST(AudioRnntLoss, Int64LengthsAndNoGrad) {
  Tensor loss = AF::rnnt_loss(G("none.logits"), G("none.targets").to(kLong), G("none.logit_lengths").to(kLong),
                              G("none.target_lengths").to(kLong), -1, -1, "none");
  EXPECT_TENSOR_CLOSE_TOL(loss, G("none.loss"), 1e-4, 1e-4);
}

TEST(AudioRnntLoss, Module) {
  AT::RNNTLoss m(AT::RNNTLossOptions().clamp(0.2));
  Tensor x = G("clamp_mean.logits").clone().requires_grad_(true);
  Tensor loss = m(x, G("clamp_mean.targets"), G("clamp_mean.logit_lengths"), G("clamp_mean.target_lengths"));
  EXPECT_TENSOR_CLOSE_TOL(loss, G("clamp_mean.loss"), 1e-4, 1e-4);
  loss.backward();
  EXPECT_TENSOR_CLOSE_TOL(x.grad(), G("clamp_mean.grad"), 1e-4, 1e-5);
  EXPECT_EMBER_ERROR(AT::RNNTLoss(AT::RNNTLossOptions().reduction("avg")), "RNNTLoss", "avg");
  // Python's positional form: RNNTLoss(blank, clamp, reduction).
  AT::RNNTLoss positional(0, -1, "sum");
  Tensor b = positional(G("blank0.logits"), G("blank0.targets"), G("blank0.logit_lengths"), G("blank0.target_lengths"));
  EXPECT_TENSOR_CLOSE_TOL(b, G("blank0.loss"), 1e-4, 1e-4);
}

TEST(AudioRnntLoss, BadArguments) {
  Tensor x = G("none.logits"), y = G("none.targets"), tl = G("none.logit_lengths"), ul = G("none.target_lengths");
  EXPECT_EMBER_ERROR(AF::rnnt_loss(x[0], y, tl, ul), "rnnt_loss", "4-D");
  EXPECT_EMBER_ERROR(AF::rnnt_loss(x, y.flatten(), tl, ul), "rnnt_loss", "2-D");
  EXPECT_EMBER_ERROR(AF::rnnt_loss(x, y, tl.slice(0, 0, 2), ul), "rnnt_loss", "logit_lengths");
  EXPECT_EMBER_ERROR(AF::rnnt_loss(x, y, tl.to(kFloat), ul), "rnnt_loss", "int32");
  EXPECT_EMBER_ERROR(AF::rnnt_loss(x, y, tl + 1, ul), "rnnt_loss", "input length mismatch");
  EXPECT_EMBER_ERROR(AF::rnnt_loss(x, y, tl, ul - 1), "rnnt_loss", "output length mismatch");
  EXPECT_EMBER_ERROR(AF::rnnt_loss(x, y, tl, ul, 6), "rnnt_loss", "blank", "6");
  EXPECT_EMBER_ERROR(AF::rnnt_loss(x, y + 7, tl, ul), "rnnt_loss", "targets[0][0]");
  EXPECT_EMBER_ERROR(AF::rnnt_loss(x, y, tl, ul, -1, -1, "avg"), "rnnt_loss", "avg");
  EXPECT_EMBER_ERROR(AF::rnnt_loss(x.to(kLong), y, tl, ul), "rnnt_loss", "float32");
  EXPECT_EMBER_ERROR(AF::rnnt_loss(x, y, tl * 0 + tensor({5, 0, 4}, TensorOptions(kInt)), ul), "rnnt_loss",
                     "logit_lengths[1]");
}

}  // namespace
}  // namespace torch::testing
