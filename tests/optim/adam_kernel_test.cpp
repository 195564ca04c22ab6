// The fused Adam update (Note [Fused Adam step]) against the composite it
// replaces, written out here op by op, and the cases it must leave to the
// composite. The 20-step trajectories against PyTorch (optimizer_golden_test)
// run through the fused path as well.
#include <cmath>

#include "common/test_util.h"
#include "ember/autograd/grad_mode.h"
#include "ember/optim/adam_kernel.h"
#include "ember/torch.h"

namespace torch {
namespace {

using optim::detail::adam_update_fused;
using optim::detail::AdamCoefficients;

struct State {
  Tensor p, g, m, v, vmax;
  State clone() const { return {p.clone(), g.clone(), m.clone(), v.clone(), vmax.defined() ? vmax.clone() : Tensor()}; }
};

State random_state(ScalarType dt, bool amsgrad, int64_t n) {
  State s{randn({n}, dt), randn({n}, dt), randn({n}, dt) * 0.1, rand({n}, dt) * 0.01, Tensor()};
  if (amsgrad) s.vmax = rand({n}, dt) * 0.01;
  return s;
}

void composite(State& s, const AdamCoefficients& c) {
  s.m.mul_(c.beta1).add_(s.g, 1 - c.beta1);
  s.v.mul_(c.beta2).addcmul_(s.g, s.g, 1 - c.beta2);
  Tensor denom;
  if (s.vmax.defined()) {
    maximum_out(s.vmax, s.vmax, s.v);
    denom = s.vmax.sqrt().div_(c.bias_correction2_sqrt).add_(c.eps);
  } else {
    denom = s.v.sqrt().div_(c.bias_correction2_sqrt).add_(c.eps);
  }
  s.p.addcdiv_(s.m, denom, -c.step_size);
}

TEST(FusedAdam, MatchesTheComposite) {
  NoGradGuard no_grad;
  manual_seed(5);
  const AdamCoefficients c{0.9, 0.999, 1e-8, 1e-3 / (1 - 0.9 * 0.9), std::sqrt(1 - 0.999 * 0.999)};
  for (const ScalarType dt : {kFloat, kDouble})
    for (const bool amsgrad : {false, true}) {
      SCOPED_TRACE(std::string(dtype_name(dt)) + (amsgrad ? " amsgrad" : ""));
      // Large enough to split across threads; a NaN gradient must reach p, m and v.
      State fused = random_state(dt, amsgrad, 100003);
      fused.g[17] = std::nan("");
      State ref = fused.clone();
      const Tensor before = fused.p.clone();
      const uint32_t version = fused.p._version();
      ASSERT_TRUE(adam_update_fused(fused.p, fused.g, fused.m, fused.v, fused.vmax, c));
      composite(ref, c);
      EXPECT_GT(fused.p._version(), version);
      // Equal up to the square root's rounding (one ulp of the denominator).
      const double rtol = dt == kFloat ? 1e-6 : 1e-14;
      EXPECT_TRUE(allclose(fused.p, ref.p, rtol, 0, /*equal_nan=*/true));
      EXPECT_TRUE(equal(fused.m.isnan(), ref.m.isnan()));
      EXPECT_TRUE(allclose(fused.m, ref.m, 0, 0, true));
      EXPECT_TRUE(allclose(fused.v, ref.v, 0, 0, true));
      if (amsgrad) EXPECT_TRUE(allclose(fused.vmax, ref.vmax, 0, 0, true));
      EXPECT_TRUE(fused.p[17].isnan().item<bool>());
      EXPECT_FALSE(allclose(fused.p.narrow(0, 0, 17), before.narrow(0, 0, 17)));  // the step moved p
    }
}

TEST(FusedAdam, LeavesOtherLayoutsToTheComposite) {
  NoGradGuard no_grad;
  const AdamCoefficients c{0.9, 0.999, 1e-8, 1e-3, 1.0};
  State s = random_state(kFloat, false, 12);
  const Tensor before = s.p.clone();
  // Non-contiguous parameter, mixed dtypes, an integer dtype, aliasing and mismatched sizes.
  Tensor pt = randn({3, 4}).t();
  EXPECT_FALSE(adam_update_fused(pt, s.g.view({4, 3}), s.m.view({4, 3}), s.v.view({4, 3}), Tensor(), c));
  EXPECT_FALSE(adam_update_fused(s.p, s.g.to(kDouble), s.m, s.v, Tensor(), c));
  Tensor ip = zeros({12}, kLong);
  EXPECT_FALSE(adam_update_fused(ip, ip, ip, ip, Tensor(), c));
  EXPECT_FALSE(adam_update_fused(s.p, s.p, s.m, s.v, Tensor(), c));
  EXPECT_FALSE(adam_update_fused(s.p, s.g, s.m.narrow(0, 0, 6), s.v, Tensor(), c));
  EXPECT_TRUE(equal(s.p, before));
}

TEST(FusedAdam, LeavesRecordedUpdatesToTheComposite) {
  const AdamCoefficients c{0.9, 0.999, 1e-8, 1e-3, 1.0};
  State s = random_state(kDouble, false, 8);
  s.p.requires_grad_();
  EXPECT_FALSE(adam_update_fused(s.p, s.g, s.m, s.v, Tensor(), c));  // grad mode on: the update would be recorded
  NoGradGuard no_grad;
  EXPECT_TRUE(adam_update_fused(s.p, s.g, s.m, s.v, Tensor(), c));
}

}  // namespace
}  // namespace torch
