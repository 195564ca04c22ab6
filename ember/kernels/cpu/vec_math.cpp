#include "ember/kernels/cpu/vec_math.h"

#include <atomic>

namespace torch::kernels::vec {

namespace {
bool cpu_has_avx512() {
  static const bool has = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
  return has;
}
std::atomic<bool> g_enabled{true};
}  // namespace

void set_vec_math_enabled(bool enabled) { g_enabled.store(enabled, std::memory_order_relaxed); }
bool vec_math_enabled() { return g_enabled.load(std::memory_order_relaxed); }

const UnaryVec& unary_vec(UnaryOpId op) {
  static const UnaryVec kNone{};
  if (!cpu_has_avx512() || !vec_math_enabled()) return kNone;
  return avx512::kUnaryTable[static_cast<int>(op)];
}

UnaryF32 tanh_f32_u35() { return cpu_has_avx512() && vec_math_enabled() ? avx512::kTanhU35 : nullptr; }

UnaryF32 softmax_row_f32(bool log) {
  return cpu_has_avx512() && vec_math_enabled() ? avx512::kSoftmaxRow[log ? 1 : 0] : nullptr;
}

MaxPoolRowF32 max_pool_row_f32() { return cpu_has_avx512() && vec_math_enabled() ? avx512::kMaxPoolRow : nullptr; }

const UnaryVec& gelu_vec(bool tanh_approximation) {
  static const UnaryVec kNone{};
  if (!cpu_has_avx512() || !vec_math_enabled()) return kNone;
  return avx512::kGelu[tanh_approximation ? 1 : 0];
}

}  // namespace torch::kernels::vec
