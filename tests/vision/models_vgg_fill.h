#pragma once
// The deterministic fill of tools/golden/gen_vision_models_vgg.py (periodic_fill)
// and the state_dict names/shapes check, shared by the VGG and SSD tests.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "common/golden.h"
#include "ember/torch.h"

namespace vision_models_vgg_fill {

inline bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

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
inline void expect_state_dict(const ember::testing::Golden& g, const std::string& name, const ember::nn::Module& m) {
  SCOPED_TRACE(name);
  const auto sd = m.state_dict();
  const auto names = g.names_with_prefix(name + ".sd.");
  ASSERT_FALSE(names.empty());
  EXPECT_EQ(sd.size(), names.size());
  for (const std::string& key : names) {
    const std::string n = key.substr(name.size() + 4);
    const ember::Tensor* t = sd.find(n);
    ASSERT_NE(t, nullptr) << "missing " << n;
    const ember::Tensor want = g[key];
    EXPECT_EQ(sd.keys()[want[0].item<int64_t>()], n);
    std::vector<int64_t> shape;
    for (int64_t i = 1; i < want.numel(); ++i) shape.push_back(want[i].item<int64_t>());
    EXPECT_EQ(t->sizes().vec(), shape) << n;
  }
}

}  // namespace vision_models_vgg_fill
