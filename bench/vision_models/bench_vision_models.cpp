// Ember's side of the vision-model benchmark: median wall time of eval-mode
// inference (no grad) for each case, after warm-up, at 1 and 2 threads.
// Output lines: "<case> threads=<n> median_ms=<t>", the format
// bench_vision_models_libtorch prints, so run.sh can print the ratios.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "ember/core/parallel.h"
#include "ember/torch.h"
#include "ember/vision/models/mobilenetv3.h"
#include "ember/vision/models/resnet.h"

namespace models = ember::vision::models;

namespace {

double median_ms(const std::function<void()>& run, int reps) {
  run();  // warm-up: allocations, thread pool
  std::vector<double> times;
  for (int i = 0; i < reps; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    run();
    times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const int reps = argc > 1 ? std::stoi(argv[1]) : 5;
  ember::NoGradGuard no_grad;
  models::ResNet resnet50 = models::resnet50();
  resnet50->eval();
  models::MobileNetV3 mobilenet = models::mobilenet_v3_large();
  mobilenet->eval();
  const ember::Tensor x1 = ember::rand({1, 3, 224, 224});
  const ember::Tensor x32 = ember::rand({32, 3, 224, 224});
  for (int threads : {1, 2}) {
    ember::set_num_threads(threads);
    std::printf("resnet50_b1 threads=%d median_ms=%.2f\n", threads, median_ms([&] { resnet50(x1); }, reps));
    std::printf("resnet50_b32 threads=%d median_ms=%.2f\n", threads,
                median_ms([&] { resnet50(x32); }, std::max(1, reps / 2)));
    std::printf("mobilenet_v3_large_b1 threads=%d median_ms=%.2f\n", threads, median_ms([&] { mobilenet(x1); }, reps));
  }
  return 0;
}
