#include "ember/nn/options/loss.h"

namespace torch::nn {

int64_t reduction_value(const reduction_t& r) {
  return std::visit(
      [](auto tag) -> int64_t {
        using T = decltype(tag);
        if constexpr (std::is_same_v<T, enumtype::kNone>)
          return Reduction::None;
        else if constexpr (std::is_same_v<T, enumtype::kSum>)
          return Reduction::Sum;
        else
          return Reduction::Mean;
      },
      r);
}
std::string reduction_name(const reduction_t& r) {
  return std::visit([](auto tag) { return enum_name(tag); }, r);
}

}  // namespace torch::nn
