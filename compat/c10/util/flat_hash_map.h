#pragma once
// LibTorch compatibility header (target Ember::torch_compat): <c10/util/flat_hash_map.h>.
// Ember keeps optimizer state in std::unordered_map, so ska::flat_hash_map names that.
#include <functional>
#include <memory>
#include <unordered_map>

#include <torch/ember_prelude.h>

namespace ska {
template <class K, class V, class H = std::hash<K>, class E = std::equal_to<K>,
          class A = std::allocator<std::pair<const K, V>>>
using flat_hash_map = std::unordered_map<K, V, H, E, A>;
}  // namespace ska
