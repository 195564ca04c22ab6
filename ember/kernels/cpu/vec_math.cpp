#include "ember/kernels/cpu/vec_math.h"

#include <atomic>

#include "ember/kernels/cpu/cpu_capability.h"

namespace torch::kernels::vec {

namespace {
std::atomic<bool> g_enabled{true};

// The level the intrinsic kernels run at (Note [CPU capability]); default with vec math off.
CpuCapability level() { return vec_math_enabled() ? cpu_capability() : CpuCapability::Default; }

// The AVX-512 entry, the AVX2 one, or `none` at the default level.
template <typename T>
T pick(T avx512_entry, T avx2_entry, T none) {
  switch (level()) {
    case CpuCapability::AVX512:
      return avx512_entry;
    case CpuCapability::AVX2:
      return avx2_entry;
    case CpuCapability::Default:
      break;
  }
  return none;
}
}  // namespace

void set_vec_math_enabled(bool enabled) { g_enabled.store(enabled, std::memory_order_relaxed); }
bool vec_math_enabled() { return g_enabled.load(std::memory_order_relaxed); }

const UnaryVec& unary_vec(UnaryOpId op) {
  static const UnaryVec kNone{};
  const int i = static_cast<int>(op);
  return *pick(&avx512::kUnaryTable[i], &avx2::kUnaryTable[i], &kNone);
}

UnaryF32 tanh_f32_u35() { return pick(avx512::kTanhU35, avx2::kTanhU35, UnaryF32{}); }

UnaryF32 softmax_row_f32(bool log) {
  const int i = log ? 1 : 0;
  return pick(avx512::kSoftmaxRow[i], avx2::kSoftmaxRow[i], UnaryF32{});
}

MaxPoolRowF32 max_pool_row_f32() { return pick(avx512::kMaxPoolRow, avx2::kMaxPoolRow, MaxPoolRowF32{}); }

const UnaryVec& gelu_vec(bool tanh_approximation) {
  static const UnaryVec kNone{};
  const int i = tanh_approximation ? 1 : 0;
  return *pick(&avx512::kGelu[i], &avx2::kGelu[i], &kNone);
}

}  // namespace torch::kernels::vec
