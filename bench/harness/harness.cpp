#include "harness.h"

#include <thread>

namespace bench {

void memcpy_threads(float* dst, const float* src, int64_t n, int threads) {
  if (threads <= 1) {
    std::memcpy(dst, src, static_cast<size_t>(n) * sizeof(float));
    return;
  }
  std::vector<std::thread> pool;
  const int64_t chunk = (n + threads - 1) / threads;
  for (int t = 0; t < threads; ++t) {
    const int64_t b = t * chunk, e = std::min(n, b + chunk);
    if (b < e) pool.emplace_back([=] { std::memcpy(dst + b, src + b, static_cast<size_t>(e - b) * sizeof(float)); });
  }
  for (auto& th : pool) th.join();
}

}  // namespace bench
