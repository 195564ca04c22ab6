// Note [libpng errors]: libpng reports errors by longjmp to a setjmp in the
// caller. A longjmp that crosses a frame with a live C++ object skips its
// destructor (undefined behaviour), so every call into libpng that can fail
// sits in one of the plain-C-style step functions below, which hold only raw
// pointers and PODs; the C++ caller owns the libpng structs (RAII), the output
// tensor and the error text, and turns a failed step into ember::Error.
#include "ember/vision/io/png.h"

#include <png.h>

#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <new>
#include <vector>

#include "ember/core/error.h"
#include "ember/ops/factory/factory.h"
#include "ember/vision/io/detail/image_layout.h"
#include "ember/vision/io/file.h"

namespace torch::vision::io {

namespace {

// What the libpng callbacks see: the bytes left to read, and the last error.
struct PngState {
  const uint8_t* ptr = nullptr;
  size_t left = 0;
  char message[256] = {};
};

void on_png_error(png_structp png, png_const_charp msg) {
  auto* state = static_cast<PngState*>(png_get_error_ptr(png));
  std::snprintf(state->message, sizeof(state->message), "%s", msg);
  png_longjmp(png, 1);
}

void on_png_warning(png_structp, png_const_charp) {}

void on_png_read(png_structp png, png_bytep out, size_t n) {
  auto* state = static_cast<PngState*>(png_get_io_ptr(png));
  if (n > state->left) png_error(png, "truncated file: read past the end of the data");
  std::memcpy(out, state->ptr, n);
  state->ptr += n;
  state->left -= n;
}

struct PngHeader {
  png_uint_32 width = 0, height = 0;
  int bit_depth = 0, color_type = 0, interlace = 0, channels = 0;
  bool has_trns = false;
};

// deflate encodes at most 258 bytes in 2 bits, so inflated data is at most
// 1032x its compressed size: a header claiming more pixels than the file could
// hold is a lie, caught before anything is allocated.
constexpr int64_t kMaxDeflateRatio = 1032;

// Step 1: signature and header chunks.
bool read_png_header(png_structp png, png_infop info, PngHeader* h) {
  if (setjmp(png_jmpbuf(png))) return false;
  png_set_sig_bytes(png, 8);
  png_set_user_limits(png, 1u << 24, 1u << 24);
  png_set_chunk_malloc_max(png, 64u << 20);
  png_read_info(png, info);
  png_get_IHDR(png, info, &h->width, &h->height, &h->bit_depth, &h->color_type, &h->interlace, nullptr, nullptr);
  h->channels = png_get_channels(png, info);
  h->has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
  return true;
}

// Step 2: the transformations to `mode`, in torchvision 0.14's order and with its
// arguments so the bytes agree; *channels is the output's channel count.
bool set_png_transforms(png_structp png, png_infop info, const PngHeader* h, ImageReadMode mode, int* channels,
                        int* passes) {
  if (setjmp(png_jmpbuf(png))) return false;
  const int color_type = h->color_type;
  const bool is_palette = (color_type & PNG_COLOR_MASK_PALETTE) != 0;
  const bool has_color = (color_type & PNG_COLOR_MASK_COLOR) != 0;
  // A palette only has alpha through tRNS; torchvision assumes it always has,
  // which leaves part of its output uninitialised when it does not.
  bool has_alpha = (color_type & PNG_COLOR_MASK_ALPHA) != 0;
  const png_uint_32 filler = (png_uint_32{1} << h->bit_depth) - 1;
  *channels = h->channels;
  if (color_type == PNG_COLOR_TYPE_GRAY && h->bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
  *passes = h->interlace == PNG_INTERLACE_ADAM7 ? png_set_interlace_handling(png) : 1;
  switch (mode) {
    case ImageReadMode::UNCHANGED:
      if (is_palette && h->bit_depth < 8) png_set_packing(png);  // one index per byte
      break;
    case ImageReadMode::GRAY:
      if (color_type != PNG_COLOR_TYPE_GRAY) {
        if (is_palette) {
          png_set_palette_to_rgb(png);
          has_alpha = h->has_trns;
        }
        if (has_alpha) png_set_strip_alpha(png);
        if (has_color) png_set_rgb_to_gray(png, 1, 0.2989, 0.587);
        *channels = 1;
      }
      break;
    case ImageReadMode::GRAY_ALPHA:
      if (color_type != PNG_COLOR_TYPE_GRAY_ALPHA) {
        if (is_palette) {
          png_set_palette_to_rgb(png);
          has_alpha = h->has_trns;
          if (!has_alpha) png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
        } else if (!has_alpha) {
          png_set_add_alpha(png, filler, PNG_FILLER_AFTER);
        }
        if (has_color) png_set_rgb_to_gray(png, 1, 0.2989, 0.587);
        *channels = 2;
      }
      break;
    case ImageReadMode::RGB:
      if (color_type != PNG_COLOR_TYPE_RGB) {
        if (is_palette) {
          png_set_palette_to_rgb(png);
          has_alpha = h->has_trns;
        } else if (!has_color) {
          png_set_gray_to_rgb(png);
        }
        if (has_alpha) png_set_strip_alpha(png);
        *channels = 3;
      }
      break;
    case ImageReadMode::RGB_ALPHA:
      if (color_type != PNG_COLOR_TYPE_RGB_ALPHA) {
        if (is_palette) {
          png_set_palette_to_rgb(png);
          has_alpha = h->has_trns;
          if (!has_alpha) png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
        } else {
          if (!has_color) png_set_gray_to_rgb(png);
          if (!has_alpha) png_set_add_alpha(png, filler, PNG_FILLER_AFTER);
        }
        *channels = 4;
      }
      break;
  }
  if (h->bit_depth == 16) {
    const int probe = 1;
    if (*reinterpret_cast<const char*>(&probe) == 1) png_set_swap(png);  // native-endian uint16 rows
  }
  png_read_update_info(png, info);
  return true;
}

// Step 3: every row of every pass into `out`, rows of `row_bytes` bytes.
bool read_png_rows(png_structp png, png_infop info, uint8_t* out, png_uint_32 height, size_t row_bytes, int passes) {
  if (setjmp(png_jmpbuf(png))) return false;
  for (int pass = 0; pass < passes; ++pass)
    for (png_uint_32 y = 0; y < height; ++y) png_read_row(png, out + y * row_bytes, nullptr);
  png_read_end(png, nullptr);
  return true;
}

// Owns libpng's read structs.
class PngReadStruct {
 public:
  explicit PngReadStruct(PngState* state) {
    png_ = png_create_read_struct(PNG_LIBPNG_VER_STRING, state, on_png_error, on_png_warning);
    EMBER_CHECK(png_ != nullptr, "decode_png: libpng could not create its read struct");
    info_ = png_create_info_struct(png_);
    if (info_ == nullptr) png_destroy_read_struct(&png_, nullptr, nullptr);
    EMBER_CHECK(info_ != nullptr, "decode_png: libpng could not create its info struct");
    png_set_read_fn(png_, state, on_png_read);
  }
  ~PngReadStruct() { png_destroy_read_struct(&png_, &info_, nullptr); }
  PngReadStruct(const PngReadStruct&) = delete;
  PngReadStruct& operator=(const PngReadStruct&) = delete;
  png_structp png() const { return png_; }
  png_infop info() const { return info_; }

 private:
  png_structp png_ = nullptr;
  png_infop info_ = nullptr;
};

}  // namespace

Tensor decode_png(const Tensor& input, ImageReadMode mode, bool allow_16_bits) {
  detail::check_encoded_data(input, "decode_png");
  const Tensor data = input.contiguous();
  const auto* bytes = data.data_ptr<uint8_t>();
  const auto size = static_cast<size_t>(data.numel());
  EMBER_CHECK(size >= 8, "decode_png: content is too small for png (", size, " bytes)");
  EMBER_CHECK(png_sig_cmp(bytes, 0, 8) == 0, "decode_png: content is not png (bad signature)");
  PngState state;
  state.ptr = bytes + 8;
  state.left = size - 8;
  PngReadStruct s(&state);
  PngHeader h;
  EMBER_CHECK(read_png_header(s.png(), s.info(), &h), "decode_png: invalid PNG header: ", state.message);
  EMBER_CHECK(h.bit_depth <= 8 || allow_16_bits,
              "decode_png: at most 8-bit PNG images are supported currently "
              "(got a ",
              h.bit_depth, "-bit image)");
  const int64_t width = h.width, height = h.height;
  detail::check_image_size(width, height, "decode_png");
  const int64_t packed_bits = width * height * h.channels * h.bit_depth;
  EMBER_CHECK(packed_bits / 8 <= kMaxDeflateRatio * static_cast<int64_t>(size) + 4096, "decode_png: header claims ",
              width, "x", height, " pixels, more than the ", size, "-byte file can hold");
  int channels = 0, passes = 1;
  EMBER_CHECK(set_png_transforms(s.png(), s.info(), &h, mode, &channels, &passes),
              "decode_png: cannot convert to ImageReadMode::", image_read_mode_name(mode), ": ", state.message);
  const size_t row_bytes = png_get_rowbytes(s.png(), s.info());
  const int64_t sample_bytes = h.bit_depth == 16 ? 2 : 1;
  EMBER_CHECK(row_bytes == static_cast<size_t>(width * channels * sample_bytes), "decode_png: unexpected row size ",
              row_bytes, " for ", width, " pixels of ", channels, " channels");
  if (sample_bytes == 1) {
    Tensor hwc = empty({height, width, channels}, kUInt8);
    EMBER_CHECK(read_png_rows(s.png(), s.info(), hwc.data_ptr<uint8_t>(), h.height, row_bytes, passes),
                "decode_png: corrupt image data: ", state.message);
    return detail::hwc_to_chw(hwc.data_ptr<uint8_t>(), height, width, channels);
  }
  std::vector<uint16_t> rows(static_cast<size_t>(height * width * channels));
  EMBER_CHECK(read_png_rows(s.png(), s.info(), reinterpret_cast<uint8_t*>(rows.data()), h.height, row_bytes, passes),
              "decode_png: corrupt image data: ", state.message);
  Tensor out = empty({channels, height, width}, kInt32);
  int32_t* dst = out.data_ptr<int32_t>();
  const int64_t plane = height * width;
  for (int64_t i = 0; i < plane; ++i)
    for (int64_t c = 0; c < channels; ++c) dst[c * plane + i] = rows[static_cast<size_t>(i * channels + c)];
  return out;
}

namespace {

// Where the encoder's bytes go; `failed` is set when growing the buffer throws.
struct PngSink {
  std::vector<uint8_t>* bytes = nullptr;
  char message[256] = {};
};

void on_png_write(png_structp png, png_bytep data, size_t n) {
  auto* sink = static_cast<PngSink*>(png_get_io_ptr(png));
  bool failed = false;
  try {
    sink->bytes->insert(sink->bytes->end(), data, data + n);
  } catch (const std::bad_alloc&) {
    failed = true;
  }
  if (failed) png_error(png, "out of memory");
}

void on_png_flush(png_structp) {}

void on_png_write_error(png_structp png, png_const_charp msg) {
  auto* sink = static_cast<PngSink*>(png_get_error_ptr(png));
  std::snprintf(sink->message, sizeof(sink->message), "%s", msg);
  png_longjmp(png, 1);
}

// torchvision 0.14's encoder settings: 8-bit gray or RGB, no interlace, default
// filters, only the zlib level set.
bool write_png_image(png_structp png, png_infop info, const uint8_t* hwc, png_uint_32 width, png_uint_32 height,
                     int channels, int level) {
  if (setjmp(png_jmpbuf(png))) return false;
  png_set_IHDR(png, info, width, height, 8, channels == 1 ? PNG_COLOR_TYPE_GRAY : PNG_COLOR_TYPE_RGB,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_set_compression_level(png, level);
  png_write_info(png, info);
  const size_t stride = static_cast<size_t>(width) * channels;
  for (png_uint_32 y = 0; y < height; ++y) png_write_row(png, hwc + y * stride);
  png_write_end(png, info);
  return true;
}

class PngWriteStruct {
 public:
  explicit PngWriteStruct(PngSink* sink) {
    png_ = png_create_write_struct(PNG_LIBPNG_VER_STRING, sink, on_png_write_error, on_png_warning);
    EMBER_CHECK(png_ != nullptr, "encode_png: libpng could not create its write struct");
    info_ = png_create_info_struct(png_);
    if (info_ == nullptr) png_destroy_write_struct(&png_, nullptr);
    EMBER_CHECK(info_ != nullptr, "encode_png: libpng could not create its info struct");
    png_set_write_fn(png_, sink, on_png_write, on_png_flush);
  }
  ~PngWriteStruct() { png_destroy_write_struct(&png_, &info_); }
  PngWriteStruct(const PngWriteStruct&) = delete;
  PngWriteStruct& operator=(const PngWriteStruct&) = delete;
  png_structp png() const { return png_; }
  png_infop info() const { return info_; }

 private:
  png_structp png_ = nullptr;
  png_infop info_ = nullptr;
};

}  // namespace

Tensor encode_png(const Tensor& input, int64_t compression_level) {
  const Tensor image = detail::check_encoder_input(input, "encode_png");
  EMBER_CHECK(compression_level >= 0 && compression_level <= 9,
              "encode_png: compression level should be between 0 and 9, got ", compression_level);
  const int64_t channels = image.size(0), height = image.size(1), width = image.size(2);
  EMBER_CHECK(width <= PNG_UINT_31_MAX && height <= PNG_UINT_31_MAX, "encode_png: image of ", width, "x", height,
              " is too large for PNG");
  std::vector<uint8_t> hwc(static_cast<size_t>(channels * height * width));
  detail::chw_to_hwc(image.data_ptr<uint8_t>(), hwc.data(), height, width, channels);
  std::vector<uint8_t> bytes;
  PngSink sink;
  sink.bytes = &bytes;
  {
    PngWriteStruct s(&sink);
    EMBER_CHECK(write_png_image(s.png(), s.info(), hwc.data(), static_cast<png_uint_32>(width),
                                static_cast<png_uint_32>(height), static_cast<int>(channels),
                                static_cast<int>(compression_level)),
                "encode_png: libpng failed: ", sink.message);
  }
  Tensor out = empty({static_cast<int64_t>(bytes.size())}, kUInt8);
  std::memcpy(out.data_ptr<uint8_t>(), bytes.data(), bytes.size());
  return out;
}

void write_png(const Tensor& input, const std::string& filename, int64_t compression_level) {
  write_file(filename, encode_png(input, compression_level));
}

}  // namespace torch::vision::io
