#include "ember/vision/io/detail/image_layout.h"

#include <cstring>

#include "ember/core/error.h"
#include "ember/core/parallel.h"
#include "ember/ops/factory/factory.h"

#if defined(__SSSE3__)
#include <tmmintrin.h>
#endif

namespace torch::vision::io::detail {

void check_encoded_data(const Tensor& data, const char* op) {
  EMBER_CHECK(data.defined(), op, ": expected a tensor of encoded bytes, got an undefined tensor");
  EMBER_CHECK(data.scalar_type() == kUInt8, op, ": expected a torch.uint8 tensor, got ", data.scalar_type());
  EMBER_CHECK(data.dim() == 1 && data.numel() > 0, op, ": expected a non empty 1-dimensional tensor, got shape ",
              data.sizes());
}

void check_image_size(int64_t width, int64_t height, const char* op) {
  EMBER_CHECK(width > 0 && height > 0, op, ": invalid image size ", width, "x", height);
  EMBER_CHECK(width <= kMaxImagePixels / height, op, ": image of ", width, "x", height,
              " pixels exceeds the decoder limit of ", kMaxImagePixels, " pixels");
}

Tensor check_encoder_input(const Tensor& image, const char* op) {
  EMBER_CHECK(image.defined(), op, ": expected an image tensor, got an undefined tensor");
  EMBER_CHECK(image.scalar_type() == kUInt8, op, ": input tensor dtype should be uint8, got ", image.scalar_type());
  EMBER_CHECK(image.dim() == 3, op, ": input data should be a 3-dimensional [C, H, W] tensor, got shape ",
              image.sizes());
  const int64_t channels = image.size(0);
  EMBER_CHECK(channels == 1 || channels == 3, op, ": the number of channels should be 1 or 3, got: ", channels);
  EMBER_CHECK(image.size(1) > 0 && image.size(2) > 0, op, ": image must not be empty, got shape ", image.sizes());
  return image.contiguous();
}

namespace {

// 16 RGB pixels (48 bytes) -> 16 bytes in each plane, by byte shuffles: the
// scalar loop does not vectorize and would cost a quarter of a JPEG decode.
// Streaming (non-temporal) stores keep a large output from evicting the
// decoder's working set on its way to memory.
template <bool kStream>
void deinterleave3_row(const uint8_t* src, uint8_t* r, uint8_t* g, uint8_t* b, int64_t width) {
  int64_t x = 0;
#if defined(__SSSE3__)
  const auto store = [](uint8_t* p, __m128i v) {
    if constexpr (kStream) {
      _mm_stream_si128(reinterpret_cast<__m128i*>(p), v);
    } else {
      _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v);
    }
  };
  const __m128i r0 = _mm_setr_epi8(0, 3, 6, 9, 12, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
  const __m128i r1 = _mm_setr_epi8(-1, -1, -1, -1, -1, -1, 2, 5, 8, 11, 14, -1, -1, -1, -1, -1);
  const __m128i r2 = _mm_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 1, 4, 7, 10, 13);
  const __m128i g0 = _mm_setr_epi8(1, 4, 7, 10, 13, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
  const __m128i g1 = _mm_setr_epi8(-1, -1, -1, -1, -1, 0, 3, 6, 9, 12, 15, -1, -1, -1, -1, -1);
  const __m128i g2 = _mm_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 2, 5, 8, 11, 14);
  const __m128i b0 = _mm_setr_epi8(2, 5, 8, 11, 14, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
  const __m128i b1 = _mm_setr_epi8(-1, -1, -1, -1, -1, 1, 4, 7, 10, 13, -1, -1, -1, -1, -1, -1);
  const __m128i b2 = _mm_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 3, 6, 9, 12, 15);
  for (; x + 16 <= width; x += 16) {
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 3 * x));
    const __m128i m = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 3 * x + 16));
    const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 3 * x + 32));
    _mm_storeu_si128(
        reinterpret_cast<__m128i*>(r + x),
        _mm_or_si128(_mm_or_si128(_mm_shuffle_epi8(a, r0), _mm_shuffle_epi8(m, r1)), _mm_shuffle_epi8(c, r2)));
    _mm_storeu_si128(
        reinterpret_cast<__m128i*>(g + x),
        _mm_or_si128(_mm_or_si128(_mm_shuffle_epi8(a, g0), _mm_shuffle_epi8(m, g1)), _mm_shuffle_epi8(c, g2)));
    _mm_storeu_si128(
        reinterpret_cast<__m128i*>(b + x),
        _mm_or_si128(_mm_or_si128(_mm_shuffle_epi8(a, b0), _mm_shuffle_epi8(m, b1)), _mm_shuffle_epi8(c, b2)));
  }
#endif
  for (; x < width; ++x) {
    r[x] = src[3 * x];
    g[x] = src[3 * x + 1];
    b[x] = src[3 * x + 2];
  }
}

// Planes larger than a core's L2 cache are written with streaming stores.
constexpr int64_t kStreamingPlaneBytes = int64_t{1} << 20;

void deinterleave_row(const uint8_t* src, uint8_t* dst, int64_t width, int64_t channels, int64_t plane_size) {
  if (channels == 1) {
    std::memcpy(dst, src, static_cast<size_t>(width));
  } else if (channels == 3) {
    uint8_t* r = dst;
    uint8_t* g = dst + plane_size;
    uint8_t* b = dst + 2 * plane_size;
    const bool aligned =
        ((reinterpret_cast<uintptr_t>(r) | reinterpret_cast<uintptr_t>(g) | reinterpret_cast<uintptr_t>(b)) & 15) == 0;
    if (aligned && plane_size >= kStreamingPlaneBytes) {
      deinterleave3_row<true>(src, r, g, b, width);
    } else {
      deinterleave3_row<false>(src, r, g, b, width);
    }
  } else {
    for (int64_t x = 0; x < width; ++x)
      for (int64_t c = 0; c < channels; ++c) dst[c * plane_size + x] = src[x * channels + c];
  }
}

}  // namespace

void deinterleave_rows(const uint8_t* src, uint8_t* dst, int64_t row0, int64_t rows, int64_t width, int64_t channels,
                       int64_t plane_size) {
  for (int64_t y = 0; y < rows; ++y)
    deinterleave_row(src + y * width * channels, dst + (row0 + y) * width, width, channels, plane_size);
#if defined(__SSSE3__)
  _mm_sfence();  // order the streaming stores before anyone reads the planes
#endif
}

Tensor hwc_to_chw(const uint8_t* src, int64_t height, int64_t width, int64_t channels) {
  Tensor out = empty({channels, height, width}, kUInt8);
  uint8_t* dst = out.data_ptr<uint8_t>();
  const int64_t plane = height * width;
  parallel_for(0, height, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(1, width * channels)),
               [&](int64_t begin, int64_t end) {
                 deinterleave_rows(src + begin * width * channels, dst, begin, end - begin, width, channels, plane);
               });
  return out;
}

void chw_to_hwc(const uint8_t* src, uint8_t* dst, int64_t height, int64_t width, int64_t channels) {
  const int64_t plane = height * width;
  for (int64_t i = 0; i < plane; ++i)
    for (int64_t c = 0; c < channels; ++c) dst[i * channels + c] = src[c * plane + i];
}

}  // namespace torch::vision::io::detail
