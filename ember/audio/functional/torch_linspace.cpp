// Note [torch.linspace in float32]
// torchaudio builds its filter banks from torch.linspace in float32, and
// triangular filters divide small differences of those points, so one ulp in a
// grid point shows up as ~1e-4 relative in a filter weight. PyTorch 1.13's CPU
// kernel (as Debian builds it, AVX2 with FMA contraction) computes the step in
// float32, each vector of 8 lanes from a fused base start + step * idx (or
// end - step * (steps - 1 - idx) past the halfway point) plus an unfused
// lane * step, two vectors per loop trip, and the tail scalar with a fused
// multiply-add. Ember's core linspace computes in double instead (the better
// value, but not torchaudio's), so the audio grids use this replica.
#include "ember/audio/functional/torch_linspace.h"

#include <cmath>

#include "ember/core/error.h"
#include "ember/ops/factory/factory.h"

namespace torch::audio::functional::detail {
namespace {

// Keeps the compiler from fusing the product into the following add.
float unfused_mul(float a, float b) {
  volatile float p = a * b;
  return p;
}

}  // namespace

Tensor torch_linspace_f32(double start, double end, int64_t steps) {
  EMBER_CHECK(steps >= 0, "linspace: number of steps must be non-negative, got ", steps);
  Tensor out = empty({steps}, TensorOptions(kFloat));
  if (steps == 0) return out;
  float* p = out.data_ptr<float>();
  const auto s = static_cast<float>(start), e = static_cast<float>(end);
  if (steps == 1) {
    p[0] = s;
    return out;
  }
  const float step = (e - s) / static_cast<float>(steps - 1);
  const int64_t half = steps / 2;
  auto at = [&](int64_t idx) {
    return idx < half ? std::fma(step, static_cast<float>(idx), s)
                      : std::fma(-step, static_cast<float>(steps - idx - 1), e);
  };
  constexpr int64_t kLanes = 8;
  const int64_t vector_end = steps / (2 * kLanes) * (2 * kLanes);
  for (int64_t idx = 0; idx < vector_end; idx += kLanes) {
    const float base = at(idx);
    for (int64_t j = 0; j < kLanes; ++j) p[idx + j] = base + unfused_mul(static_cast<float>(j), step);
  }
  for (int64_t idx = vector_end; idx < steps; ++idx) p[idx] = at(idx);
  return out;
}

}  // namespace torch::audio::functional::detail
