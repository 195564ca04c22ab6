// Note [libjpeg errors]: libjpeg reports errors through error_exit, which must
// not return; ours longjmps back into the step function that made the call.
// As with libpng (Note [libpng errors] in png.cpp), the step functions hold
// only raw pointers and PODs so the longjmp skips no destructor, and the C++
// caller owns the libjpeg structs and turns a failed step into ember::Error.
//
// Note [JPEG layout]: libjpeg emits interleaved rows, so decode_jpeg returns
// the [C, H, W] permuted view of the [H, W, C] buffer it decodes into, as
// torchvision 0.14 does (strides (1, W*C, C)); a planar copy would be a second
// pass over the image, 5-10 % of the decode time at 1080p. Ops that need a
// dense plane layout call contiguous() themselves.
#include "ember/vision/io/jpeg.h"

#include <cstdio>
// jpeglib.h needs size_t and FILE declared first.
#include <jerror.h>
#include <jpeglib.h>

#include <csetjmp>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "ember/core/error.h"
#include "ember/ops/factory/factory.h"
#include "ember/vision/io/detail/image_layout.h"
#include "ember/vision/io/file.h"

namespace torch::vision::io {

namespace {

struct JpegError {
  jpeg_error_mgr pub;
  std::jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
};

[[noreturn]] void on_jpeg_error(j_common_ptr cinfo) {
  auto* err = reinterpret_cast<JpegError*>(cinfo->err);
  (*cinfo->err->format_message)(cinfo, err->message);
  std::longjmp(err->jump, 1);
}

// libjpeg only warns about a file that ends early and decodes the missing part
// as gray; a truncated file is an error here.
void on_jpeg_message(j_common_ptr cinfo, int level) {
  if (level < 0 && cinfo->err->msg_code == JWRN_JPEG_EOF) on_jpeg_error(cinfo);
}

void init_error(JpegError* err) {
  jpeg_std_error(&err->pub);
  err->pub.error_exit = on_jpeg_error;
  err->pub.emit_message = on_jpeg_message;
  err->message[0] = '\0';
}

// Owns a decompressor; destroying a zeroed or half-set-up one is safe.
struct JpegDecoder {
  jpeg_decompress_struct cinfo;
  JpegError err;
  JpegDecoder() {
    std::memset(&cinfo, 0, sizeof(cinfo));
    init_error(&err);
    cinfo.err = &err.pub;
  }
  ~JpegDecoder() { jpeg_destroy_decompress(&cinfo); }
  JpegDecoder(const JpegDecoder&) = delete;
  JpegDecoder& operator=(const JpegDecoder&) = delete;
};

bool read_jpeg_header(JpegDecoder* d, const uint8_t* data, size_t size) {
  if (setjmp(d->err.jump)) return false;
  jpeg_create_decompress(&d->cinfo);
  jpeg_mem_src(&d->cinfo, data, static_cast<unsigned long>(size));
  jpeg_read_header(&d->cinfo, TRUE);
  return true;
}

bool start_jpeg(JpegDecoder* d, J_COLOR_SPACE out_space) {
  if (setjmp(d->err.jump)) return false;
  d->cinfo.out_color_space = out_space;
  jpeg_start_decompress(&d->cinfo);
  return true;
}

// Decodes the scanlines straight into an interleaved [H, W, C] buffer (Note [JPEG layout]).
bool read_jpeg_rows(JpegDecoder* d, uint8_t* out) {
  if (setjmp(d->err.jump)) return false;
  jpeg_decompress_struct* c = &d->cinfo;
  const int64_t stride = static_cast<int64_t>(c->output_width) * c->output_components;
  constexpr int64_t kRowsPerCall = 16;  // an iMCU row of 4:2:0 data
  JSAMPROW rows[kRowsPerCall];
  while (c->output_scanline < c->output_height) {
    const int64_t row0 = c->output_scanline;
    const int64_t left = static_cast<int64_t>(c->output_height) - row0;
    const int64_t n = left < kRowsPerCall ? left : kRowsPerCall;
    for (int64_t i = 0; i < n; ++i) rows[i] = out + (row0 + i) * stride;
    if (jpeg_read_scanlines(c, rows, static_cast<JDIMENSION>(n)) == 0) break;
  }
  jpeg_finish_decompress(c);
  return true;
}

}  // namespace

Tensor decode_jpeg(const Tensor& input, ImageReadMode mode, const Device& device) {
  EMBER_CHECK(device.is_cpu(), "decode_jpeg: device '", device, "' is not available; Ember decodes on the CPU");
  detail::check_encoded_data(input, "decode_jpeg");
  EMBER_CHECK(mode == ImageReadMode::UNCHANGED || mode == ImageReadMode::GRAY || mode == ImageReadMode::RGB,
              "decode_jpeg: the provided mode ImageReadMode::", image_read_mode_name(mode),
              " is not supported for JPEG files (UNCHANGED, GRAY or RGB)");
  const Tensor data = input.contiguous();
  const auto size = static_cast<size_t>(data.numel());
  JpegDecoder d;
  EMBER_CHECK(read_jpeg_header(&d, data.data_ptr<uint8_t>(), size), "decode_jpeg: invalid JPEG: ", d.err.message);
  jpeg_decompress_struct& c = d.cinfo;
  const int64_t width = c.image_width, height = c.image_height;
  detail::check_image_size(width, height, "decode_jpeg");
  // A Huffman-coded scan spends at least a bit per block of the first component.
  if (!c.arith_code) {
    const int64_t blocks = static_cast<int64_t>(c.comp_info[0].width_in_blocks) * c.comp_info[0].height_in_blocks;
    EMBER_CHECK(blocks <= 8 * static_cast<int64_t>(size) + 1024, "decode_jpeg: header claims ", width, "x", height,
                " pixels, more than the ", size, "-byte file can hold");
  }
  J_COLOR_SPACE out_space = c.out_color_space;
  if (mode == ImageReadMode::GRAY && c.jpeg_color_space != JCS_GRAYSCALE) out_space = JCS_GRAYSCALE;
  if (mode == ImageReadMode::RGB && c.jpeg_color_space != JCS_RGB) out_space = JCS_RGB;
  EMBER_CHECK(start_jpeg(&d, out_space), "decode_jpeg: cannot decode ", c.num_components,
              "-component JPEG as ImageReadMode::", image_read_mode_name(mode), ": ", d.err.message);
  const int64_t channels = c.output_components;
  EMBER_CHECK(c.output_width == width && c.output_height == height && channels >= 1 && channels <= 4,
              "decode_jpeg: unexpected output geometry ", c.output_width, "x", c.output_height, "x", channels);
  Tensor hwc = empty({height, width, channels}, kUInt8);
  EMBER_CHECK(read_jpeg_rows(&d, hwc.data_ptr<uint8_t>()), "decode_jpeg: corrupt JPEG data: ", d.err.message);
  return hwc.permute({2, 0, 1});
}

namespace {

struct JpegEncoder {
  jpeg_compress_struct cinfo;
  JpegError err;
  unsigned char* buffer = nullptr;  // jpeg_mem_dest's malloc'ed output
  unsigned long size = 0;
  JpegEncoder() {
    std::memset(&cinfo, 0, sizeof(cinfo));
    init_error(&err);
    cinfo.err = &err.pub;
  }
  ~JpegEncoder() {
    jpeg_destroy_compress(&cinfo);
    std::free(buffer);
  }
  JpegEncoder(const JpegEncoder&) = delete;
  JpegEncoder& operator=(const JpegEncoder&) = delete;
};

// torchvision 0.14's settings: libjpeg's defaults (4:2:0, no Huffman
// optimisation) with the quality scaled to baseline tables.
bool write_jpeg_image(JpegEncoder* e, const uint8_t* hwc, JDIMENSION width, JDIMENSION height, int channels,
                      int quality) {
  if (setjmp(e->err.jump)) return false;
  jpeg_create_compress(&e->cinfo);
  jpeg_mem_dest(&e->cinfo, &e->buffer, &e->size);
  e->cinfo.image_width = width;
  e->cinfo.image_height = height;
  e->cinfo.input_components = channels;
  e->cinfo.in_color_space = channels == 1 ? JCS_GRAYSCALE : JCS_RGB;
  jpeg_set_defaults(&e->cinfo);
  jpeg_set_quality(&e->cinfo, quality, TRUE);
  jpeg_start_compress(&e->cinfo, TRUE);
  const size_t stride = static_cast<size_t>(width) * channels;
  while (e->cinfo.next_scanline < e->cinfo.image_height) {
    JSAMPROW row = const_cast<uint8_t*>(hwc + e->cinfo.next_scanline * stride);
    jpeg_write_scanlines(&e->cinfo, &row, 1);
  }
  jpeg_finish_compress(&e->cinfo);
  return true;
}

}  // namespace

Tensor encode_jpeg(const Tensor& input, int64_t quality) {
  EMBER_CHECK(quality >= 1 && quality <= 100,
              "encode_jpeg: image quality should be a positive number between 1 "
              "and 100, got ",
              quality);
  // libjpeg reads interleaved rows: a valid [C, H, W] view of HWC memory (what decode_jpeg
  // returns, Note [JPEG layout]) is passed as it is, anything else is checked, made planar and
  // interleaved.
  const bool interleaved = input.defined() && input.scalar_type() == kUInt8 && input.dim() == 3 &&
                           (input.size(0) == 1 || input.size(0) == 3) && input.size(1) > 0 && input.size(2) > 0 &&
                           input.permute({1, 2, 0}).is_contiguous();
  const Tensor image = interleaved ? input : detail::check_encoder_input(input, "encode_jpeg");
  const int64_t channels = image.size(0), height = image.size(1), width = image.size(2);
  EMBER_CHECK(width <= JPEG_MAX_DIMENSION && height <= JPEG_MAX_DIMENSION, "encode_jpeg: image of ", width, "x", height,
              " exceeds JPEG's limit of ", JPEG_MAX_DIMENSION, " pixels a side");
  std::vector<uint8_t> hwc;
  const uint8_t* rows = nullptr;
  if (interleaved) {
    rows = image.data_ptr<uint8_t>();
  } else {
    hwc.resize(static_cast<size_t>(channels * height * width));
    detail::chw_to_hwc(image.data_ptr<uint8_t>(), hwc.data(), height, width, channels);
    rows = hwc.data();
  }
  JpegEncoder e;
  EMBER_CHECK(write_jpeg_image(&e, rows, static_cast<JDIMENSION>(width), static_cast<JDIMENSION>(height),
                               static_cast<int>(channels), static_cast<int>(quality)),
              "encode_jpeg: libjpeg failed: ", e.err.message);
  Tensor out = empty({static_cast<int64_t>(e.size)}, kUInt8);
  std::memcpy(out.data_ptr<uint8_t>(), e.buffer, e.size);
  return out;
}

void write_jpeg(const Tensor& input, const std::string& filename, int64_t quality) {
  write_file(filename, encode_jpeg(input, quality));
}

}  // namespace torch::vision::io
