#pragma once
// Golden values produced by PyTorch (tools/golden/*.py, run with Debian's
// python3-torch) and checked in under tests/golden/, so tests need no Python.
// File format, one tensor per line:
//   name|dtype|d0,d1,...|v0 v1 ...     (complex: re im pairs; nan/inf spelled so)
#include <functional>
#include <map>
#include <string>

#include "ember/ember.h"

namespace torch::testing {

class Golden {
 public:
  // Loads tests/golden/<file>; fails the test (throws) when missing.
  explicit Golden(const std::string& file);
  // The tensor stored under `name`; throws when absent.
  Tensor operator[](const std::string& name) const;
  bool has(const std::string& name) const { return entries_.count(name) != 0; }
  std::vector<std::string> names_with_prefix(const std::string& prefix) const;

 private:
  std::map<std::string, Tensor> entries_;
};

ScalarType parse_dtype(const std::string& name);

// A case a generator's with_grads wrote: inputs `name.x<i>`, output `name.y`,
// upstream gradient `name.gy` and input gradients `name.gx<i>`. f's output on
// the inputs and the gradients of sum(y * gy) must match PyTorch's.
void expect_golden_case(const Golden& g, const std::string& name, int n_inputs,
                        const std::function<Tensor(const std::vector<Tensor>&)>& f);

}  // namespace torch::testing
