#include "models_fill.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "ember/torch.h"

namespace vision_models_fill {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

void fill(ember::nn::Module& m) {
  ember::NoGradGuard guard;
  int64_t k = 0;
  for (const auto& item : m.state_dict()) {
    const std::string& name = item.key();
    ember::Tensor t = item.value();
    const int64_t idx = k++;
    if (ends_with(name, "num_batches_tracked")) continue;
    const int64_t n = t.numel();
    // In place: one double buffer per entry (the VGG extractor has 10M parameters).
    ember::Tensor v = ember::arange(n, ember::TensorOptions().dtype(ember::kDouble));
    v.mul_(0.37).add_(static_cast<double>(idx)).sin_();
    if (ends_with(name, "running_var")) {
      v.add_(1).mul_(0.25).add_(0.5);
    } else {
      v.mul_(t.dim() >= 2 ? 1.0 / std::sqrt(static_cast<double>(n) / static_cast<double>(t.size(0))) : 0.1);
    }
    t.copy_(v.reshape(t.sizes()).to(t.scalar_type()));
  }
}

ember::Tensor image(int k, int64_t c, int64_t h, int64_t w, ember::ScalarType dtype) {
  const ember::Tensor i = ember::arange(c * h * w, ember::TensorOptions().dtype(ember::kDouble));
  return (0.5 + 0.5 * ember::sin(0.05 * (1 + 0.1 * k) * i + k)).reshape({c, h, w}).to(dtype);
}

void expect_state_dict_names(const ember::testing::Golden& g, const std::string& prefix, const ember::nn::Module& m) {
  SCOPED_TRACE(prefix);
  const auto sd = m.state_dict();
  const auto names = g.names_with_prefix(prefix + ".sd.");
  ASSERT_FALSE(names.empty());
  EXPECT_EQ(sd.size(), names.size());
  for (const std::string& key : names) {
    const std::string name = key.substr(prefix.size() + 4);
    const ember::Tensor* t = sd.find(name);
    ASSERT_NE(t, nullptr) << "missing " << name;
    const ember::Tensor want = g[key];
    EXPECT_EQ(sd.keys()[want[0].item<int64_t>()], name) << "order of " << name;
    std::vector<int64_t> shape;
    for (int64_t i = 1; i < want.numel(); ++i) shape.push_back(want[i].item<int64_t>());
    EXPECT_EQ(t->sizes().vec(), shape) << name;
  }
}

}  // namespace vision_models_fill
