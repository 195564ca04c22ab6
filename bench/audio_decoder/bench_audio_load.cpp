// Times ember::audio::load of whole files (issue 37's WAV/FLAC speed item):
// prints the best of `reps` loads per file, after one warm-up load that puts
// the file in the page cache. run_speed.sh runs it interleaved with
// torchaudio_side.py, which times torchaudio.load the same way.
//   bench_audio_load [reps] file...
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "ember/audio/io/load.h"
#include "ember/core/tensor.h"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s reps file...\n", argv[0]);
    return 2;
  }
  const int reps = std::atoi(argv[1]);
  for (int f = 2; f < argc; ++f) {
    const std::string path = argv[f];
    auto [warm, rate] = torch::audio::load(path);
    double best = 1e30;
    for (int i = 0; i < reps; ++i) {
      auto t0 = std::chrono::steady_clock::now();
      auto [wave, sr] = torch::audio::load(path);
      auto t1 = std::chrono::steady_clock::now();
      best = std::min(best, std::chrono::duration<double, std::milli>(t1 - t0).count());
      (void)sr;
    }
    std::printf("load %s [%lld x %lld at %lld Hz]: %.2f ms\n", path.c_str(), static_cast<long long>(warm.size(0)),
                static_cast<long long>(warm.size(1)), static_cast<long long>(rate), best);
  }
  return 0;
}
