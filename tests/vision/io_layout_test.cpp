// The interleaved <-> planar copies every image decoder and encoder goes through, on sizes that
// take the vector, streaming-store and scalar-tail paths.
#include <gtest/gtest.h>

#include "common/test_util.h"
#include "ember/vision/io/detail/image_layout.h"

namespace torch::vision::io {
namespace {

TEST(ImageLayout, HwcToChwEqualsPermute) {
  manual_seed(0);
  for (auto [h, w, c] : {std::tuple<int64_t, int64_t, int64_t>{1, 1, 3},
                         {3, 17, 3},
                         {5, 33, 4},
                         {7, 9, 1},
                         {4, 5, 2},
                         {1024, 1040, 3},
                         {600, 1031, 3}}) {
    SCOPED_TRACE(::testing::Message() << h << "x" << w << "x" << c);
    const Tensor hwc = randint(0, 256, {h, w, c}).to(kUInt8);
    const Tensor chw = detail::hwc_to_chw(hwc.data_ptr<uint8_t>(), h, w, c);
    EXPECT_TRUE(chw.is_contiguous());
    EXPECT_TRUE(equal(chw, hwc.permute({2, 0, 1}).contiguous()));
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
