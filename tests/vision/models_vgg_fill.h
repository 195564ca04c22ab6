#pragma once
// The deterministic fill of tools/golden/gen_vision_models_vgg.py (periodic_fill)
// for the VGG and SSD tests; the state_dict check is models_fill's.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "common/golden.h"
#include "ember/torch.h"
#include "models_fill.h"

namespace vision_models_vgg_fill {

using vision_models_fill::ends_with;

// Entry k: scale * sin(0.37 * (i mod 1009) + k), built from one period and repeated.
inline void periodic_fill(ember::nn::Module& m) {
  constexpr int64_t kPeriod = 1009;
  ember::NoGradGuard guard;
  int64_t k = 0;
  for (const auto& item : m.state_dict()) {
    const std::string& name = item.key();
    ember::Tensor t = item.value();
    const int64_t idx = k++;
    if (ends_with(name, "num_batches_tracked")) continue;
    const int64_t n = t.numel();
    ember::Tensor p =
        ember::sin(0.37 * ember::arange(std::min(n, kPeriod), ember::TensorOptions().dtype(ember::kDouble)) +
                   static_cast<double>(idx));
    if (ends_with(name, "running_var")) {
      p = 0.5 + 0.25 * (1 + p);
    } else {
      p = p * (t.dim() >= 2 ? 1.0 / std::sqrt(static_cast<double>(n) / static_cast<double>(t.size(0))) : 0.1);
    }
    const ember::Tensor v = p.to(t.scalar_type()).repeat({(n + kPeriod - 1) / kPeriod}).slice(0, 0, n);
    t.copy_(v.reshape(t.sizes()));
  }
}

// The module's state_dict has exactly the golden's "<name>.sd.<key>" entries, in order and shape.
using vision_models_fill::expect_state_dict_names;
inline void expect_state_dict(const ember::testing::Golden& g, const std::string& name, const ember::nn::Module& m) {
  expect_state_dict_names(g, name, m);
}

}  // namespace vision_models_vgg_fill
