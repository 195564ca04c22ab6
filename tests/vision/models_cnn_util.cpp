#include "models_cnn_util.h"

#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "ember/torch.h"

namespace vision_models_cnn_test {

std::vector<KeyShape> read_keys(const std::string& arch) {
  const std::string path = std::string(EMBER_GOLDEN_DIR) + "/vision/models/cnn/" + arch + ".keys";
  std::ifstream in(path);
  if (!in) throw std::runtime_error("missing golden file " + path);
  std::vector<KeyShape> keys;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream s(line);
    KeyShape k;
    std::string dims;
    s >> k.name;
    std::getline(s >> std::ws, dims);
    std::istringstream d(dims);
    std::string item;
    while (std::getline(d, item, ',')) {
      if (!item.empty()) k.shape.push_back(std::stoll(item));
    }
    keys.push_back(std::move(k));
  }
  return keys;
}

namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

std::vector<std::pair<std::string, ember::Tensor>> deterministic_state_dict(const std::vector<KeyShape>& keys,
                                                                            double gain) {
  std::vector<std::pair<std::string, ember::Tensor>> sd;
  for (size_t k = 0; k < keys.size(); ++k) {
    const KeyShape& key = keys[k];
    if (ends_with(key.name, "num_batches_tracked")) {
      sd.emplace_back(key.name, ember::zeros(key.shape, ember::kLong));
      continue;
    }
    int64_t numel = 1;
    for (int64_t d : key.shape) numel *= d;
    ember::Tensor t = ember::empty({numel}, ember::kFloat);
    float* p = t.data_ptr<float>();
    const double fan_in = key.shape.empty() ? 1.0 : static_cast<double>(numel) / static_cast<double>(key.shape[0]);
    const double root_fan_in = std::sqrt(fan_in);
    const auto kk = static_cast<int64_t>(k);
    for (int64_t i = 0; i < numel; ++i) {
      int64_t h = (i * 1103515245 + 12345 + 7919 * kk) % 2147483648;
      h = (h * 1103515245 + 12345) % 2147483648;
      const double b = static_cast<double>(h) / 1073741824.0 - 1.0;
      double v;
      if (ends_with(key.name, "running_var")) {
        v = 0.5 + 0.5 * b * b;
      } else if (ends_with(key.name, "running_mean")) {
        v = 0.1 * b;
      } else if (key.shape.size() == 1) {
        v = ends_with(key.name, "weight") ? 1 + 0.2 * b : 0.1 * b;
      } else {
        v = gain * std::sqrt(3.0) * b / root_fan_in;
      }
      p[i] = static_cast<float>(v);
    }
    sd.emplace_back(key.name, t.reshape(key.shape));
  }
  return sd;
}

ember::Tensor deterministic_image(int64_t n, int64_t size) {
  const int64_t numel = n * 3 * size * size;
  ember::Tensor t = ember::empty({numel}, ember::kFloat);
  float* p = t.data_ptr<float>();
  for (int64_t i = 0; i < numel; ++i) {
    const auto x = static_cast<double>(i);
    p[i] = static_cast<float>(0.5 * std::sin(0.013 * x) + 0.3 * std::cos(0.071 * x));
  }
  return t.reshape({n, 3, size, size});
}

std::vector<KeyShape> model_keys(const ember::nn::Module& model) {
  std::vector<KeyShape> keys;
  for (const auto& item : model.state_dict()) {
    const auto sizes = item.value().sizes();
    keys.push_back({item.key(), std::vector<int64_t>(sizes.begin(), sizes.end())});
  }
  return keys;
}

}  // namespace vision_models_cnn_test
