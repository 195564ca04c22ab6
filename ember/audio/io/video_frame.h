#pragma once
// StreamReader's video frames as tensors: [1, C, H, W] uint8, in the pixel
// formats torchaudio 0.13 returns: packed 8-bit ones (rgb24, bgr24, rgba,
// gray, ...) as they are; yuv444p as its three planes; yuv420p and nv12 as
// Y, U, V with the half-resolution chroma repeated over each 2x2 block.
#include <cstdint>  // before FFmpeg's headers, which need INT64_C in C++

extern "C" {
#include <libavutil/frame.h>
#include <libavutil/pixfmt.h>
}

#include <string>

#include "ember/core/tensor.h"

namespace torch::audio::io::reader_filter {

bool is_tensor_pixel_format(AVPixelFormat format);
// Raises naming `fn` unless frames of `format` can be returned.
void check_tensor_pixel_format(const std::string& fn, int format);
Tensor video_frame_to_tensor(const AVFrame* frame);

}  // namespace torch::audio::io::reader_filter
