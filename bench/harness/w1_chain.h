#pragma once
// bench/SPEC.md W1's chain, one definition for every harness that times it (ember_bench,
// libtorch_bench, train_workloads.h's autograd variant, ember_micro, ember_timer):
// 3000 ops on [1]-element tensors cycling v * w, v + b, tanh(v).
// Include after the framework header; `torch::` must name the framework.
namespace bench {

constexpr int kW1Ops = 3000;

inline torch::Tensor w1_chain(torch::Tensor v, const torch::Tensor& w, const torch::Tensor& b) {
  for (int i = 0; i < kW1Ops; ++i) {
    if (i % 3 == 0)
      v = v * w;
    else if (i % 3 == 1)
      v = v + b;
    else
      v = torch::tanh(v);
  }
  return v;
}

}  // namespace bench
