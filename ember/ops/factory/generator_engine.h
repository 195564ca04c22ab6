#pragma once
// The Generator's stream: its state and with_engine, for the library's
// samplers (ops/factory/random.h declares them).
#include <cstdint>
#include <limits>
#include <mutex>
#include <optional>
#include <random>

#include "ember/ops/factory/random.h"

namespace torch {

// Note [PyTorch's CPU stream]
// The engine is PyTorch's CPU generator, draw for draw, so that a seed gives the numbers it
// gives in PyTorch: a 32-bit MT19937 seeded with the seed's low 32 bits (at::mt19937, whose
// initialisation is the standard one), 64-bit draws made of two 32-bit ones with the first as
// the high half, and the spare value of a scalar Box-Muller draw kept for the next normal.
// The samplers in random.cpp then transform draws exactly as ATen's CPU kernels do
// (uniform: the low `digits` bits of a 32-bit draw, of a 64-bit one for double; normal: the
// 16-value Box-Muller blocks for contiguous tensors of 16 or more, scalar pairs otherwise).
// It also serves as a UniformRandomBitGenerator of 64-bit values for the std:: samplers.
class CpuEngine {
 public:
  using result_type = uint64_t;
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return std::numeric_limits<uint64_t>::max(); }

  void seed(uint64_t seed) {
    mt_.seed(static_cast<uint32_t>(seed));
    next_double_normal.reset();
  }
  uint32_t random() { return static_cast<uint32_t>(mt_()); }
  uint64_t random64() {
    const uint64_t hi = random();
    return (hi << 32) | random();
  }
  result_type operator()() { return random64(); }

  std::optional<double> next_double_normal;  // Box-Muller's second value, for the next scalar draw

 private:
  std::mt19937 mt_;
};

struct Generator::State {
  std::mutex mu;
  CpuEngine engine;
  uint64_t seed;
};

template <typename F>
auto Generator::with_engine(F&& f) {
  std::lock_guard<std::mutex> g(state_->mu);
  return f(state_->engine);
}

}  // namespace torch
