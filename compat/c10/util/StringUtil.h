#pragma once
// LibTorch compatibility header (target Ember::torch_compat): <c10/util/StringUtil.h>.
#include <sstream>
#include <string>

#include <torch/ember_prelude.h>

namespace c10 {
// The elements of `v` written with `delimiter` between them (c10::Join).
template <class Container>
std::string Join(const std::string& delimiter, const Container& v) {
  std::ostringstream s;
  bool first = true;
  for (const auto& x : v) {
    if (!first) s << delimiter;
    s << x;
    first = false;
  }
  return s.str();
}
}  // namespace c10
