// Classifies a JPEG with a torchvision checkpoint, as torchvision's
// documentation does in Python:
//   weights = ResNet50_Weights.DEFAULT; model = resnet50(weights=weights).eval()
//   batch = weights.transforms()(read_image(path)).unsqueeze(0)
//   top5 = model(batch).softmax(1).topk(5)
// Usage: vision_classify <checkpoint.pth> <image.jpg> [model] [weights] [key=value ...]
//   model    a name from list_models() (default resnet50)
//   weights  the member of its weights enum the checkpoint is (default DEFAULT)
//   key=value builder keyword arguments, e.g. width_mult=0.25 num_classes=1000
// The fixture tests/golden/vision/models/cnn/mobilenet_v3_small_w025.pth runs with
//   vision_classify mobilenet_v3_small_w025.pth picture.jpg mobilenet_v3_small IMAGENET1K_V1 width_mult=0.25
#include <cstdio>
#include <exception>
#include <string>

#include "ember/torch.h"
#include "ember/vision/io/image.h"
#include "ember/vision/models/registry.h"

namespace models = ember::vision::models;

namespace {

// "3" -> int, "0.25" -> float, "true"/"false" -> bool, anything else a string.
models::KwargValue parse_value(const std::string& v) {
  if (v == "true" || v == "false") return v == "true";
  char* end = nullptr;
  const long long i = std::strtoll(v.c_str(), &end, 10);
  if (end != v.c_str() && *end == '\0') return static_cast<int64_t>(i);
  const double d = std::strtod(v.c_str(), &end);
  if (end != v.c_str() && *end == '\0') return d;
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s <checkpoint.pth> <image.jpg> [model] [weights] [key=value ...]\n", argv[0]);
    return 2;
  }
  try {
    const std::string arch = argc > 3 ? argv[3] : "resnet50";
    const std::string member = argc > 4 ? argv[4] : "DEFAULT";
    models::ModelKwargs kwargs{{"weights", member}, {"weights_path", std::string(argv[1])}};
    for (int i = 5; i < argc; ++i) {
      const std::string kv = argv[i];
      const size_t eq = kv.find('=');
      if (eq == std::string::npos) throw std::runtime_error("expected key=value, got " + kv);
      kwargs.insert_or_assign(kv.substr(0, eq), parse_value(kv.substr(eq + 1)));
    }
    const models::Weights& weights = models::get_model_weights(arch)[member];
    ember::nn::AnyModule model = models::get_model(arch, kwargs);
    model.ptr()->eval();

    ember::NoGradGuard no_grad;
    const ember::Tensor image = ember::vision::io::read_image(argv[2], ember::vision::io::ImageReadMode::RGB);
    const ember::Tensor batch = weights.transforms()(image).unsqueeze(0);
    const ember::Tensor probs = model.forward<ember::Tensor>(batch).softmax(1)[0];
    const auto [p, idx] = probs.topk(5);
    std::printf("%s (%s) on %s:\n", arch.c_str(), weights.name().c_str(), argv[2]);
    for (int64_t k = 0; k < p.size(0); ++k) {
      const int64_t c = idx[k].item<int64_t>();
      std::printf("  %6.2f%%  %s\n", 100.0 * p[k].item<double>(), weights.meta.categories.at(c).c_str());
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "vision_classify: %s\n", e.what());
    return 1;
  }
  return 0;
}
