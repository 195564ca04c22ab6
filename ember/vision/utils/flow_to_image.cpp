#include "ember/vision/utils/flow_to_image.h"

#include <limits>
#include <numbers>
#include <vector>

#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/ops/all_ops.h"

namespace torch::vision::utils {

namespace {

// The Middlebury colour wheel (55 colours: red-yellow 15, yellow-green 6,
// green-cyan 4, cyan-blue 11, blue-magenta 13, magenta-red 6), float32 [55, 3].
Tensor colorwheel() {
  const int spans[6] = {15, 6, 4, 11, 13, 6};
  std::vector<float> wheel;
  // Each span ramps one channel up or down while the others hold: (channel, rising).
  const int ramp[6][2] = {{1, 1}, {0, 0}, {2, 1}, {1, 0}, {0, 1}, {2, 0}};
  const float hold[6][3] = {{255, 0, 0}, {0, 255, 0}, {0, 255, 0}, {0, 0, 255}, {0, 0, 255}, {255, 0, 0}};
  for (int s = 0; s < 6; ++s)
    for (int i = 0; i < spans[s]; ++i) {
      float c[3] = {hold[s][0], hold[s][1], hold[s][2]};
      // torch.floor(255 * arange(n) / n) in float32.
      const float up = std::floor(255.0f * static_cast<float>(i) / static_cast<float>(spans[s]));
      c[ramp[s][0]] = ramp[s][1] ? up : 255.0f - up;
      wheel.insert(wheel.end(), c, c + 3);
    }
  return from_blob(wheel.data(), {static_cast<int64_t>(wheel.size() / 3), 3}, kFloat32).clone();
}

}  // namespace

Tensor flow_to_image(const Tensor& flow) {
  EMBER_CHECK(flow.defined() && flow.dtype() == kFloat32, "flow_to_image: Flow should be of dtype torch.float, got ",
              flow.defined() ? flow.dtype() : kFloat32);
  const Tensor f4 = flow.dim() == 3 ? flow.unsqueeze(0) : flow;
  EMBER_CHECK(f4.dim() == 4 && f4.size(1) == 2,
              "flow_to_image: Input flow should have shape (2, H, W) or (N, 2, H, W), got ", flow.sizes());
  const NoGradGuard no_grad;
  const Tensor max_norm = f4.pow(2).sum({1}).sqrt().max();
  const Tensor normalized = f4 / (max_norm + std::numeric_limits<float>::epsilon());
  const Tensor wheel = colorwheel();
  const int64_t ncols = wheel.size(0);
  const Tensor norm = normalized.pow(2).sum({1}).sqrt();
  const Tensor a = atan2(-normalized.select(1, 1), -normalized.select(1, 0)) / std::numbers::pi;
  const Tensor fk = (a + 1) / 2 * static_cast<double>(ncols - 1);
  const Tensor k0 = fk.floor().to(kInt64);
  Tensor k1 = k0 + 1;
  k1 = where(k1.eq(ncols), zeros_like(k1), k1);
  const Tensor frac = fk - k0;
  std::vector<Tensor> channels;
  for (int64_t c = 0; c < 3; ++c) {
    const Tensor tmp = wheel.select(1, c);
    const Tensor col0 = tmp.index_select(0, k0.reshape({-1})).view(k0.sizes()) / 255.0;
    const Tensor col1 = tmp.index_select(0, k1.reshape({-1})).view(k1.sizes()) / 255.0;
    Tensor col = (1 - frac) * col0 + frac * col1;
    col = 1 - norm * (1 - col);
    channels.push_back((255 * col).floor().to(kUInt8));
  }
  const Tensor img = stack(channels, 1);
  return flow.dim() == 3 ? img.squeeze(0) : img;
}

}  // namespace torch::vision::utils
