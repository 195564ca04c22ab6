// Ember's side of the detection benchmark (issue 36: Faster R-CNN ResNet-50 FPN
// inference on one 800x800 image, <= 0.8x LibTorch's time): median wall time of
// eval-mode inference after warm-up, at 1 and 2 threads, in the format
// bench_detection_torchvision.py prints ("<case> threads=<n> median_ms=<t>").
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "ember/core/parallel.h"
#include "ember/torch.h"
#include "ember/vision/models/detection/builders.h"

namespace detection = ember::vision::models::detection;

int main(int argc, char** argv) {
  const int reps = argc > 1 ? std::stoi(argv[1]) : 3;
  ember::manual_seed(0);
  ember::NoGradGuard no_grad;
  detection::FasterRCNN model = detection::fasterrcnn_resnet50_fpn();
  model->eval();
  const std::vector<ember::Tensor> images = {ember::rand({3, 800, 800})};
  for (int threads : {1, 2}) {
    ember::set_num_threads(threads);
    (void)model->forward(images);  // warm-up: allocations, thread pool, packed weights
    std::vector<double> times;
    for (int i = 0; i < reps; ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      (void)model->forward(images);
      times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(times.begin(), times.end());
    std::printf("fasterrcnn_resnet50_fpn_800 threads=%d median_ms=%.2f\n", threads, times[times.size() / 2]);
  }
  return 0;
}
