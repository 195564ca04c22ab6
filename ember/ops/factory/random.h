#pragma once
// Random numbers: a Generator (PyTorch's CPU stream, ops/factory/generator_engine.h; the default one is the
// documented global RNG) and the random factories and in-place samplers.
#include <cstdint>
#include <memory>
#include <optional>

#include "ember/core/tensor.h"

namespace torch {

// A shared handle to one random stream; copies draw from the same stream.
class Generator {
 public:
  explicit Generator(uint64_t seed = 67280421310721ULL);
  void set_current_seed(uint64_t seed);
  uint64_t current_seed() const;
  uint64_t seed();  // reseeds from the system's entropy, returns the seed
  // Runs f(CpuEngine&) under the stream's lock; defined in
  // ops/factory/generator_engine.h, which the library's samplers include, so
  // <random> and <mutex> stay out of every user's translation unit.
  template <typename F>
  auto with_engine(F&& f);

 private:
  struct State;
  std::shared_ptr<State> state_;
};

Generator& default_generator();
void manual_seed(uint64_t seed);
Generator make_generator(uint64_t seed);

using OptGen = std::optional<Generator>;

Tensor rand(IntArrayRef size, const TensorOptions& options = {});
Tensor rand(IntArrayRef size, OptGen gen, const TensorOptions& options = {});
Tensor randn(IntArrayRef size, const TensorOptions& options = {});
Tensor randn(IntArrayRef size, OptGen gen, const TensorOptions& options = {});
Tensor randint(int64_t high, IntArrayRef size, const TensorOptions& options = {});
Tensor randint(int64_t low, int64_t high, IntArrayRef size, const TensorOptions& options = {});
Tensor randint(int64_t low, int64_t high, IntArrayRef size, OptGen gen, const TensorOptions& options = {});
Tensor randperm(int64_t n, const TensorOptions& options = {});
Tensor randperm(int64_t n, OptGen gen, const TensorOptions& options = {});
Tensor normal(double mean, double std, IntArrayRef size, OptGen gen = std::nullopt, const TensorOptions& options = {});
Tensor normal(const Tensor& mean, const Tensor& std, OptGen gen = std::nullopt);
Tensor normal(const Tensor& mean, double std = 1, OptGen gen = std::nullopt);
Tensor normal(double mean, const Tensor& std, OptGen gen = std::nullopt);
Tensor bernoulli(const Tensor& p, OptGen gen = std::nullopt);
Tensor bernoulli(const Tensor& self, double p, OptGen gen = std::nullopt);
Tensor rand_like(const Tensor& t, const TensorOptions& options = {});
Tensor randn_like(const Tensor& t, const TensorOptions& options = {});
Tensor randint_like(const Tensor& t, int64_t low, int64_t high, const TensorOptions& options = {});
Tensor multinomial(const Tensor& probs, int64_t num_samples, bool replacement = false, OptGen gen = std::nullopt);

Tensor& uniform_(Tensor& self, double from = 0, double to = 1, OptGen gen = std::nullopt);
Tensor& normal_(Tensor& self, double mean = 0, double std = 1, OptGen gen = std::nullopt);
Tensor& bernoulli_(Tensor& self, double p = 0.5, OptGen gen = std::nullopt);
Tensor& random_(Tensor& self, int64_t from, int64_t to, OptGen gen = std::nullopt);
Tensor& exponential_(Tensor& self, double lambd = 1, OptGen gen = std::nullopt);
// The number of Bernoulli(p) trials up to the first success (1, 2, ...); integer or floating self.
Tensor& geometric_(Tensor& self, double p, OptGen gen = std::nullopt);
// median + sigma * tan(pi * (u - 1/2)): the Cauchy distribution; floating self.
Tensor& cauchy_(Tensor& self, double median = 0, double sigma = 1, OptGen gen = std::nullopt);
// exp(N(mean, std^2)); floating self, std > 0.
Tensor& log_normal_(Tensor& self, double mean = 1, double std = 2, OptGen gen = std::nullopt);
// A Poisson draw per element of `rates` (finite and >= 0), in rates' floating dtype.
Tensor poisson(const Tensor& rates, OptGen gen = std::nullopt);
// A Binomial(count, prob) draw per element (count and prob of one floating
// dtype, broadcast): 0 for count <= 0 or prob <= 0, count for prob >= 1.
Tensor binomial(const Tensor& count, const Tensor& prob, OptGen gen = std::nullopt);

}  // namespace torch
