#include "ember/vision/io/detail/image_layout.h"

#include <cstring>

#include "ember/core/error.h"
#include "ember/core/parallel.h"
#include "ember/ops/factory/factory.h"

#if defined(__SSSE3__)
#include <immintrin.h>
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

#if defined(__SSSE3__)
// pshufb masks that gather one channel of 16 RGB pixels (48 bytes in three
// 16-byte blocks) into 16 consecutive bytes: OR of the three shuffles.
struct ChannelMasks {
  __m128i from[3];
};
ChannelMasks channel_masks(int channel) {
  alignas(16) int8_t m[3][16];
  for (int block = 0; block < 3; ++block)
    for (int i = 0; i < 16; ++i) {
      const int byte = 3 * i + channel - 16 * block;  // source byte of pixel i within this block
      m[block][i] = byte >= 0 && byte < 16 ? static_cast<int8_t>(byte) : int8_t{-1};
    }
  ChannelMasks masks;
  for (int block = 0; block < 3; ++block)
    masks.from[block] = _mm_load_si128(reinterpret_cast<const __m128i*>(m[block]));
  return masks;
}
#endif

// RGB pixels -> three planes by byte shuffles: the scalar loop does not
// vectorize and would cost a quarter of a JPEG decode. Streaming
// (non-temporal) stores send a large output to memory without first reading
// it in, and without evicting the decoder's working set.
template <bool kStream>
void deinterleave3_row(const uint8_t* src, uint8_t* r, uint8_t* g, uint8_t* b, int64_t width) {
  int64_t x = 0;
  [[maybe_unused]] uint8_t* planes[3] = {r, g, b};
#if defined(__AVX2__)
  {
    // Two 16-pixel groups side by side, one per 128-bit lane, so the in-lane
    // shuffles of the SSSE3 path apply unchanged and each plane gets 32 bytes.
    __m256i masks[3][3];
    for (int c = 0; c < 3; ++c) {
      const ChannelMasks m = channel_masks(c);
      for (int block = 0; block < 3; ++block) masks[c][block] = _mm256_broadcastsi128_si256(m.from[block]);
    }
    for (; x + 32 <= width; x += 32) {
      const uint8_t* p = src + 3 * x;
      const auto load2 = [p](int off) {
        return _mm256_inserti128_si256(
            _mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + off))),
            _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 48 + off)), 1);
      };
      const __m256i blocks[3] = {load2(0), load2(16), load2(32)};
      for (int c = 0; c < 3; ++c) {
        const __m256i v = _mm256_or_si256(
            _mm256_or_si256(_mm256_shuffle_epi8(blocks[0], masks[c][0]), _mm256_shuffle_epi8(blocks[1], masks[c][1])),
            _mm256_shuffle_epi8(blocks[2], masks[c][2]));
        auto* out = reinterpret_cast<__m256i*>(planes[c] + x);
        if constexpr (kStream) {
          _mm256_stream_si256(out, v);
        } else {
          _mm256_storeu_si256(out, v);
        }
      }
    }
  }
#endif
#if defined(__SSSE3__)
  {
    const ChannelMasks masks[3] = {channel_masks(0), channel_masks(1), channel_masks(2)};
    for (; x + 16 <= width; x += 16) {
      const __m128i blocks[3] = {_mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 3 * x)),
                                 _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 3 * x + 16)),
                                 _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 3 * x + 32))};
      for (int c = 0; c < 3; ++c) {
        const __m128i v = _mm_or_si128(
            _mm_or_si128(_mm_shuffle_epi8(blocks[0], masks[c].from[0]), _mm_shuffle_epi8(blocks[1], masks[c].from[1])),
            _mm_shuffle_epi8(blocks[2], masks[c].from[2]));
        auto* out = reinterpret_cast<__m128i*>(planes[c] + x);
        if constexpr (kStream) {
          _mm_stream_si128(out, v);
        } else {
          _mm_storeu_si128(out, v);
        }
      }
    }
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
    // Streaming stores need every store aligned: 32 bytes for AVX2's.
#if defined(__AVX2__)
    constexpr uintptr_t kAlign = 31;
#else
    constexpr uintptr_t kAlign = 15;
#endif
    const bool aligned =
        ((reinterpret_cast<uintptr_t>(r) | reinterpret_cast<uintptr_t>(g) | reinterpret_cast<uintptr_t>(b)) & kAlign) ==
        0;
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
