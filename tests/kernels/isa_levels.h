#pragma once
// Runs a kernel test at every CPU capability this machine has (Note [CPU capability]).
#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "ember/kernels/cpu/cpu_capability.h"

namespace ember_test {

using ember::kernels::CpuCapability;

// Every level up to what the CPU supports: default, then avx2, then avx512.
inline std::vector<CpuCapability> isa_levels() {
  std::vector<CpuCapability> out;
  for (CpuCapability c : {CpuCapability::Default, CpuCapability::AVX2, CpuCapability::AVX512})
    if (c <= ember::kernels::cpu_capability_supported()) out.push_back(c);
  return out;
}

// The kernels run at `level` while this lives; the environment's level afterwards.
class AtLevel {
 public:
  explicit AtLevel(CpuCapability level) { ember::kernels::set_cpu_capability_for_testing(level); }
  ~AtLevel() { ember::kernels::set_cpu_capability_for_testing(std::nullopt); }
  AtLevel(const AtLevel&) = delete;
  AtLevel& operator=(const AtLevel&) = delete;
};

}  // namespace ember_test
