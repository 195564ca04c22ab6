// Softmax rows, max-pool rows, Philox draws and the lane-parallel FFT at every CPU
// capability the machine has (Note [CPU capability]), against float64 results or the
// portable loops' exact results.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "common/test_util.h"
#include "ember/kernels/cpu/philox.h"
#include "ember/torch.h"
#include "kernels/isa_levels.h"

using namespace ember_test;
using torch::Tensor;

namespace {
std::string name(CpuCapability c) { return ember::kernels::cpu_capability_name(c); }
}  // namespace

TEST(IsaKernels, SoftmaxRowsMatchFloat64AtEveryLevel) {
  torch::manual_seed(11);
  for (int64_t n : {1, 5, 8, 13, 16, 31, 33, 100, 1000}) {
    const Tensor x = torch::randn({6, n}) * 4;
    Tensor ref, lref;
    {
      AtLevel scalar(CpuCapability::Default);
      ref = torch::softmax(x.to(torch::kDouble), -1);
      lref = torch::log_softmax(x.to(torch::kDouble), -1);
    }
    for (CpuCapability level : isa_levels()) {
      SCOPED_TRACE("n " + std::to_string(n) + " at " + name(level));
      AtLevel at(level);
      EXPECT_TENSOR_CLOSE_TOL(torch::softmax(x, -1).to(torch::kDouble), ref, 2e-6, 1e-9);
      EXPECT_TENSOR_CLOSE_TOL(torch::log_softmax(x, -1).to(torch::kDouble), lref, 1e-5, 2e-6);
    }
  }
}

TEST(IsaKernels, SoftmaxNanAndInfRowsAsThePortableLoop) {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  Tensor x = torch::randn({4, 21});
  x[0][3] = nan;
  x[1][20] = inf;
  x[2].fill_(-inf);
  x[3][9] = -inf;
  Tensor ref, lref;
  {
    AtLevel scalar(CpuCapability::Default);
    ref = torch::softmax(x, -1);
    lref = torch::log_softmax(x, -1);
  }
  for (CpuCapability level : isa_levels()) {
    SCOPED_TRACE(name(level));
    AtLevel at(level);
    EXPECT_TENSOR_CLOSE_TOL(torch::softmax(x, -1), ref, 2e-6, 1e-9);
    EXPECT_TENSOR_CLOSE_TOL(torch::log_softmax(x, -1), lref, 1e-5, 2e-6);
  }
}

TEST(IsaKernels, MaxPoolRowsEqualThePortableLoopAtEveryLevel) {
  struct Case {
    std::vector<int64_t> size, kernel, stride;
  };
  const std::vector<Case> cases = {
      {{2, 3, 16, 16}, {2, 2}, {2, 2}}, {{1, 2, 14, 14}, {2, 2}, {2, 2}}, {{1, 2, 35, 37}, {3, 3}, {2, 2}},
      {{2, 2, 9, 19}, {3, 3}, {1, 1}},  {{1, 3, 10, 50}, {2, 3}, {1, 3}}, {{1, 1, 6, 9}, {1, 2}, {1, 1}},
  };
  torch::manual_seed(5);
  for (const Case& c : cases) {
    Tensor x = torch::randn(c.size);
    Tensor flat = x.view({-1});
    for (int64_t i = 7; i < flat.numel(); i += 29) flat[i] = std::numeric_limits<float>::quiet_NaN();
    Tensor v0, i0, g0;
    {
      AtLevel scalar(CpuCapability::Default);
      std::tie(v0, i0) = torch::max_pool2d_with_indices(x, c.kernel, c.stride);
      Tensor xr = x.clone().requires_grad_(true);
      torch::max_pool2d(xr, c.kernel, c.stride).sum().backward();
      g0 = xr.grad();
    }
    for (CpuCapability level : isa_levels()) {
      SCOPED_TRACE(::testing::PrintToString(c.size) + " k" + ::testing::PrintToString(c.kernel) + " at " + name(level));
      AtLevel at(level);
      auto [v, i] = torch::max_pool2d_with_indices(x, c.kernel, c.stride);
      EXPECT_TENSOR_EQ(v, v0);
      EXPECT_TRUE(torch::equal(i, i0));
      // The training path keeps one-byte window positions (Note [Max pooling positions]).
      Tensor xr = x.clone().requires_grad_(true);
      torch::max_pool2d(xr, c.kernel, c.stride).sum().backward();
      EXPECT_TENSOR_EQ(xr.grad(), g0);
    }
  }
}

TEST(IsaKernels, PhiloxDrawsEqualThePortableOnesAtEveryLevel) {
  const uint64_t key = 0x0123456789abcdefull, stream = 0xfedcba9876543210ull;
  // Whole and partial groups, runs of four groups, and counters whose low word wraps.
  const std::vector<std::pair<int64_t, int64_t>> runs = {
      {0, 4096}, {3, 1000}, {64, 300}, {(int64_t(1) << 38) - 700, 1500}};
  for (const auto& [first, n] : runs) {
    std::vector<uint32_t> want(static_cast<size_t>(n));
    {
      AtLevel scalar(CpuCapability::Default);
      ember::kernels::philox_draws(want.data(), first, n, key, stream);
    }
    for (CpuCapability level : isa_levels()) {
      SCOPED_TRACE("first " + std::to_string(first) + " at " + name(level));
      AtLevel at(level);
      std::vector<uint32_t> got(static_cast<size_t>(n));
      ember::kernels::philox_draws(got.data(), first, n, key, stream);
      EXPECT_EQ(got, want);
    }
  }
}

TEST(IsaKernels, LaneParallelFftMatchesFloat64AtEveryLevel) {
  torch::manual_seed(9);
  for (int64_t n : {16, 30, 49, 128, 400}) {
    const Tensor x = torch::randn({40, n});
    const Tensor z = torch::complex(torch::randn({24, n}), torch::randn({24, n}));
    const Tensor c = torch::complex(torch::randn({40, n / 2 + 1}), torch::randn({40, n / 2 + 1}));
    Tensor rf, cf, ir;
    {
      AtLevel scalar(CpuCapability::Default);
      rf = torch::fft::rfft(x.to(torch::kDouble));
      cf = torch::fft::fft(z.to(torch::kComplexDouble));
      ir = torch::fft::irfft(c.to(torch::kComplexDouble), n);
    }
    const double atol = 2e-6 * std::sqrt(static_cast<double>(n)) * std::log2(static_cast<double>(n));
    for (CpuCapability level : isa_levels()) {
      SCOPED_TRACE("n " + std::to_string(n) + " at " + name(level));
      AtLevel at(level);
      EXPECT_TRUE(ember::testing::tensors_close(torch::fft::rfft(x), rf, 1e-5, atol, false));
      EXPECT_TRUE(ember::testing::tensors_close(torch::fft::fft(z), cf, 1e-5, atol, false));
      EXPECT_TRUE(ember::testing::tensors_close(torch::fft::irfft(c, n), ir, 1e-5, atol / n, false));
    }
  }
}

TEST(IsaKernels, StftMatchesFloat64AtEveryLevel) {
  torch::manual_seed(13);
  const Tensor x = torch::randn({3, 4000});
  const Tensor w = torch::hann_window(400);
  Tensor ref;
  {
    AtLevel scalar(CpuCapability::Default);
    ref = torch::stft(x.to(torch::kDouble), 400, 160, 400, w.to(torch::kDouble), true, "reflect", false, true, true);
  }
  for (CpuCapability level : isa_levels()) {
    SCOPED_TRACE(name(level));
    AtLevel at(level);
    EXPECT_TRUE(ember::testing::tensors_close(torch::stft(x, 400, 160, 400, w, true, "reflect", false, true, true), ref,
                                              1e-5, 2e-4, false));
  }
}
