// The deterministic parameter fill and state_dict-layout check shared by the
// transformer-model tests; mirrors fill_deterministic and add_keys in
// tools/golden/gen_vision_models_vit.py.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "common/golden.h"
#include "ember/torch.h"

namespace vision_models_vit_test {

using ember::Tensor;

void fill_deterministic(ember::nn::Module& model) {
  ember::NoGradGuard no_grad;
  int64_t k = 0;
  for (const auto& item : model.state_dict()) {
    const std::string& name = item.key();
    Tensor t = item.value();
    const int64_t idx = k++;
    if (!ember::isFloatingType(t.scalar_type()) || name.find("relative_position_index") != std::string::npos ||
        name.find("relative_coords_table") != std::string::npos) {
      continue;
    }
    const int64_t n = t.numel();
    Tensor s = ember::sin(ember::arange(n, ember::kDouble) * 0.37 + static_cast<double>(idx));
    auto ends_with = [&](const std::string& suffix) {
      return name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    Tensor v;
    if (ends_with("running_var")) {
      v = s * 0.5 + 1.0;
    } else if (t.dim() <= 1 && ends_with("weight")) {
      v = s * 0.2 + 1.0;
    } else if (t.dim() <= 1) {
      v = s * 0.1;
    } else {
      v = s / std::sqrt(static_cast<double>(n) / static_cast<double>(t.size(0)));
    }
    t.copy_(v.reshape(t.sizes()).to(t.scalar_type()));
  }
}

void expect_state_dict_layout(const ember::testing::Golden& g, const std::string& builder,
                              const ember::nn::Module& model) {
  SCOPED_TRACE(builder);
  const std::string prefix = "sd." + builder + "/";
  const auto expected = g.names_with_prefix(prefix);
  const auto sd = model.state_dict();
  EXPECT_EQ(sd.size(), expected.size());
  int64_t i = 0;
  for (const auto& item : sd) {
    const std::string key = prefix + item.key();
    if (!g.has(key)) {
      ADD_FAILURE() << "unexpected key " << item.key();
      ++i;
      continue;
    }
    const Tensor e = g[key];
    std::vector<int64_t> want(e.data_ptr<int64_t>(), e.data_ptr<int64_t>() + e.numel());
    std::vector<int64_t> got{i};
    for (int64_t d : item.value().sizes()) got.push_back(d);
    EXPECT_EQ(got, want) << "key " << item.key() << " (index, shape)";
    ++i;
  }
}

}  // namespace vision_models_vit_test
