// Detects objects in a JPEG with a torchvision detection checkpoint and draws
// the boxes, as torchvision's documentation does in Python:
//   model = ssdlite320_mobilenet_v3_large(weights=...).eval()
//   out = model([convert_image_dtype(read_image(path), torch.float)])[0]
//   keep = out["scores"] > 0.5; draw_bounding_boxes(img, out["boxes"][keep], width=2)
// Usage: vision_detect <checkpoint.pth> <image.jpg> <out.png> [score_thresh] [model]
//   model  ssdlite320_mobilenet_v3_large (ssdlite320_mobilenet_v3_large_coco-a79551df.pth),
//          ssd300_vgg16 (ssd300_vgg16_coco-b556d3b4.pth),
//          fasterrcnn_mobilenet_v3_large_320_fpn (the default; ...-907ea3f9.pth),
//          or tiny_ssd (the test fixture's model); nothing is downloaded.
#include <cstdio>
#include <exception>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

// ssd_builders.h first: it includes backbone_utils.h before the headers that would shadow its _utils.
#include "ember/vision/models/detection/ssd_builders.h"
// clang-format off
#include "ember/torch.h"
#include "ember/vision/io/image.h"
#include "ember/vision/io/png.h"
#include "ember/vision/models/detection/builders.h"
#include "ember/vision/utils/draw.h"
#include "tiny_ssd.h"
// clang-format on

namespace {

namespace det = ember::vision::models::detection;

// The model, in eval mode, holding the checkpoint's weights.
std::function<det::DetectionOutput(const std::vector<ember::Tensor>&)> load_model(const std::string& name,
                                                                                  const std::string& checkpoint) {
  if (name == "fasterrcnn_mobilenet_v3_large_320_fpn") {
    det::FasterRCNN m = det::fasterrcnn_mobilenet_v3_large_320_fpn(checkpoint);
    m->eval();
    return [m](const std::vector<ember::Tensor>& x) mutable { return m(x); };
  }
  det::SSD m{nullptr};
  if (name == "ssdlite320_mobilenet_v3_large") {
    m = det::ssdlite320_mobilenet_v3_large(det::SSDLite320_MobileNet_V3_Large_Weights::COCO_V1.with_path(checkpoint));
  } else if (name == "ssd300_vgg16") {
    m = det::ssd300_vgg16(det::SSD300_VGG16_Weights::COCO_V1.with_path(checkpoint));
  } else if (name == "tiny_ssd") {
    m = vision_detect::tiny_ssd();
    m->load_state_dict(ember::serialize::load_pytorch_state_dict(checkpoint));
  } else {
    throw std::invalid_argument("unknown model '" + name + "'");
  }
  m->eval();
  return [m](const std::vector<ember::Tensor>& x) mutable { return m(x); };
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s <checkpoint.pth> <image.jpg> <out.png> [score_thresh] [model]\n", argv[0]);
    return 2;
  }
  try {
    const double thresh = argc > 4 ? std::stod(argv[4]) : 0.5;
    const std::string name = argc > 5 ? argv[5] : "fasterrcnn_mobilenet_v3_large_320_fpn";
    const auto model = load_model(name, argv[1]);

    ember::NoGradGuard no_grad;
    const ember::Tensor image = ember::vision::io::read_image(argv[2], ember::vision::io::ImageReadMode::RGB);
    const ember::Tensor x = image.to(ember::kFloat) / 255.0;
    const det::DetectionOutput out = model(std::vector<ember::Tensor>{x});
    const ember::Tensor keep = out[0].at("scores") > thresh;
    const ember::Tensor boxes = out[0].at("boxes").index({keep});
    const ember::Tensor labels = out[0].at("labels").index({keep});
    const ember::Tensor scores = out[0].at("scores").index({keep});
    std::printf("%lld detections above %.2f\n", static_cast<long long>(boxes.size(0)), thresh);
    for (int64_t i = 0; i < boxes.size(0); ++i)
      std::printf("  label %lld  score %.4f  box [%.2f, %.2f, %.2f, %.2f]\n",
                  static_cast<long long>(labels[i].item<int64_t>()), scores[i].item<double>(),
                  boxes[i][0].item<double>(), boxes[i][1].item<double>(), boxes[i][2].item<double>(),
                  boxes[i][3].item<double>());
    const ember::Tensor drawn =
        ember::vision::utils::draw_bounding_boxes(image, boxes, std::nullopt, std::nullopt, false, 2);
    ember::vision::io::write_png(drawn, argv[3]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "vision_detect: %s\n", e.what());
    return 1;
  }
  return 0;
}
