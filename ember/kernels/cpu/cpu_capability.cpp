#include "ember/kernels/cpu/cpu_capability.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>

#include "ember/core/error.h"

namespace torch::kernels {

namespace {

CpuCapability detect() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512vl"))
    return CpuCapability::AVX512;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return CpuCapability::AVX2;
#endif
  return CpuCapability::Default;
}

// The environment's choice, parsed once; an unknown value raises at every query.
CpuCapability from_environment() {
  static const CpuCapability level = [] {
    const CpuCapability supported = cpu_capability_supported();
    const char* env = std::getenv("EMBER_CPU_CAPABILITY");
    if (env == nullptr || *env == '\0') return supported;
    return std::min(parse_cpu_capability(env), supported);
  }();
  return level;
}

// -1: no test override.
std::atomic<int> g_test_level{-1};

}  // namespace

CpuCapability cpu_capability_supported() {
  static const CpuCapability level = detect();
  return level;
}

CpuCapability cpu_capability() {
  const int forced = g_test_level.load(std::memory_order_relaxed);
  if (forced >= 0) return static_cast<CpuCapability>(forced);
  return from_environment();
}

const char* cpu_capability_name(CpuCapability level) {
  switch (level) {
    case CpuCapability::Default:
      return "default";
    case CpuCapability::AVX2:
      return "avx2";
    case CpuCapability::AVX512:
      return "avx512";
  }
  return "default";
}

CpuCapability parse_cpu_capability(std::string_view name) {
  for (CpuCapability c : {CpuCapability::Default, CpuCapability::AVX2, CpuCapability::AVX512})
    if (name == cpu_capability_name(c)) return c;
  EMBER_CHECK(false, "EMBER_CPU_CAPABILITY: unknown level '", std::string(name),
              "' (expected default, avx2 or avx512)");
  return CpuCapability::Default;
}

void set_cpu_capability_for_testing(std::optional<CpuCapability> level) {
  if (level) {
    EMBER_CHECK(*level <= cpu_capability_supported(), "set_cpu_capability_for_testing: this CPU does not run ",
                cpu_capability_name(*level), " (it supports up to ", cpu_capability_name(cpu_capability_supported()),
                ")");
  }
  g_test_level.store(level ? static_cast<int>(*level) : -1, std::memory_order_relaxed);
}

}  // namespace torch::kernels

namespace torch {

std::string show_config() {
  std::string s = "Ember\n  compiled for: ";
#if defined(__AVX512F__)
  s += "AVX-512";
#elif defined(__AVX2__)
  s += "AVX2";
#else
  s += "baseline x86-64";
#endif
  s += "\n  CPU capability usage: ";
  s += kernels::cpu_capability_name(kernels::cpu_capability());
  s += " (CPU supports ";
  s += kernels::cpu_capability_name(kernels::cpu_capability_supported());
  s += "; EMBER_CPU_CAPABILITY caps it)\n";
  return s;
}

}  // namespace torch
