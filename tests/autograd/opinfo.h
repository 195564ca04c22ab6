#pragma once
// The OpInfo registry: one entry per differentiable op, with sample inputs.
// Generic tests (opinfo_test.cpp) walk it and run gradcheck, gradgradcheck
// and the other checks on every sample. Each op family registers its entries
// from its own file (tests/autograd/opinfo_<family>.cpp):
//   static ember::testing::RegisterOps reg({
//       {"exp", [](const variable_list& x) { return variable_list{ember::exp(x[0])}; },
//        [] { return samples_unary(...); }},
//   });
#include <functional>
#include <string>
#include <vector>

#include "ember/ember.h"

namespace torch::testing {

using autograd::variable_list;

struct OpInfo {
  std::string name;                                       // public op name, e.g. "mul" or "Tensor::sum(dim)"
  std::function<variable_list(const variable_list&)> fn;  // calls the op on (float64) inputs
  std::function<std::vector<variable_list>()> samples;    // inputs; those to differentiate require grad
  bool gradgrad = true;                                   // supports double backward
  std::string grad_fn_name;                               // expected grad_fn()->name() of output 0, if set
  bool forward_ad = true;                                 // tangents propagate (forward-mode AD)
};

std::vector<OpInfo>& op_registry();

struct RegisterOps {
  explicit RegisterOps(std::vector<OpInfo> ops);
};

// A float64 tensor of `shape` with values in [lo, hi) that requires grad (seeded, reproducible).
Tensor sample(IntArrayRef shape, double lo = -2, double hi = 2, uint64_t seed = 0);

// An entry whose op has one output and one sample: inputs of `shapes` with values in
// [lo, hi), seeded from `seed` on.
OpInfo single_output_op(const char* name, std::function<Tensor(const variable_list&)> f,
                        std::vector<std::vector<int64_t>> shapes, double lo, double hi, uint64_t seed);

}  // namespace torch::testing
