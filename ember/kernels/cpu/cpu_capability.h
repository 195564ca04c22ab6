#pragma once
// Note [CPU capability]
// Every kernel written with intrinsics exists as a portable loop and as variants compiled
// for AVX2 + FMA (*_avx2.cpp) and AVX-512 (*_avx512.cpp); one query chooses among them.
// The level in use is the highest the CPU supports (cpuid), capped by the environment
// variable EMBER_CPU_CAPABILITY = default | avx2 | avx512 (the spelling of LibTorch's
// ATEN_CPU_CAPABILITY), read once, at the first query. So EMBER_CPU_CAPABILITY=avx2 on an
// AVX-512 machine runs exactly the kernels an AVX2 machine runs, and default the portable
// loops. A level above what the CPU supports is capped, as ATen does; an unknown value
// raises. Only the intrinsic kernels follow the level: the rest of the library is compiled
// for the build machine's level (Note [Native instruction set]).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "ember/core/namespace.h"

namespace torch::kernels {

// Ordered: a level includes the ones below it.
enum class CpuCapability : uint8_t { Default = 0, AVX2 = 1, AVX512 = 2 };

// The level the kernels use now.
CpuCapability cpu_capability();
// The highest level this CPU runs (AVX2 needs FMA too; AVX-512 the F, DQ, BW and VL sets).
CpuCapability cpu_capability_supported();

// "default", "avx2", "avx512".
const char* cpu_capability_name(CpuCapability level);
// The inverse of cpu_capability_name; raises on any other string, naming it.
CpuCapability parse_cpu_capability(std::string_view name);

// Tests run each kernel at every level the CPU supports: a level raises if the CPU lacks
// it; nullopt goes back to the environment's choice. Not for concurrent use with kernels.
void set_cpu_capability_for_testing(std::optional<CpuCapability> level);

}  // namespace torch::kernels

namespace torch {
// What the library was built with and runs: the compile-time instruction set, the CPU
// capability in use (Note [CPU capability]) and what the CPU supports. Like
// torch::show_config(), for logs and CI.
std::string show_config();
}  // namespace torch
