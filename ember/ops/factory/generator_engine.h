#pragma once
// The Generator's stream: its state and with_engine, for the library's
// samplers (ops/factory/random.h declares them).
#include <cmath>
#include <cstdint>
#include <limits>
#include <mutex>
#include <optional>
#include <random>
#include <type_traits>

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

// The scalar draws every sampler is made of, as ATen's CPU distributions transform the
// engine's bits (shared by ops/factory/random.cpp and ops/factory/distributions.cpp).
namespace detail {

// The generator a sampler draws from: the caller's, or the default one.
inline Generator gen_or_default(const OptGen& g) { return g ? *g : default_generator(); }

// ATen's uniform_real_distribution<T>(from, to), draw for draw (Note [PyTorch's CPU stream]):
// the low `digits` bits of one draw (a 64-bit draw for double) scaled to [0, 1), then
// x * (to - from) + from in double, with from and to (and their difference) rounded to T.
template <typename T>
inline double uniform_draw(CpuEngine& e, double from, double to) {
  if constexpr (std::is_same_v<T, double>) {
    const double x = static_cast<double>(e.random64() & ((uint64_t{1} << 53) - 1)) * 0x1.0p-53;
    return x * (to - from) + from;
  } else {
    constexpr int digits = std::numeric_limits<T>::digits;
    const double x =
        static_cast<double>(e.random() & ((uint32_t{1} << digits) - 1)) / static_cast<double>(uint64_t{1} << digits);
    const auto in_t = [](double v) {
      return static_cast<double>(static_cast<float>(static_cast<T>(static_cast<float>(v))));
    };
    const double f = in_t(from), t = in_t(to);
    return x * in_t(t - f) + f;
  }
}
// Uniform in [0, 1) as ATen's double samplers draw it (bernoulli, exponential, ...).
inline double uniform01(CpuEngine& e) { return uniform_draw<double>(e, 0.0, 1.0); }

// ATen's normal_distribution<double>: Box-Muller on two double uniforms, the sine branch kept
// in the engine for the next scalar draw.
inline double normal_draw(CpuEngine& e, double mean, double std) {
  if (e.next_double_normal) {
    const double z = *e.next_double_normal;
    e.next_double_normal.reset();
    return z * std + mean;
  }
  const double u1 = uniform01(e);
  const double u2 = uniform01(e);
  const double r = std::sqrt(-2.0 * std::log(1.0 - u2));  // log(1 - u), not log1p: ATen's bits
  const double theta = 2.0 * M_PI * u1;
  e.next_double_normal = r * std::sin(theta);
  return r * std::cos(theta) * std + mean;
}

}  // namespace detail

}  // namespace torch
