// Detects objects in a JPEG with torchvision's COCO Faster R-CNN checkpoint
// and draws the boxes, as torchvision's documentation does in Python:
//   model = fasterrcnn_mobilenet_v3_large_320_fpn(weights=...).eval()
//   out = model([convert_image_dtype(read_image(path), torch.float)])[0]
//   keep = out["scores"] > 0.5; draw_bounding_boxes(img, out["boxes"][keep], width=2)
// Usage: vision_detect <checkpoint.pth> <image.jpg> <out.png> [score_thresh]
//   checkpoint  fasterrcnn_mobilenet_v3_large_320_fpn-907ea3f9.pth (COCO_V1); nothing is downloaded
#include <cstdio>
#include <exception>
#include <string>

#include "ember/torch.h"
#include "ember/vision/io/image.h"
#include "ember/vision/io/png.h"
#include "ember/vision/models/detection/builders.h"
#include "ember/vision/utils/draw.h"

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s <checkpoint.pth> <image.jpg> <out.png> [score_thresh]\n", argv[0]);
    return 2;
  }
  try {
    const double thresh = argc > 4 ? std::stod(argv[4]) : 0.5;
    namespace det = ember::vision::models::detection;
    det::FasterRCNN model = det::fasterrcnn_mobilenet_v3_large_320_fpn(std::string(argv[1]));
    model->eval();

    ember::NoGradGuard no_grad;
    const ember::Tensor image = ember::vision::io::read_image(argv[2], ember::vision::io::ImageReadMode::RGB);
    const ember::Tensor x = image.to(ember::kFloat) / 255.0;
    const det::DetectionOutput out = model(std::vector<ember::Tensor>{x});
    const ember::Tensor keep = out[0].at("scores") > thresh;
    const ember::Tensor boxes = out[0].at("boxes").index({keep});
    const ember::Tensor labels = out[0].at("labels").index({keep});
    std::printf("%lld detections above %.2f in %s\n", static_cast<long long>(boxes.size(0)), thresh, argv[2]);
    for (int64_t i = 0; i < boxes.size(0); ++i)
      std::printf("  label %lld  box [%.1f, %.1f, %.1f, %.1f]\n", static_cast<long long>(labels[i].item<int64_t>()),
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
