// Times MelSpectrogram (10 s at 16 kHz, batch 1 and 32) and Resample
// (44.1 kHz -> 16 kHz, 60 s), the speed targets; compare with
// torchaudio by running the same shapes through /usr/bin/python3.
// Usage: audio_transforms_bench [threads]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>

#include "ember/audio/transforms.h"
#include "ember/torch.h"

namespace {

double best_ms(const std::function<void()>& f, int reps) {
  f();  // warm-up: plans, kernels and caches
  double best = 1e30;
  for (int i = 0; i < reps; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    auto t1 = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  namespace AT = torch::audio::transforms;
  const int threads = argc > 1 ? std::atoi(argv[1]) : 1;
  torch::set_num_threads(threads);
  torch::NoGradGuard no_grad;
  AT::MelSpectrogram mel(AT::MelSpectrogramOptions().sample_rate(16000));
  for (int64_t batch : {1, 32}) {
    torch::Tensor x = torch::randn({batch, 160000});
    std::printf("MelSpectrogram batch %lld, %d thread(s): %.2f ms\n", static_cast<long long>(batch), threads,
                best_ms([&] { mel(x); }, batch == 1 ? 20 : 5));
  }
  AT::Resample resample(44100, 16000);
  torch::Tensor y = torch::randn({1, 44100 * 60});
  std::printf("Resample 44.1k->16k 60 s, %d thread(s): %.2f ms\n", threads, best_ms([&] { resample(y); }, 5));
  return 0;
}
