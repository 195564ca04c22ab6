// Helpers shared by the tests/audio/models_*_test.cpp files (declared again in
// each): the deterministic parameter fill of tools/golden/gen_audio_models.py
// and the comparison of a model's state_dict with the one torchaudio built.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/autograd/grad_mode.h"
#include "ember/torch.h"

namespace torch::testing::audio_models {

void fill_deterministic(nn::Module& model) {
  NoGradGuard no_grad;
  int64_t k = 0;
  for (auto& item : model.state_dict()) {
    Tensor t = item.value();
    const std::string& name = item.key();
    const double kk = static_cast<double>(k++);
    if (!t.is_floating_point()) continue;
    const int64_t n = t.numel();
    const bool running_var = name.size() >= 11 && name.compare(name.size() - 11, 11, "running_var") == 0;
    const bool weight = name.size() >= 6 && name.compare(name.size() - 6, 6, "weight") == 0;
    const double fan = t.dim() >= 2 ? std::sqrt(static_cast<double>(n) / static_cast<double>(t.size(0))) : 1.0;
    Tensor flat = t.view({-1});
    // In chunks: a whole 16M-element weight in float64 temporaries costs more in page faults than in math.
    constexpr int64_t kChunk = int64_t{1} << 18;
    for (int64_t off = 0; off < n; off += kChunk) {
      const int64_t len = std::min(kChunk, n - off);
      Tensor base = (arange(off, off + len, TensorOptions(kFloat64)) * 0.37 + kk).sin();
      Tensor v;
      if (running_var) {
        v = base * base * 0.5 + 1.0;
      } else if (t.dim() >= 2) {
        v = base / fan;
      } else {
        v = base * 0.1 + (weight ? 1.0 : 0.0);
      }
      flat.narrow(0, off, len).copy_(v.to(t.scalar_type()));
    }
  }
}

void expect_state_dict_matches(const Golden& g, const std::string& prefix, const nn::Module& model) {
  auto sd = model.state_dict();
  EXPECT_EQ(static_cast<int64_t>(sd.size()), g[prefix + ".keys"].item<int64_t>()) << prefix;
  for (const auto& item : sd) {
    const std::string key = prefix + ".key." + item.key();
    if (!g.has(key)) {
      ADD_FAILURE() << prefix << ": unexpected state_dict key " << item.key();
      continue;
    }
    Tensor shape = g[key];
    std::vector<int64_t> expected(shape.data_ptr<int64_t>(), shape.data_ptr<int64_t>() + shape.numel());
    EXPECT_EQ(item.value().sizes().vec(), expected) << prefix << ": " << item.key();
  }
}

}  // namespace torch::testing::audio_models
