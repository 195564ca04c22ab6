// Philox4x32-10 draws (Note [Philox draws]): the block function against the algorithm's
// published known-answer vectors, the draw order of the (vectorised) stream against the
// block function, and dropout masks that follow the seed and not the thread count.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <vector>

#include "common/test_util.h"
#include "ember/ember.h"
#include "ember/kernels/cpu/philox.h"
#include "ember/kernels/cpu/vec_math.h"

using namespace ember;

TEST(Philox, KnownAnswerVectors) {
  // The known-answer vectors distributed with the algorithm's reference implementation.
  using A4 = std::array<uint32_t, 4>;
  EXPECT_EQ(kernels::philox4x32_10({0, 0, 0, 0}, {0, 0}), (A4{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}));
  EXPECT_EQ(kernels::philox4x32_10({0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, {0xffffffff, 0xffffffff}),
            (A4{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}));
  EXPECT_EQ(kernels::philox4x32_10({0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, {0xa4093822, 0x299f31d0}),
            (A4{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}));
}

namespace {
// Draw i of the stream as the Note defines it, from the block function alone.
uint32_t expected_draw(int64_t i, uint64_t key, uint64_t stream) {
  const uint64_t g = static_cast<uint64_t>(i) / 64, r = static_cast<uint64_t>(i) % 64;
  const uint64_t q = g * 16 + r % 16;
  const auto b = kernels::philox4x32_10({static_cast<uint32_t>(q), static_cast<uint32_t>(q >> 32),
                                         static_cast<uint32_t>(stream), static_cast<uint32_t>(stream >> 32)},
                                        {static_cast<uint32_t>(key), static_cast<uint32_t>(key >> 32)});
  return b[static_cast<size_t>(r / 16)];
}
}  // namespace

TEST(Philox, DrawsFollowTheDocumentedOrderFromAnyOffset) {
  const uint64_t key = 0x0123456789abcdefULL, stream = 0xfedcba9876543210ULL;
  // Aligned and unaligned starts, lengths inside one group and across several, and blocks
  // whose 32-bit low word wraps (q = 2^32 - 8 ... 2^32 + 7: the carry into the high word).
  // Runs of four whole groups take the interleaved AVX-512 kernel, one across the wrap.
  // Both kernels: the AVX-512 one (where the CPU has it) and the portable one.
  const int64_t wrap = (int64_t(1) << 34) - 32;  // draw index of block 2^32 - 8
  for (bool vector_kernels : {true, false}) {
    kernels::vec::set_vec_math_enabled(vector_kernels);
    for (const auto& [first, n] : std::vector<std::pair<int64_t, int64_t>>{{0, 64},
                                                                           {0, 1000},
                                                                           {5, 3},
                                                                           {60, 10},
                                                                           {129, 300},
                                                                           {wrap, 64},
                                                                           {wrap - 64, 192},
                                                                           {wrap + 7, 100},
                                                                           {wrap - 288, 1024}}) {
      std::vector<uint32_t> got(static_cast<size_t>(n));
      kernels::philox_draws(got.data(), first, n, key, stream);
      for (int64_t j = 0; j < n; ++j)
        ASSERT_EQ(got[static_cast<size_t>(j)], expected_draw(first + j, key, stream))
            << "draw " << first + j << (vector_kernels ? "" : " (portable kernel)");
    }
  }
  kernels::vec::set_vec_math_enabled(true);
}

TEST(Philox, DrawsLookUniform) {
  // 2^16 draws: each of the 32 bits is set about half the time (a wrong word order or a
  // constant lane would show here), and the mean is 2^31.
  const int64_t n = 1 << 16;
  std::vector<uint32_t> d(static_cast<size_t>(n));
  kernels::philox_draws(d.data(), 0, n, 42, 7);
  double mean = 0;
  std::array<int64_t, 32> bits{};
  for (uint32_t v : d) {
    mean += v;
    for (int b = 0; b < 32; ++b) bits[static_cast<size_t>(b)] += (v >> b) & 1u;
  }
  EXPECT_NEAR(mean / n / 4294967296.0, 0.5, 0.005);
  for (int b = 0; b < 32; ++b) EXPECT_NEAR(double(bits[static_cast<size_t>(b)]) / n, 0.5, 0.01) << "bit " << b;
}

TEST(Philox, DropoutMaskFollowsTheSeedNotTheThreadCount) {
  const int before = get_num_threads();
  const Tensor x = ones({300001});
  std::vector<Tensor> masks;
  for (int threads : {1, 2}) {
    set_num_threads(threads);
    manual_seed(21);
    masks.push_back(dropout(x, 0.25, true));
  }
  set_num_threads(before);
  EXPECT_TENSOR_EQ(masks[0], masks[1]);
  manual_seed(22);
  const Tensor other = dropout(x, 0.25, true);
  EXPECT_FALSE(other.equal(masks[0]));
  // Two calls in a row draw different masks (the generator advanced).
  manual_seed(21);
  const Tensor first = dropout(x, 0.25, true), second = dropout(x, 0.25, true);
  EXPECT_TENSOR_EQ(first, masks[0]);
  EXPECT_FALSE(second.equal(first));
  EXPECT_NEAR((first == 0).to(kDouble).mean().item<double>(), 0.25, 0.005);
}
