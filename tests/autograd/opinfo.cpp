#include "opinfo.h"

namespace ember::testing {

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

}  // namespace ember::testing
