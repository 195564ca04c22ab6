#pragma once
// The Generator's stream: its state and with_engine, for the library's
// samplers (ops/factory/random.h declares them).
#include <mutex>
#include <random>

#include "ember/ops/factory/random.h"

namespace torch {

struct Generator::State {
  std::mutex mu;
  std::mt19937_64 engine;
  uint64_t seed;
};

template <typename F>
auto Generator::with_engine(F&& f) {
  std::lock_guard<std::mutex> g(state_->mu);
  return f(state_->engine);
}

}  // namespace torch
