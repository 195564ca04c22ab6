#include "ember/audio/io/video_frame.h"

#include <cstring>

extern "C" {
#include <libavutil/pixdesc.h>
}

#include "ember/core/error.h"
#include "ember/ops/factory/factory.h"

namespace torch::audio::io::reader_filter {
namespace {

// Bytes per pixel of a packed 8-bit pixel format (rgb24: 3, gray: 1, rgba: 4);
// 0 for planar, paletted, subsampled or deeper formats.
int packed_channels(AVPixelFormat f) {
  const AVPixFmtDescriptor* d = av_pix_fmt_desc_get(f);
  if (d == nullptr ||
      (d->flags & (AV_PIX_FMT_FLAG_PLANAR | AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_BITSTREAM | AV_PIX_FMT_FLAG_HWACCEL)))
    return 0;
  if (d->nb_components == 0 || d->log2_chroma_w != 0 || d->log2_chroma_h != 0) return 0;
  for (int c = 0; c < d->nb_components; ++c)
    if (d->comp[c].depth != 8) return 0;
  return av_get_padded_bits_per_pixel(d) / 8;
}

// Copies `rows` x `width` bytes of a plane with FFmpeg's line stride.
void copy_plane(uint8_t* dst, const uint8_t* src, int stride, int64_t rows, int64_t width) {
  for (int64_t y = 0; y < rows; ++y) std::memcpy(dst + y * width, src + y * stride, static_cast<size_t>(width));
}

}  // namespace

bool is_tensor_pixel_format(AVPixelFormat format) {
  return packed_channels(format) > 0 || format == AV_PIX_FMT_YUV444P || format == AV_PIX_FMT_YUV420P ||
         format == AV_PIX_FMT_NV12;
}

void check_tensor_pixel_format(const std::string& fn, int format) {
  const char* name = av_get_pix_fmt_name(static_cast<AVPixelFormat>(format));
  EMBER_CHECK(is_tensor_pixel_format(static_cast<AVPixelFormat>(format)), fn, ": pixel format ", name ? name : "none",
              " cannot be returned as a tensor; use a packed 8-bit format (rgb24, bgr24, rgba, gray, ...), "
              "yuv444p, yuv420p or nv12");
}

Tensor video_frame_to_tensor(const AVFrame* frame) {
  const auto format = static_cast<AVPixelFormat>(frame->format);
  check_tensor_pixel_format("StreamReader", format);
  const int64_t w = frame->width, h = frame->height;
  EMBER_CHECK(w > 0 && h > 0, "StreamReader: a filtered video frame is ", w, "x", h);
  if (const int c = packed_channels(format); c > 0) {
    EMBER_CHECK(frame->linesize[0] >= w * c, "StreamReader: a video frame's lines are shorter than its width");
    Tensor hwc = empty({1, h, w, c}, TensorOptions().dtype(kByte));
    copy_plane(static_cast<uint8_t*>(hwc.data_ptr()), frame->data[0], frame->linesize[0], h, w * c);
    return hwc.permute({0, 3, 1, 2}).contiguous();
  }
  Tensor out = empty({1, 3, h, w}, TensorOptions().dtype(kByte));
  auto* dst = static_cast<uint8_t*>(out.data_ptr());
  const int64_t plane = h * w;
  if (format == AV_PIX_FMT_YUV444P) {
    for (int p = 0; p < 3; ++p) {
      EMBER_CHECK(frame->linesize[p] >= w, "StreamReader: a video frame's lines are shorter than its width");
      copy_plane(dst + p * plane, frame->data[p], frame->linesize[p], h, w);
    }
    return out;
  }
  // 4:2:0: one chroma sample per 2x2 block, repeated over it.
  const int64_t cw = (w + 1) / 2;
  EMBER_CHECK(frame->linesize[0] >= w, "StreamReader: a video frame's lines are shorter than its width");
  copy_plane(dst, frame->data[0], frame->linesize[0], h, w);
  const bool nv12 = format == AV_PIX_FMT_NV12;
  EMBER_CHECK(nv12 ? frame->linesize[1] >= 2 * cw : frame->linesize[1] >= cw && frame->linesize[2] >= cw,
              "StreamReader: a video frame's chroma lines are shorter than its width");
  for (int64_t y = 0; y < h; ++y) {
    const uint8_t* u = frame->data[1] + (y / 2) * frame->linesize[1];
    const uint8_t* v = nv12 ? u + 1 : frame->data[2] + (y / 2) * frame->linesize[2];
    const int64_t step = nv12 ? 2 : 1;
    uint8_t* du = dst + plane + y * w;
    uint8_t* dv = dst + 2 * plane + y * w;
    for (int64_t x = 0; x < w; ++x) {
      du[x] = u[(x / 2) * step];
      dv[x] = v[(x / 2) * step];
    }
  }
  return out;
}

}  // namespace torch::audio::io::reader_filter
