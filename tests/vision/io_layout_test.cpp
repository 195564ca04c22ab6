// The interleaved <-> planar copies every image decoder and encoder goes through, on sizes that
// take the vector, streaming-store and scalar-tail paths.
#include <gtest/gtest.h>

#include "common/test_util.h"
#include "ember/vision/io/detail/image_layout.h"

namespace torch::vision::io {
namespace {

TEST(ImageLayout, HwcToChwEqualsPermute) {
  for (auto [h, w, c] : {std::tuple<int64_t, int64_t, int64_t>{1, 1, 3},
                         {3, 17, 3},
                         {5, 33, 4},
                         {7, 9, 1},
                         {4, 5, 2},
                         {1024, 1040, 3},
                         {600, 1031, 3}}) {
    SCOPED_TRACE(::testing::Message() << h << "x" << w << "x" << c);
    // Distinct neighbouring bytes, so any misplaced byte shows.
    const Tensor hwc = (arange(0, h * w * c, kInt32) * 7).remainder(251).to(kUInt8).reshape({h, w, c});
    const Tensor chw = detail::hwc_to_chw(hwc.data_ptr<uint8_t>(), h, w, c);
    EXPECT_TRUE(chw.is_contiguous());
    ASSERT_EQ(chw.sizes(), (std::vector<int64_t>{c, h, w}));
    // A plain loop: the reference must not share the code under test.
    const uint8_t* in = hwc.data_ptr<uint8_t>();
    const uint8_t* out = chw.data_ptr<uint8_t>();
    int64_t mismatches = 0;
    for (int64_t y = 0; y < h; ++y)
      for (int64_t x = 0; x < w; ++x)
        for (int64_t k = 0; k < c; ++k) mismatches += out[(k * h + y) * w + x] != in[(y * w + x) * c + k];
    EXPECT_EQ(mismatches, 0);
    Tensor back = empty({h, w, c}, kUInt8);
    detail::chw_to_hwc(chw.data_ptr<uint8_t>(), back.data_ptr<uint8_t>(), h, w, c);
    EXPECT_TRUE(equal(back, hwc));
  }
}

TEST(ImageLayout, SizeLimitRaisesBeforeAllocating) {
  EXPECT_EMBER_ERROR(detail::check_image_size(100000, 100000, "decode_x"), "decode_x", "100000x100000", "limit");
  EXPECT_EMBER_ERROR(detail::check_image_size(0, 5, "decode_x"), "decode_x", "0x5");
  EXPECT_NO_THROW(detail::check_image_size(16384, 16384, "decode_x"));
}

}  // namespace
}  // namespace torch::vision::io
