// copy_ / contiguous of permuted tensors: the tiled transpose path (Note [Transposing
// copies]) against an element-by-element walk of the source's strides.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "ember/ember.h"

using namespace ember;

namespace {

// Every element of a equals, bit for bit, the element of b at the same index; both
// walked through their own sizes and strides.
::testing::AssertionResult same_strided_elements(const Tensor& a, const Tensor& b) {
  if (!a.sizes().equals(b.sizes())) return ::testing::AssertionFailure() << "sizes differ";
  const int64_t nd = a.dim(), n = a.numel();
  const size_t item = a.itemsize();
  const auto* pa = static_cast<const unsigned char*>(a.data_ptr());
  const auto* pb = static_cast<const unsigned char*>(b.data_ptr());
  std::vector<int64_t> idx(static_cast<size_t>(nd), 0);
  for (int64_t lin = 0; lin < n; ++lin) {
    int64_t oa = 0, ob = 0;
    for (int64_t k = 0; k < nd; ++k) {
      oa += idx[static_cast<size_t>(k)] * a.stride(k);
      ob += idx[static_cast<size_t>(k)] * b.stride(k);
    }
    if (std::memcmp(pa + oa * item, pb + ob * item, item) != 0)
      return ::testing::AssertionFailure() << "element " << lin << " differs";
    for (int64_t k = nd - 1; k >= 0; --k) {
      if (++idx[static_cast<size_t>(k)] < a.size(k)) break;
      idx[static_cast<size_t>(k)] = 0;
    }
  }
  return ::testing::AssertionSuccess();
}

// Every element of dst (contiguous) equals, bit for bit, the element of src at the same
// index, found through src's sizes and strides.
::testing::AssertionResult same_elements(const Tensor& dst, const Tensor& src) {
  return same_strided_elements(dst, src);
}

Tensor base(std::vector<int64_t> sizes, ScalarType dt) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  // Distinct values in every dtype wide enough to hold them (bool/uint8 wrap; still checked bitwise).
  return arange(n, TensorOptions().dtype(kLong)).remainder(dt == kBool ? 2 : 251).to(dt).view(sizes);
}

}  // namespace

TEST(TransposeCopy, PermutedTensorsOfEveryElementSize) {
  struct Case {
    std::vector<int64_t> sizes, perm;
  };
  // Sizes that are and are not multiples of the 16 x 16 tile; 2-D to 4-D; the stride-1
  // source dim first, in the middle, next to last.
  const std::vector<Case> cases = {
      {{256, 1024}, {1, 0}},           {{67, 129}, {1, 0}},
      {{3, 45, 100}, {0, 2, 1}},       {{40, 3, 70}, {2, 1, 0}},
      {{4, 256, 4, 64}, {3, 1, 0, 2}}, {{5, 7, 33, 17}, {1, 3, 0, 2}},
      {{1, 130, 1, 40}, {3, 2, 1, 0}},
  };
  for (ScalarType dt : {kBool, kHalf, kFloat, kDouble, kComplexDouble}) {
    for (const Case& c : cases) {
      const Tensor src = base(c.sizes, dt).permute(c.perm);
      const Tensor out = src.contiguous();
      ASSERT_TRUE(out.is_contiguous());
      EXPECT_TRUE(same_elements(out, src)) << dtype_name(dt) << " sizes " << shape_str(src.sizes());
      Tensor dst = empty(src.sizes(), TensorOptions().dtype(dt));
      dst.copy_(src);
      EXPECT_TRUE(same_elements(dst, src)) << dtype_name(dt) << " copy_";
    }
  }
}

TEST(TransposeCopy, StridedInnerDimsAndSharedStorage) {
  // A sliced transpose (source strides (1, 2 * 300)), and a transpose read from storage
  // the destination does not share.
  const Tensor big = base({600, 300}, kFloat);
  const Tensor src = big.slice(0, 0, 600, 2).t();  // [300, 300], strides (1, 600)
  EXPECT_TRUE(same_elements(src.contiguous(), src));
  // Copy within one storage, halves apart: the transpose of the first half into the second.
  Tensor buf = base({2, 128, 128}, kDouble);
  buf.select(0, 1).copy_(buf.select(0, 0).t());
  const Tensor expect = base({128, 128}, kDouble).t();
  EXPECT_TRUE(same_elements(buf.select(0, 1), expect));
}

TEST(TransposeCopy, IntoASliceOfAPackedBuffer) {
  // Attention's q|k|v gradient: a [T, N, 3, H, hd] buffer viewed as (3, N, H, T, hd);
  // the transposed gradient of k goes into slot 1, whose inner dim has stride 1 but
  // which is not contiguous. The other slots keep their values.
  for (ScalarType dt : {kHalf, kFloat, kDouble}) {
    Tensor buf = full({40, 3, 3, 2, 24}, -7.0, TensorOptions().dtype(dt));
    Tensor slot = buf.permute({2, 1, 3, 0, 4}).select(0, 1);  // [3, 2, 40, 24]
    const Tensor src = base({3, 2, 24, 40}, dt).transpose(-1, -2);
    ASSERT_EQ(slot.stride(-1), 1);
    ASSERT_FALSE(slot.is_contiguous());
    slot.copy_(src);
    EXPECT_TRUE(same_elements(slot.contiguous(), src)) << dtype_name(dt);
    Tensor others = cat({buf.select(2, 0), buf.select(2, 2)}, 0);
    EXPECT_TRUE(others.eq(-7.0).all().item<bool>()) << dtype_name(dt);
  }
}

// The loop engine steps whole rows along the second dim inline (TensorIterator::
// serial_for_each); with two threads the chunk boundaries fall inside rows and
// inside runs of rows. Copies and products into and out of the slots of a packed
// buffer (short contiguous rows, large outer strides), against element walks.
TEST(LoopEngine, ShortRowsOfPermutedOperandsAcrossThreadChunks) {
  const int threads = get_num_threads();
  for (int t : {1, 2}) {
    set_num_threads(t);
    for (const std::vector<int64_t>& s :
         {std::vector<int64_t>{37, 5, 3, 3, 24}, std::vector<int64_t>{128, 16, 3, 4, 64},
          std::vector<int64_t>{9, 2, 3, 1, 7}}) {
      Tensor buf = base(s, kFloat);
      const Tensor slots = buf.permute({2, 1, 3, 0, 4});  // (3, N, H, T, hd)
      const Tensor src = base({slots.size(1), slots.size(2), slots.size(3), slots.size(4)}, kFloat) + 0.5;
      Tensor slot = slots.select(0, 2);
      slot.copy_(src);
      EXPECT_TRUE(same_strided_elements(slot, src)) << "copy_ into slot, " << t << " threads";
      const Tensor untouched = base(s, kFloat).permute({2, 1, 3, 0, 4});
      EXPECT_TRUE(same_strided_elements(slots.select(0, 0), untouched.select(0, 0)));
      EXPECT_TRUE(same_strided_elements(slots.select(0, 1), untouched.select(0, 1)));
      const Tensor q = slots.select(0, 1);
      const Tensor scaled = q * 0.125;
      EXPECT_TRUE(same_strided_elements(scaled, untouched.select(0, 1).contiguous() * 0.125))
          << "product of a slot, " << t << " threads";
      EXPECT_TRUE(same_strided_elements(q.contiguous(), untouched.select(0, 1))) << "contiguous() of a slot";
    }
  }
  set_num_threads(threads);
}
