#include "opinfo.h"

namespace torch::testing {

std::vector<OpInfo>& op_registry() {
  static std::vector<OpInfo> registry;
  return registry;
}

RegisterOps::RegisterOps(std::vector<OpInfo> ops) {
  for (auto& op : ops) op_registry().push_back(std::move(op));
}

Tensor sample(IntArrayRef shape, double lo, double hi, uint64_t seed) {
  Generator g(seed + 17 * shape.size());
  Tensor t = rand(shape, g, TensorOptions(kDouble));
  t = (t * (hi - lo) + lo).detach();
  t.requires_grad_(true);
  return t;
}

OpInfo single_output_op(const char* name, std::function<Tensor(const variable_list&)> f,
                        std::vector<std::vector<int64_t>> shapes, double lo, double hi, uint64_t seed) {
  OpInfo o;
  o.name = name;
  o.fn = [f](const variable_list& x) { return variable_list{f(x)}; };
  o.samples = [shapes, lo, hi, seed] {
    variable_list in;
    uint64_t s = seed;
    for (const auto& shape : shapes) in.push_back(sample(shape, lo, hi, s++));
    return std::vector<variable_list>{in};
  };
  return o;
}

}  // namespace torch::testing
