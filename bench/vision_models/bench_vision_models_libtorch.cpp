// LibTorch's side of the vision-model benchmark: the same cases on the
// TorchScript exports of export_torchscript.py, timed as bench_vision_models.
// Usage: bench_vision_models_libtorch <dir with resnet50.pt, mobilenet_v3_large.pt> [reps]
#include <torch/script.h>
#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace {

double median_ms(const std::function<void()>& run, int reps) {
  run();
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
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s <dir> [reps]\n", argv[0]);
    return 2;
  }
  const std::string dir = argv[1];
  const int reps = argc > 2 ? std::stoi(argv[2]) : 5;
  torch::NoGradGuard no_grad;
  torch::jit::script::Module resnet50 = torch::jit::load(dir + "/resnet50.pt");
  torch::jit::script::Module mobilenet = torch::jit::load(dir + "/mobilenet_v3_large.pt");
  resnet50.eval();
  mobilenet.eval();
  const torch::Tensor x1 = torch::rand({1, 3, 224, 224});
  const torch::Tensor x32 = torch::rand({32, 3, 224, 224});
  for (int threads : {1, 2}) {
    torch::set_num_threads(threads);
    std::printf("resnet50_b1 threads=%d median_ms=%.2f\n", threads, median_ms([&] { resnet50.forward({x1}); }, reps));
    std::printf("resnet50_b32 threads=%d median_ms=%.2f\n", threads,
                median_ms([&] { resnet50.forward({x32}); }, std::max(1, reps / 2)));
    std::printf("mobilenet_v3_large_b1 threads=%d median_ms=%.2f\n", threads,
                median_ms([&] { mobilenet.forward({x1}); }, reps));
  }
  return 0;
}
