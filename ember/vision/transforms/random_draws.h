#pragma once
// The single draws torchvision's transforms make from the default generator,
// spelled once: torch.rand(1), torch.empty(1).uniform_(a, b) and
// torch.randint(lo, hi, (1,)), plus Python's round() (half to even).
#include <cmath>
#include <cstdint>

#include "ember/ops/factory/factory.h"
#include "ember/ops/factory/random.h"

namespace torch::vision::transforms::detail {

// torch.rand(1): a float32 in [0, 1).
inline float rand_float() { return rand({1}).item<float>(); }
// torch.empty(1).uniform_(a, b).item(): float32 precision, returned as double.
inline double uniform_float(double a, double b) {
  Tensor t = empty({1}, kFloat);
  t.uniform_(a, b);
  return t.item<float>();
}
// torch.randint(lo, hi, size=(1,)).item()
inline int64_t randint_one(int64_t lo, int64_t hi) { return randint(lo, hi, {1}).item<int64_t>(); }
// int(round(x)) in Python.
inline int64_t py_round(double x) { return static_cast<int64_t>(std::nearbyint(x)); }

}  // namespace torch::vision::transforms::detail
