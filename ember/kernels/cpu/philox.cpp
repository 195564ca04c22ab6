#include "ember/kernels/cpu/philox.h"

#include <algorithm>
#include <cstring>

#include "ember/kernels/cpu/cpu_capability.h"
#include "ember/kernels/cpu/vec_math.h"

namespace torch::kernels {

namespace {

constexpr uint32_t kMul0 = 0xD2511F53u, kMul1 = 0xCD9E8D57u;    // round multipliers
constexpr uint32_t kWeyl0 = 0x9E3779B9u, kWeyl1 = 0xBB67AE85u;  // key schedule increments
constexpr int64_t kGroup = 64;                                  // draws per group (16 blocks)

// The vector kernels at the CPU capability in use (Note [CPU capability]), unless tests
// switched vector kernels off (vec::set_vec_math_enabled) to check the portable one.
CpuCapability level() { return vec::vec_math_enabled() ? cpu_capability() : CpuCapability::Default; }

// The 64 draws of group g, in the order of Note [Philox draws].
void group_portable(uint32_t* out, uint64_t g, uint64_t key, uint64_t stream) {
  for (uint32_t l = 0; l < 16; ++l) {
    const uint64_t q = g * 16 + l;
    const auto r = philox4x32_10({static_cast<uint32_t>(q), static_cast<uint32_t>(q >> 32),
                                  static_cast<uint32_t>(stream), static_cast<uint32_t>(stream >> 32)},
                                 {static_cast<uint32_t>(key), static_cast<uint32_t>(key >> 32)});
    for (int w = 0; w < 4; ++w) out[w * 16 + l] = r[static_cast<size_t>(w)];
  }
}

void group(uint32_t* out, uint64_t g, uint64_t key, uint64_t stream, CpuCapability isa) {
  if (isa == CpuCapability::AVX512) return avx512::philox_group(out, g, key, stream);
  if (isa == CpuCapability::AVX2) return avx2::philox_group(out, g, key, stream);
  group_portable(out, g, key, stream);
}

}  // namespace

std::array<uint32_t, 4> philox4x32_10(std::array<uint32_t, 4> c, std::array<uint32_t, 2> k) {
  for (int round = 0; round < 10; ++round) {
    const uint64_t p0 = uint64_t(kMul0) * c[0], p1 = uint64_t(kMul1) * c[2];
    c = {static_cast<uint32_t>(p1 >> 32) ^ c[1] ^ k[0], static_cast<uint32_t>(p1),
         static_cast<uint32_t>(p0 >> 32) ^ c[3] ^ k[1], static_cast<uint32_t>(p0)};
    k = {k[0] + kWeyl0, k[1] + kWeyl1};
  }
  return c;
}

void philox_draws(uint32_t* out, int64_t first, int64_t n, uint64_t key, uint64_t stream) {
  int64_t i = first;
  const int64_t end = first + n;
  uint32_t tmp[kGroup];
  const CpuCapability isa = level();
  while (i < end) {
    const int64_t g = i / kGroup, g0 = g * kGroup;
    if (i == g0 && end - i >= 4 * kGroup && isa != CpuCapability::Default) {  // four whole groups, interleaved
      if (isa == CpuCapability::AVX512)
        avx512::philox_groups4(out + (i - first), static_cast<uint64_t>(g), key, stream);
      else
        avx2::philox_groups4(out + (i - first), static_cast<uint64_t>(g), key, stream);
      i += 4 * kGroup;
      continue;
    }
    if (i == g0 && end - i >= kGroup) {  // a whole group: straight into out
      group(out + (i - first), static_cast<uint64_t>(g), key, stream, isa);
      i += kGroup;
      continue;
    }
    group(tmp, static_cast<uint64_t>(g), key, stream, isa);  // a partial group at either end
    const int64_t stop = std::min(end, g0 + kGroup);
    std::memcpy(out + (i - first), tmp + (i - g0), static_cast<size_t>(stop - i) * sizeof(uint32_t));
    i = stop;
  }
}

}  // namespace torch::kernels
