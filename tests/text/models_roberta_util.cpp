#include "models_roberta_util.h"

#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "ember/torch.h"

namespace text_models_test {

namespace models = ember::text::models;

std::vector<KeyShape> read_keys(const std::string& config) {
  const std::string path = std::string(EMBER_GOLDEN_DIR) + "/text/models/" + config + ".keys";
  std::ifstream in(path);
  if (!in) throw std::runtime_error("missing " + path);
  std::vector<KeyShape> keys;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::istringstream ls(line);
    KeyShape k;
    std::string shape;
    ls >> k.name >> shape;
    std::istringstream ss(shape);
    std::string dim;
    while (std::getline(ss, dim, ',')) k.shape.push_back(std::stoll(dim));
    keys.push_back(std::move(k));
  }
  return keys;
}

std::vector<KeyShape> model_keys(const ember::nn::Module& model) {
  std::vector<KeyShape> keys;
  for (const auto& item : model.state_dict()) {
    const auto sizes = item.value().sizes();
    keys.push_back({item.key(), std::vector<int64_t>(sizes.begin(), sizes.end())});
  }
  return keys;
}

void fill_deterministic(ember::nn::Module& model) {
  ember::NoGradGuard no_grad;
  int64_t k = 0;
  for (const auto& item : model.state_dict()) {
    ember::Tensor t = item.value();
    const int64_t n = t.numel();
    ember::Tensor i = ember::arange(n, ember::TensorOptions().dtype(ember::kLong));
    ember::Tensor h = (i * 1103515245 + 12345 + 7919 * k).remainder(2147483648LL);
    h = (h * 1103515245 + 12345).remainder(2147483648LL);
    ember::Tensor b = (h.to(ember::kDouble) / 1073741824.0 - 1.0).reshape(t.sizes());
    ember::Tensor v;
    const std::string& name = item.key();
    const bool weight = name.size() >= 6 && name.compare(name.size() - 6, 6, "weight") == 0;
    if (t.dim() == 1) {
      v = weight ? 1 + 0.2 * b : 0.1 * b;
    } else {
      v = std::sqrt(3.0) * b / std::sqrt(static_cast<double>(n) / static_cast<double>(t.size(0)));
    }
    t.copy_(v.to(t.scalar_type()));
    ++k;
  }
}

models::RobertaModel build_config(const std::string& config, double dropout) {
  models::RobertaEncoderConf conf;
  ember::nn::AnyModule head;
  const double d = dropout >= 0 ? dropout : 0.1;
  if (config == "post_norm") {
    conf = models::RobertaEncoderConf(40, 16, 32, 1, 20, 2, 2, d);
    head = ember::nn::AnyModule(models::RobertaClassificationHead(3, 16, 8, d));
  } else if (config == "pre_norm") {
    conf = models::RobertaEncoderConf(30, 16, 24, 0, 16, 4, 2, d, std::nullopt, true);
  } else if (config == "odd_heads") {
    conf = models::RobertaEncoderConf(25, 12, 20, 1, 12, 3, 1, d);
    head = ember::nn::AnyModule(
        models::RobertaClassificationHead(models::RobertaClassificationHeadOptions(2, 12).dropout(d)));
  } else {
    throw std::runtime_error("unknown config " + config);
  }
  return models::RobertaModel(conf, head);
}

}  // namespace text_models_test
